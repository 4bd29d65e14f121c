/**
 * ws-load's open loop (bench/ws-load.ts): sessions stepped at a fixed rate against steplens, then against the echo
 * at the same rate; p99 step-to-score latency, where the tail sits, event-loop delays, GC pauses and memory.
 */
import { readNumber } from './args.js';
import { cpuSeconds, machineTicks, residentMb, stealPercent } from './proc-cpu.js';
import type { TargetProcess } from './server-process.js';
import { fmt, latencySummary, median, quantiles, ratio } from './timing.js';
import type { Window } from './ws-driver.js';
import { driveHere, driveInWorkers, driverShares, type OpenLoop } from './ws-pace-drivers.js';

export type { OpenLoop } from './ws-pace-drivers.js';

/** One open-loop round against `t`: `sessions` sessions over `connections`, `rate` steps/s, 1 s of warm-up. */
async function pacedRound(t: TargetProcess, rate: number, connections: number, sessions: number, loop: OpenLoop) {
  let ticks = machineTicks();
  let cpu0 = [0, 0];
  const onRecording = async (): Promise<void> => {
    await t.loopDelay();
    ticks = machineTicks();
    cpu0 = [cpuSeconds(t.pid), cpuSeconds(process.pid)];
  };
  const { w, driverDelay, close } = await (loop.drivers === 0 ? driveHere : driveInWorkers)(t, rate, connections, sessions, loop, onRecording);
  const steal = stealPercent(ticks);
  // CPU seconds of the target and of the driver (every thread of this process) over the window, per scored step.
  const cpu = [cpuSeconds(t.pid) - cpu0[0]!, cpuSeconds(process.pid) - cpu0[1]!];
  // Before the forced GC of memory(): what the young generation's size costs in resident memory.
  const rss = residentMb(t.pid);
  const serverDelay = await t.loopDelay();
  await close();
  if (w.errors > 0) throw new Error(`paced: ${w.errors} error frame(s), first: ${w.firstError}`);
  const heapMb = (await t.memory()).heapUsed / 2 ** 20;
  return { w, lat: latencySummary(w.latencies), due: latencySummary(w.dueLatencies), serverDelay, driverDelay, heapMb, rss, steal, cpu };
}

/** Where the tail of a paced window sits: step quantiles, and what session starts and ends waited. */
function tailLine(w: Window): string {
  const [p90, p95, p98, p995, p999] = quantiles(w.latencies, [0.9, 0.95, 0.98, 0.995, 0.999]).map((x) => fmt(x, 2));
  const control = (xs: Float64Array): string => {
    const s = latencySummary(xs);
    return `p50 ${fmt(s.p50, 2)} p99 ${fmt(s.p99, 2)} max ${fmt(s.max, 2)} (n = ${s.n})`;
  };
  // Steps of the trajectory whose own latency is high at the median: a per-step cost, not a pause.
  const bySeq = new Map<number, number[]>();
  w.latencySteps.forEach((seq, i) => (bySeq.get(seq) ?? bySeq.set(seq, []).get(seq)!).push(w.latencies[i]!));
  const slow = [...bySeq]
    .map(([seq, xs]) => [seq, median(xs)] as const)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([seq, m]) => `#${seq} ${fmt(m, 2)}`)
    .join(', ');
  // Slow steps that arrive together waited behind one pause (GC, a session's start or end); lone ones cost alone.
  let slowN = 0;
  let bursts = 0;
  let last = -Infinity;
  w.latencies.forEach((x, i) => {
    if (x <= 2) return;
    slowN++;
    const sent = w.arrivals[i]! - x;
    if (sent - last > 3) bursts++;
    last = Math.max(last, w.arrivals[i]!);
  });
  return `step latency ms p90 ${p90} p95 ${p95} p98 ${p98} p99.5 ${p995} p99.9 ${p999}; ${slowN} steps over 2 ms in ${bursts} bursts; slowest steps by median: ${slow}; start → started ${control(w.startLatencies)}; end → final ${control(w.endLatencies)}`;
}

/** `--stagger-order`, checked. */
export function staggerOrder(o: string | undefined): 'spread' | 'by-slot' | undefined {
  return o === 'spread' || o === 'by-slot' ? o : undefined;
}

/** A paced rate: `half` of the highest closed-loop median, or steps/s. */
export interface RateSpec {
  label: string;
  rate: number;
}

/** Why `--rate`'s list cannot be read (an item neither `half` nor a positive number of steps/s), or undefined. */
export function rateListError(rates: string): string | undefined {
  const bad = rates.split(',').find((x) => x.trim() !== '' && x !== 'half' && readNumber(x, 'positive number') === undefined);
  return bad === undefined ? undefined : `--rate needs half or positive numbers of steps/s separated by commas, got '${bad}' in '${rates}'`;
}

/** `--rate`'s list against `max`, the highest closed-loop median of steplens. */
export function pacedRates(rates: string, max: number): RateSpec[] {
  // `--rate ''` (as bench/README.md's profiling commands give it): no paced run.
  return rates
    .split(',')
    .filter((x) => x.trim() !== '')
    .map((x) => {
      if (x === 'half') {
        if (!Number.isFinite(max)) throw new Error('--rate half needs a closed-loop shape to halve (--shapes), or give steps/s');
        return { label: 'half', rate: max / 2 };
      }
      const rate = Number(x);
      if (!(rate > 0)) throw new Error(`--rate: ${x} is neither "half" nor a positive number of steps/s`);
      return { label: String(rate), rate };
    });
}

/** The open loop against steplens, then against the echo at the same rate; prints both. */
export async function paced(a: TargetProcess, b: TargetProcess, loop: OpenLoop, spec: RateSpec, sessions: number) {
  const pc = Math.min(loop.pacedConnections, sessions);
  // The same open loop against the echo at the same rate: the latency this machine and driver allow at that load.
  const pa = await pacedRound(a, spec.rate, pc, sessions, loop);
  const pb = await pacedRound(b, spec.rate, pc, sessions, loop);
  const threads = driverShares(pc, loop.drivers, spec.rate).length;
  const drivers = loop.drivers === 0 ? "the bench's main thread" : `${threads} worker thread${threads === 1 ? '' : 's'}`;
  console.log(
    `paced (open loop): ${pc * Math.ceil(sessions / pc)} open sessions over ${pc} connections, target rate ${fmt(spec.rate, 0)} steps/s (${spec.label === 'half' ? 'half of the max median' : '--rate'}); steplens then echo`,
  );
  for (const [label, x] of [
    ['A steplens', pa],
    ['B ws echo', pb],
  ] as const) {
    const { w, lat, due, serverDelay, driverDelay } = x;
    const gc = serverDelay.gc;
    console.log(
      `${label}: sent ${fmt(w.sent / w.seconds, 0)}/s, answered ${fmt(w.scored / w.seconds, 0)}/s over ${fmt(w.seconds, 1)} s, ${w.skipped} due steps skipped, host steal ${fmt(x.steal, 1)} %; latency ms p50 ${fmt(lat.p50, 3)}  p99 ${fmt(lat.p99, 3)}  max ${fmt(lat.max, 2)}  (n = ${lat.n})`,
    );
    console.log(
      `  from each step's due time (the driver's lateness counted): p50 ${fmt(due.p50, 3)} p99 ${fmt(due.p99, 3)} max ${fmt(due.max, 2)}; CPU over the window (/proc): target ${fmt((x.cpu[0]! * 1e6) / w.scored, 1)} µs a step, ${fmt((x.cpu[0]! * 100) / w.seconds, 0)} % of a core; driver (${drivers}) ${fmt((x.cpu[1]! * 1e6) / w.scored, 1)} µs a step, ${fmt((x.cpu[1]! * 100) / w.seconds, 0)} % of a core`,
    );
    console.log(`  ${tailLine(w)}`);
    console.log(
      `  event-loop delay ms: server p99 ${fmt(serverDelay.p99, 1)} max ${fmt(serverDelay.max, 1)}; driver p99 ${fmt(driverDelay.p99, 1)} max ${fmt(driverDelay.max, 1)}; server GC (perf_hooks): ${gc.minor.n} scavenges, ${fmt(gc.minor.total, 0)} ms in all, p99 ${fmt(gc.minor.p99, 2)} max ${fmt(gc.minor.max, 2)} ms; ${gc.major.n} full, ${fmt(gc.major.total, 0)} ms, max ${fmt(gc.major.max, 1)} ms; heap used after ${fmt(x.heapMb, 0)} MB (after a forced GC); RSS ${fmt(x.rss.now, 0)} MB at the window's end, peak ${fmt(x.rss.peak, 0)} MB`,
    );
  }
  console.log(`paced p99 steplens / echo at the same rate: ${ratio(pa.lat.p99, pb.lat.p99)} (from the due times: ${ratio(pa.due.p99, pb.due.p99)})`);
  const { w, lat, serverDelay, driverDelay } = pa;
  const figures = {
    paced_drivers: driverShares(pc, loop.drivers, spec.rate).length * Math.sign(loop.drivers),
    paced_due_p99_ms: pa.due.p99,
    paced_echo_due_p99_ms: pb.due.p99,
    paced_server_cpu_us_per_step: (pa.cpu[0]! * 1e6) / w.scored,
    paced_server_busy_pct: (pa.cpu[0]! * 100) / w.seconds,
    paced_echo_cpu_us_per_step: (pb.cpu[0]! * 1e6) / pb.w.scored,
    paced_driver_cpu_us_per_step: (pa.cpu[1]! * 1e6) / w.scored,
    paced_echo_server_scavenges: pb.serverDelay.gc.minor.n,
    paced_echo_server_scavenge_ms: pb.serverDelay.gc.minor.total,
    paced_rate: spec.rate,
    paced_scored_per_s: w.scored / w.seconds,
    paced_p50_ms: lat.p50,
    paced_p99_ms: lat.p99,
    paced_max_ms: lat.max,
    paced_p999_ms: quantiles(w.latencies, [0.999])[0] ?? Number.NaN,
    paced_server_loop_delay_max_ms: serverDelay.max,
    paced_server_scavenges: serverDelay.gc.minor.n,
    paced_server_scavenge_p99_ms: serverDelay.gc.minor.p99,
    paced_server_scavenge_max_ms: serverDelay.gc.minor.max,
    paced_server_full_gc_ms: serverDelay.gc.major.total,
    paced_server_scavenge_ms: serverDelay.gc.minor.total,
    paced_server_rss_mb: pa.rss.now,
    paced_server_rss_peak_mb: pa.rss.peak,
    paced_driver_loop_delay_max_ms: driverDelay.max,
    paced_echo_p50_ms: pb.lat.p50,
    paced_echo_p99_ms: pb.lat.p99,
    paced_echo_max_ms: pb.lat.max,
    paced_steal_pct: pa.steal,
    paced_echo_steal_pct: pb.steal,
  };
  return { p99: lat.p99, figures };
}

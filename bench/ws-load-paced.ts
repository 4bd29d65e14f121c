/**
 * ws-load's open loop (bench/ws-load.ts): sessions stepped at a fixed rate against steplens, then against the echo
 * at the same rate; p99 step-to-score latency, where the tail sits, event-loop delays, GC pauses and memory.
 */
import { readNumber } from './args.js';
import { gcLine, slowStepsInGc, type GcSpan } from './gc-watch.js';
import { cpuSeconds, machineTicks, residentMb, stealPercent } from './proc-cpu.js';
import type { TargetProcess } from './server-process.js';
import { fmt, latencySummary, median, quantiles, ratio } from './timing.js';
import type { Window } from './ws-driver.js';
import { perStep, threadWakeups, type ThreadWakeups } from './ws-load-wakeups.js';
import { driveHere, driveInWorkers, driverShares, type OpenLoop } from './ws-pace-drivers.js';

export type { OpenLoop } from './ws-pace-drivers.js';

/** One open-loop round against `t`: `sessions` sessions over `connections`, `rate` steps/s, 1 s of warm-up. */
async function pacedRound(t: TargetProcess, rate: number, connections: number, sessions: number, loop: OpenLoop) {
  let ticks = machineTicks();
  let cpu0 = [0, 0];
  let wake0 = threadWakeups(t.pid);
  const onRecording = async (): Promise<void> => {
    await t.loopDelay();
    ticks = machineTicks();
    cpu0 = [cpuSeconds(t.pid), cpuSeconds(process.pid)];
    wake0 = threadWakeups(t.pid);
  };
  const { w, driverDelay, close } = await (loop.drivers === 0 ? driveHere : driveInWorkers)(t, rate, connections, sessions, loop, onRecording);
  const steal = stealPercent(ticks);
  // CPU seconds of the target and of the driver (every thread of this process) over the window, per scored step.
  const cpu = [cpuSeconds(t.pid) - cpu0[0]!, cpuSeconds(process.pid) - cpu0[1]!];
  const wakeups = perStep(wake0, threadWakeups(t.pid), w.scored);
  // Before the forced GC of memory(): what the young generation's size costs in resident memory.
  const rss = residentMb(t.pid);
  const serverDelay = await t.loopDelay();
  await close();
  if (w.errors > 0) throw new Error(`paced: ${w.errors} error frame(s), first: ${w.firstError}`);
  const heapMb = (await t.memory()).heapUsed / 2 ** 20;
  return { w, lat: latencySummary(w.latencies), due: latencySummary(w.dueLatencies), serverDelay, driverDelay, heapMb, rss, steal, cpu, wakeups };
}

/** The target's main thread over a window, a step: its wakeups, the times it was put off a core, its CPU and the other threads'. */
function wakeupLine(x: ThreadWakeups): string {
  return `target main thread a step: ${fmt(x.voluntary, 2)} wakeups (voluntary switches), put off a core ${fmt(x.involuntary, 2)} times; CPU main thread ${fmt(x.mainCpu * 1e6, 1)} µs, other threads ${fmt(x.otherCpu * 1e6, 1)} µs (/proc)`;
}

/** Where the tail of a paced window sits: step quantiles, and what session starts and ends waited. */
function tailLine(w: Window, spans: readonly GcSpan[]): string {
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
  const { inGc } = slowStepsInGc(w.latencies, w.arrivals, spans, 2);
  return `step latency ms p90 ${p90} p95 ${p95} p98 ${p98} p99.5 ${p995} p99.9 ${p999}; ${slowN} steps over 2 ms in ${bursts} bursts, ${inGc} of them in flight during a target GC pause; slowest steps by median: ${slow}; start → started ${control(w.startLatencies)}; end → final ${control(w.endLatencies)}`;
}

/** `--stagger-order`, checked. */
export function staggerOrder(o: string | undefined): 'spread' | 'by-slot' | undefined {
  return o === 'spread' || o === 'by-slot' ? o : undefined;
}

/**
 * A paced rate: `half-paced` = half the paced shape's own capacity measured in the same run ({@link pacedCapacity}:
 * the half-load target's rate since p99-21), `half` = half the highest closed-loop median (the pipelined shape: the
 * rate before p99-21, printed beside, no target), or steps/s.
 */
export interface RateSpec {
  label: string;
  rate: number;
}

const HALVES = new Set(['half', 'half-paced']);

/** Why `--rate`'s list cannot be read (an item neither `half`, `half-paced` nor a positive number of steps/s), or undefined. */
export function rateListError(rates: string): string | undefined {
  const bad = rates.split(',').find((x) => x.trim() !== '' && !HALVES.has(x) && readNumber(x, 'positive number') === undefined);
  return bad === undefined ? undefined : `--rate needs half-paced, half or positive numbers of steps/s separated by commas, got '${bad}' in '${rates}'`;
}

/** Whether `--rate`'s list needs the paced shape's capacity measured first (it holds `half-paced`). */
export function needsCapacity(rates: string): boolean {
  return rates.split(',').includes('half-paced');
}

/** `--rate`'s list against `max`, the highest closed-loop median of steplens, and `capacity`, the paced shape's. */
export function pacedRates(rates: string, max: number, capacity = Number.NaN): RateSpec[] {
  // `--rate ''` (as bench/README.md's profiling commands give it): no paced run.
  return rates
    .split(',')
    .filter((x) => x.trim() !== '')
    .map((x) => {
      if (x === 'half') {
        if (!Number.isFinite(max)) throw new Error('--rate half needs a closed-loop shape to halve (--shapes), or give steps/s');
        return { label: 'half', rate: max / 2 };
      }
      if (x === 'half-paced') {
        if (!Number.isFinite(capacity)) throw new Error("--rate half-paced needs the paced shape's capacity measured first");
        return { label: 'half-paced', rate: capacity / 2 };
      }
      const rate = Number(x);
      if (!(rate > 0)) throw new Error(`--rate: ${x} is neither "half-paced", "half" nor a positive number of steps/s`);
      return { label: String(rate), rate };
    });
}

/** What the paced shape carries: steps/s answered when `offered` steps/s are asked of steplens alone. */
export interface Capacity {
  offered: number;
  sent: number;
  answered: number;
  /** The target's share of a core over the window (near 100: the server was what held the rate). */
  busyPct: number;
  cpuUsPerStep: number;
  /** The answered rate fell below {@link CAPACITY_REACHED} of the offered one: the server, not the offer, held it. */
  reached: boolean;
}

/** A round's counts over its recorded window (bench/ws-driver.ts's `PacedCounts` and `scored`, `seconds`). */
export interface RoundCounts {
  sent: number;
  scored: number;
  seconds: number;
}

/**
 * A capacity round's sent and answered steps/s. Answered is every score of the window, but never more than the steps
 * sent in it: scores beyond those answered steps the warm-up left in flight (the server fell behind in the warm-up
 * and caught up), which shows the server carried the sent rate, not more. Stop 72's first round counted them: 30,516
 * answered a second of 29,995 sent, and the row ran at half of that (cap28). At saturation every score counts: the
 * server was busy the whole window, whatever it was answering.
 */
export function roundRates(c: RoundCounts): { sent: number; answered: number; drained: number } {
  const answered = Math.min(c.scored, c.sent);
  return { sent: c.sent / c.seconds, answered: answered / c.seconds, drained: Math.max(0, c.scored - c.sent) };
}

/** Answered below this share of the offered rate, a capacity round found the capacity (the server held the rate). */
export const CAPACITY_REACHED = 0.9;

/** A server's share of a core (%) under which its capacity round was held by the machine more than by its work. */
const SATURATED_PCT = 90;

/** While a capacity round answers near its offer, the next one offers this many times more. */
export const CAPACITY_STEP = 1.5;

/**
 * The next capacity round's offered steps/s, or undefined: round `round` (from 1) of at most `rounds` answered below
 * {@link CAPACITY_REACHED} of its offer (the capacity is found), or was the last. Before half22 one round offered
 * 30,000 steps/s; stop 69's answered 28,112 of them, said "not reached", and the half-load row ran at half of that.
 */
export function nextCapacityOffer(offered: number, answered: number, round: number, rounds: number): number | undefined {
  if (answered < CAPACITY_REACHED * offered || round >= rounds) return undefined;
  return Math.round(offered * CAPACITY_STEP);
}

/**
 * The capacity of a series of rounds: the most any round answered (the server carried at least that), found when
 * the last round answered below {@link CAPACITY_REACHED} of its offer (else it is a lower bound: say so).
 */
export function capacityOf(rounds: readonly Capacity[]): { answered: number; reached: boolean; best: Capacity; rounds: number } {
  const best = rounds.reduce((x, y) => (y.answered > x.answered ? y : x));
  return { answered: best.answered, reached: rounds.at(-1)!.reached, best, rounds: rounds.length };
}

/**
 * The paced shape's own capacity in this run: rounds of {@link pacedCapacityRound} from `offered` steps/s up by
 * {@link CAPACITY_STEP} while the server answers near its offer, at most `rounds`. Prints each round and the capacity.
 */
export async function pacedCapacity(a: TargetProcess, loop: OpenLoop, offered: number, rounds: number, sessions: number): Promise<Capacity[]> {
  const out: Capacity[] = [];
  for (let next: number | undefined = offered; next !== undefined;) {
    const c = await pacedCapacityRound(a, loop, next, sessions);
    out.push(c);
    next = nextCapacityOffer(c.offered, c.answered, out.length, rounds);
  }
  const { answered, reached, best } = capacityOf(out);
  const last = out.at(-1)!;
  console.log(
    reached
      ? `paced capacity: ${fmt(answered, 0)} steps/s (the most a round answered; the last round answered ${fmt(last.answered, 0)} of ${fmt(last.offered, 0)} offered, the server at ${fmt(last.busyPct, 0)} % of a core)`
      : `paced capacity: NOT REACHED: at least ${fmt(answered, 0)} steps/s (${out.length} round${out.length === 1 ? '' : 's'} up to ${fmt(last.offered, 0)} offered each answered ${CAPACITY_REACHED * 100} % of it or more; raise --capacity-rate or --capacity-rounds); the half-load row runs at half of this lower bound`,
  );
  if (best !== last) console.log(`  (the most was answered at ${fmt(best.offered, 0)} offered: a larger offer did not add answers)`);
  // A server short of a core at its capacity was held by the machine (the driver, other jobs), not by its own work.
  if (best.busyPct < SATURATED_PCT) console.log(`  (the server had ${fmt(best.busyPct, 0)} % of a core at it: the machine held the rate, not the server's work a step alone)`);
  return out;
}

/**
 * One capacity round: the same sessions, connections and drivers as the paced rows, asked `offered` steps/s, against
 * steplens only. A session sends its steps on schedule, answered or
 * not, and waits for its final before the next session, so the backlog is bounded (a trajectory a session) and what
 * the server answers a second is what it carries in this shape on this machine now. At saturation a read carries
 * several frames, as it rarely does at half of it, so this is the capacity with the server's batching at its best:
 * half of it is not less than half of what one frame a read would carry.
 */
async function pacedCapacityRound(a: TargetProcess, loop: OpenLoop, offered: number, sessions: number): Promise<Capacity> {
  const pc = Math.min(loop.pacedConnections, sessions);
  const x = await pacedRound(a, offered, pc, sessions, loop);
  const settled = await sessionsEnded(a);
  const { sent, answered, drained } = roundRates(x.w);
  const c: Capacity = {
    offered,
    sent,
    answered,
    busyPct: (x.cpu[0]! * 100) / x.w.seconds,
    cpuUsPerStep: (x.cpu[0]! * 1e6) / x.w.scored,
    reached: answered < CAPACITY_REACHED * offered,
  };
  console.log(
    `paced capacity round (steplens alone, ${pc * Math.ceil(sessions / pc)} sessions over ${pc} connections, offered ${fmt(offered, 0)} steps/s): sent ${fmt(c.sent, 0)}/s, answered ${fmt(answered, 0)}/s (${fmt(x.w.scored / x.w.seconds, 0)}/s scored in the window, ${fmt(x.w.scoredOwn / x.w.seconds, 0)}/s of its own steps; ${x.w.inFlightAtStart} steps in flight at its start, ${x.w.inFlightAtEnd} at its end${drained > 0 ? `; ${drained} scores beyond its sends not counted` : ''}), ${x.w.skipped} due steps skipped (every session had sent its trajectory and waited for its final); target ${fmt(c.cpuUsPerStep, 1)} µs of CPU a step, ${fmt(c.busyPct, 0)} % of a core; driver ${fmt((x.cpu[1]! * 100) / x.w.seconds, 0)} % of a core; its sessions ended and freed ${settled}${c.reached ? '' : ` - answered ${CAPACITY_REACHED * 100} % of the offer or more: not the capacity`}`,
  );
  return c;
}

/**
 * Waits until steplens holds no open session (`steplens_active_sessions` of /metrics, polled): the capacity
 * round's 1,000 detached sessions are ended by the sweep once the resume window passes, which held the next round's
 * first seconds (p99-21: its starts waited 0.6 s, 4 full GCs). Says how long it took, or that it gave up after 30 s.
 */
async function sessionsEnded(a: TargetProcess): Promise<string> {
  const t0 = performance.now();
  while (performance.now() - t0 < 30_000) {
    const text = await fetch(`${a.http}/metrics`).then((r) => r.text());
    const open = Number(/^steplens_active_sessions (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
    if (open === 0) {
      // The ends' garbage is collected on the sweep's turn: a second more before the next round starts.
      await new Promise((r) => setTimeout(r, 1000));
      return `after ${fmt((performance.now() - t0) / 1000, 1)} s`;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return 'not within 30 s (the next round shares the server with their ends)';
}

/** What a paced row's rate is, in its line. */
function rateWhy(label: string): string {
  if (label === 'half-paced') return "half of the paced shape's capacity measured above: the half-load target's rate";
  if (label === 'half') return 'half of the pipelined max median: the rate before p99-21, informational, no target';
  return '--rate';
}

/** The open loop against steplens, then against the echo at the same rate; prints both. */
export async function paced(a: TargetProcess, b: TargetProcess, loop: OpenLoop, spec: RateSpec, sessions: number) {
  const pc = Math.min(loop.pacedConnections, sessions);
  // The same open loop against the echo at the same rate: the latency this machine and driver allow at that load.
  const pa = await pacedRound(a, spec.rate, pc, sessions, loop);
  const pb = await pacedRound(b, spec.rate, pc, sessions, loop);
  const threads = driverShares(pc, loop.drivers, spec.rate).length;
  const drivers = loop.drivers === 0 ? "the bench's main thread" : `${threads} worker thread${threads === 1 ? '' : 's'}`;
  console.log(`paced (open loop): ${pc * Math.ceil(sessions / pc)} open sessions over ${pc} connections, target rate ${fmt(spec.rate, 0)} steps/s (${rateWhy(spec.label)}); steplens then echo`);
  for (const [label, x] of [
    ['A steplens', pa],
    ['B ws echo', pb],
  ] as const) {
    const { w, lat, due, serverDelay, driverDelay } = x;
    console.log(
      `${label}: sent ${fmt(w.sent / w.seconds, 0)}/s, answered ${fmt(w.scored / w.seconds, 0)}/s over ${fmt(w.seconds, 1)} s, ${w.skipped} due steps skipped, host steal ${fmt(x.steal, 1)} %; latency ms p50 ${fmt(lat.p50, 3)}  p99 ${fmt(lat.p99, 3)}  max ${fmt(lat.max, 2)}  (n = ${lat.n})`,
    );
    console.log(
      `  from each step's due time (the driver's lateness counted): p50 ${fmt(due.p50, 3)} p99 ${fmt(due.p99, 3)} max ${fmt(due.max, 2)}; CPU over the window (/proc): target ${fmt((x.cpu[0]! * 1e6) / w.scored, 1)} µs a step, ${fmt((x.cpu[0]! * 100) / w.seconds, 0)} % of a core; driver (${drivers}) ${fmt((x.cpu[1]! * 1e6) / w.scored, 1)} µs a step, ${fmt((x.cpu[1]! * 100) / w.seconds, 0)} % of a core`,
    );
    console.log(`  ${wakeupLine(x.wakeups)}`);
    console.log(`  ${tailLine(w, serverDelay.gc.spans)}`);
    console.log(
      `  event-loop delay ms: server p99 ${fmt(serverDelay.p99, 1)} max ${fmt(serverDelay.max, 1)} (intervals of its ${serverDelay.resolutionMs} ms monitor, which an idle loop reads; its timer fired ${fmt(serverDelay.samples / w.scored, 2)} times a step); driver p99 ${fmt(driverDelay.p99, 1)} max ${fmt(driverDelay.max, 1)}`,
    );
    console.log(`  ${gcLine(serverDelay.gc)}; heap used after ${fmt(x.heapMb, 0)} MB (after a forced GC); RSS ${fmt(x.rss.now, 0)} MB at the window's end, peak ${fmt(x.rss.peak, 0)} MB`);
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
    paced_server_wakeups_per_step: pa.wakeups.voluntary,
    paced_server_preempted_per_step: pa.wakeups.involuntary,
    paced_server_main_cpu_us_per_step: pa.wakeups.mainCpu * 1e6,
    paced_server_other_cpu_us_per_step: pa.wakeups.otherCpu * 1e6,
    paced_echo_wakeups_per_step: pb.wakeups.voluntary,
    paced_driver_cpu_us_per_step: (pa.cpu[1]! * 1e6) / w.scored,
    paced_echo_server_scavenges: pb.serverDelay.gc.minor.n,
    paced_echo_server_scavenge_ms: pb.serverDelay.gc.minor.total,
    paced_rate: spec.rate,
    paced_slow_steps: slowStepsInGc(w.latencies, w.arrivals, serverDelay.gc.spans, 2).slow,
    paced_slow_steps_in_gc: slowStepsInGc(w.latencies, w.arrivals, serverDelay.gc.spans, 2).inGc,
    paced_echo_slow_steps_in_gc: slowStepsInGc(pb.w.latencies, pb.w.arrivals, pb.serverDelay.gc.spans, 2).inGc,
    paced_echo_slow_steps: slowStepsInGc(pb.w.latencies, pb.w.arrivals, pb.serverDelay.gc.spans, 2).slow,
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
    paced_server_full_gcs: serverDelay.gc.major.n,
    paced_server_gc_other_ms: serverDelay.gc.other.total,
    paced_server_old_space_start_mb: serverDelay.gc.heap.start.oldMb,
    paced_server_old_space_end_mb: serverDelay.gc.heap.end.oldMb,
    paced_server_young_generation_mb: serverDelay.gc.heap.end.youngMb,
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

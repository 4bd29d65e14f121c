/**
 * WebSocket load benchmark of `/v1/stream` against the limit for JSON over
 * WebSocket on this machine. The driver (this process, {@link LoadDriver})
 * replays a real held-out corpus run (79 steplens steps of pylint-dev__astroid-1196 that its task's PTA in
 * data/example was not built from) over C connections × M sessions, `depth` steps in flight per session,
 * each session a full one: `start`, its steps, `end`, and once its `final` arrives a new session.
 * Targets run in their own processes: A = the steplens server, B = a bare `ws` server that parses each
 * frame and answers a small JSON reply. Two shapes (`--shapes`):
 *  - `lifecycle` (issue 24): 16 connections × 1 session, 1 step in flight: every step, start and end
 *    waits for its answer, so session start and end and the per-message work count in full;
 *  - `pipelined` (issue 6): 16 and 64 connections × 4 sessions × 4 steps in flight (long pipelined
 *    sessions; a session's start and end overlap other sessions' steps).
 *  1. throughput, per shape and connection count: one warm-up round of A and B, then `--rounds`
 *     rounds of each in the order A B B A A B ...; steps/s = score frames received per second of a round;
 *     with 5 rounds or more, a 95 % interval of the ratio over the pairs of rounds (bench/intervals.ts);
 *     latency = step sent → its score received (client clock); ratio = median A rate / median B rate
 *     (targets: lifecycle >= 0.6, pipelined >= 0.5). CPU µs per step of A, B and the driver over the
 *     rounds (from /proc) are printed beside: on a shared machine they move less than the rates;
 *  2. paced (open loop): `--paced-sessions` sessions at each rate of `--rate` (a list: steps/s, or `half` =
 *     half the highest median A rate, the default), p99 step-to-score latency (target < 2 ms at `half`), then
 *     the same open loop against B at the same rate (what this machine and driver allow at that load);
 *     e.g. `--rate 500,half`: 1,000 agents stepping every 2 s, then half the maximum;
 *     the sessions' phases are first spread over the trajectory (`stagger`), so
 *     session ends come at a steady rate; `--no-stagger` keeps them in lockstep, and `--stagger-order by-slot`
 *     spreads them in slot order as before stop 34 (ends then come back to back once a round, see ws-driver);
 *     beside p99 it prints where the tail sits: quantiles (p90-p99.9), steps over 2 ms and in how many bursts, the
 *     trajectory's slowest steps, and what session starts and ends waited; with the server's GC pauses and its
 *     resident memory (what a larger young generation costs).
 * `--profile DIR` runs the steplens process under `--cpu-prof` and prints its top self-time functions;
 * `--server-args=...` passes more node flags to it (e.g. `--server-args=--trace-gc`; the = is needed, the value starts with a dash).
 *
 *   node dist/bench/ws-load.js [--shapes lifecycle,pipelined] [--lifecycle-connections 16] [--lifecycle-depth 1]
 *     [--connections 16,64] [--sessions 4] [--depth 4] [--rounds 3] [--round-ms 2000] [--warmup-ms 1500]
 *     [--paced-sessions 1000] [--paced-connections 20] [--paced-ms 8000] [--rate half|N,...] [--no-stagger] [--stagger-order spread|by-slot] [--profile DIR]
 *     [--server-args=--trace-gc] [--json FILE]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parseTrajectoryText } from '../src/formats/index.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { newestProfile, printSelfTimes } from './cpu-top.js';
import { pairedRatioInterval } from './intervals.js';
import { loadLine, machineTicks, residentMb, sampleCpu, stealPercent, threadSplit, type ThreadSplit } from './proc-cpu.js';
import { machine, machineLine, target, writeResult, type Target } from './report.js';
import { startTarget, type TargetProcess } from './server-process.js';
import { commandLine, fmt, latencySummary, median, printTable, quantiles, ratio } from './timing.js';
import { LoadDriver, stepTemplates, type StepTemplates, type Window } from './ws-driver.js';

const { values: args } = parseArgs({
  options: {
    shapes: { type: 'string', default: 'lifecycle,pipelined' },
    'lifecycle-connections': { type: 'string', default: '16' },
    'lifecycle-depth': { type: 'string', default: '1' },
    connections: { type: 'string', default: '16,64' },
    sessions: { type: 'string', default: '4' },
    depth: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    'round-ms': { type: 'string', default: '2000' },
    'warmup-ms': { type: 'string', default: '1500' },
    'paced-sessions': { type: 'string', default: '1000' },
    'paced-connections': { type: 'string', default: '20' },
    'paced-ms': { type: 'string', default: '8000' },
    rate: { type: 'string', default: 'half' },
    'no-stagger': { type: 'boolean' },
    'stagger-order': { type: 'string', default: 'spread' },
    profile: { type: 'string' },
    'server-args': { type: 'string' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const num = (v: string | undefined): number => Number(v);
const RAMP_MS = 300;

/** One load shape at one connection count. */
interface Config {
  shape: 'lifecycle' | 'pipelined';
  connections: number;
  sessions: number;
  depth: number;
}

function configs(): Config[] {
  const out: Config[] = [];
  for (const shape of (args.shapes ?? '').split(',')) {
    if (shape === 'lifecycle') {
      for (const c of (args['lifecycle-connections'] ?? '').split(',')) out.push({ shape, connections: Number(c), sessions: 1, depth: num(args['lifecycle-depth']) });
    } else if (shape === 'pipelined') {
      for (const c of (args.connections ?? '').split(',')) out.push({ shape, connections: Number(c), sessions: num(args.sessions), depth: num(args.depth) });
    } else if (shape !== '') throw new Error(`--shapes: unknown shape ${shape} (lifecycle, pipelined)`);
  }
  return out;
}

let runId = 0;
/** The steplens target, the echo target and this driver: whose CPU each round samples. */
let pids: number[] = [];

interface Round extends Window {
  /** CPU seconds of steplens, echo and the driver over the recorded window. */
  cpu: number[];
  /** The target's CPU seconds over the window by thread (main thread user/system, other threads). */
  threads: ThreadSplit;
  /** Percent of the machine's CPU time the hypervisor took over the window (proc-cpu `stealPercent`). */
  steal: number;
}

async function round(t: TargetProcess, templates: StepTemplates, c: Config, ms: number): Promise<Round> {
  const d = await LoadDriver.open({ url: t.url, connections: c.connections, sessionsPerConnection: c.sessions, task: SERVER_BENCH_TASK, templates, depth: c.depth, run: ++runId });
  await new Promise((resolve) => setTimeout(resolve, RAMP_MS));
  const before = sampleCpu(pids);
  const split0 = threadSplit(t.pid);
  const ticks = machineTicks();
  const w = await d.closedLoop(0, ms);
  const steal = stealPercent(ticks);
  const cpu = sampleCpu(pids).map((x, i) => x - before[i]!);
  const split1 = threadSplit(t.pid);
  const threads: ThreadSplit = { mainUser: split1.mainUser - split0.mainUser, mainSystem: split1.mainSystem - split0.mainSystem, others: split1.others - split0.others };
  await d.close();
  if (w.errors > 0) throw new Error(`${t.kind}: ${w.errors} error frame(s), first: ${w.firstError}`);
  return { ...w, cpu, threads, steal };
}

/** `main user U + sys S, other threads O` µs per step over rounds `rs` of one target. */
function threadLine(rs: Round[]): string {
  const steps = rs.reduce((n, r) => n + r.scored, 0);
  const us = (k: keyof ThreadSplit): string => fmt((rs.reduce((n, r) => n + r.threads[k], 0) * 1e6) / steps, 1);
  return `main thread user ${us('mainUser')} + system ${us('mainSystem')}, other threads ${us('others')}`;
}

interface ConfigResult extends Config {
  a: Round[];
  b: Round[];
  rateA: number;
  rateB: number;
  ratio: number;
  /** 95 % interval of the ratio over the pairs of rounds (round i of A and of B), with 5 rounds or more. */
  interval: [number, number] | undefined;
  /** CPU µs per step: steplens (in A rounds), echo (in B rounds), the driver in A and B rounds. */
  cpuA: number;
  cpuB: number;
  driverA: number;
  driverB: number;
}

const perStep = (rs: Round[], i: number): number => (rs.reduce((n, r) => n + r.cpu[i]!, 0) * 1e6) / rs.reduce((n, r) => n + r.scored, 0);

async function throughput(a: TargetProcess, b: TargetProcess, templates: StepTemplates, c: Config): Promise<ConfigResult> {
  const [ms, warm, rounds] = [args['round-ms'], args['warmup-ms'], args.rounds].map(num) as [number, number, number];
  await round(a, templates, c, warm);
  await round(b, templates, c, warm);
  const runs: Record<'A' | 'B', Round[]> = { A: [], B: [] };
  // A B B A A B ...: drift of the machine hits both alike.
  for (let i = 0; i < 2 * rounds; i++) {
    const which = i % 4 === 0 || i % 4 === 3 ? 'A' : 'B';
    runs[which].push(await round(which === 'A' ? a : b, templates, c, ms));
  }
  const rate = (w: Window): number => w.scored / w.seconds;
  const rateA = median(runs.A.map(rate));
  const rateB = median(runs.B.map(rate));
  const interval = pairedRatioInterval(runs.A.map(rate), runs.B.map(rate), 'median');
  return { ...c, a: runs.A, b: runs.B, rateA, rateB, ratio: rateA / rateB, interval, cpuA: perStep(runs.A, 0), cpuB: perStep(runs.B, 1), driverA: perStep(runs.A, 2), driverB: perStep(runs.B, 2) };
}

const pooled = (ws: Window[]): Float64Array => {
  const out = new Float64Array(ws.reduce((n, w) => n + w.latencies.length, 0));
  let at = 0;
  for (const w of ws) {
    out.set(w.latencies, at);
    at += w.latencies.length;
  }
  return out;
};

/** One open-loop round against `t`: `sessions` sessions over `connections`, `rate` steps/s, 1 s of warm-up. */
async function pacedRound(t: TargetProcess, rate: number, connections: number, sessions: number, templates: StepTemplates) {
  const d = await LoadDriver.open({ url: t.url, connections, sessionsPerConnection: Math.ceil(sessions / connections), task: SERVER_BENCH_TASK, templates, depth: 0, run: ++runId });
  if (!args['no-stagger']) await d.stagger(staggerOrder());
  const driver = monitorEventLoopDelay({ resolution: 1 });
  const paced = d.pace(rate, 1000, num(args['paced-ms']));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await t.loopDelay();
  driver.enable();
  const ticks = machineTicks();
  const w = await paced;
  const steal = stealPercent(ticks);
  // Before the forced GC of memory(): what the young generation's size costs in resident memory.
  const rss = residentMb(t.pid);
  driver.disable();
  const serverDelay = await t.loopDelay();
  await d.close();
  if (w.errors > 0) throw new Error(`paced: ${w.errors} error frame(s), first: ${w.firstError}`);
  const heapMb = (await t.memory()).heapUsed / 2 ** 20;
  return { w, lat: latencySummary(w.latencies), serverDelay, driverDelay: { p99: driver.percentile(99) / 1e6, max: driver.max / 1e6 }, heapMb, rss, steal };
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

function staggerOrder(): 'spread' | 'by-slot' {
  const o = args['stagger-order'];
  if (o !== 'spread' && o !== 'by-slot') throw new Error(`--stagger-order: ${o} is neither "spread" nor "by-slot"`);
  return o;
}

/** A paced rate: `half` of the highest closed-loop median, or steps/s. */
interface RateSpec {
  label: string;
  rate: number;
}

function pacedRates(max: number): RateSpec[] {
  // `--rate ''` (as bench/README.md's profiling commands give it): no paced run.
  return (args.rate ?? 'half')
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
async function paced(a: TargetProcess, b: TargetProcess, templates: StepTemplates, spec: RateSpec, sessions: number) {
  const pc = Math.min(num(args['paced-connections']), sessions);
  // The same open loop against the echo at the same rate: the latency this machine and driver allow at that load.
  const pa = await pacedRound(a, spec.rate, pc, sessions, templates);
  const pb = await pacedRound(b, spec.rate, pc, sessions, templates);
  console.log(
    `paced (open loop): ${pc * Math.ceil(sessions / pc)} open sessions over ${pc} connections, target rate ${fmt(spec.rate, 0)} steps/s (${spec.label === 'half' ? 'half of the max median' : '--rate'}); steplens then echo`,
  );
  for (const [label, x] of [
    ['A steplens', pa],
    ['B ws echo', pb],
  ] as const) {
    const { w, lat, serverDelay, driverDelay } = x;
    const gc = serverDelay.gc;
    console.log(
      `${label}: sent ${fmt(w.sent / w.seconds, 0)}/s, answered ${fmt(w.scored / w.seconds, 0)}/s over ${fmt(w.seconds, 1)} s, ${w.skipped} due steps skipped, host steal ${fmt(x.steal, 1)} %; latency ms p50 ${fmt(lat.p50, 3)}  p99 ${fmt(lat.p99, 3)}  max ${fmt(lat.max, 2)}  (n = ${lat.n})`,
    );
    console.log(`  ${tailLine(w)}`);
    console.log(
      `  event-loop delay ms: server p99 ${fmt(serverDelay.p99, 1)} max ${fmt(serverDelay.max, 1)}; driver p99 ${fmt(driverDelay.p99, 1)} max ${fmt(driverDelay.max, 1)}; server GC (perf_hooks): ${gc.minor.n} scavenges, ${fmt(gc.minor.total, 0)} ms in all, p99 ${fmt(gc.minor.p99, 2)} max ${fmt(gc.minor.max, 2)} ms; ${gc.major.n} full, ${fmt(gc.major.total, 0)} ms, max ${fmt(gc.major.max, 1)} ms; heap used after ${fmt(x.heapMb, 0)} MB (after a forced GC); RSS ${fmt(x.rss.now, 0)} MB at the window's end, peak ${fmt(x.rss.peak, 0)} MB`,
    );
  }
  console.log(`paced p99 steplens / echo at the same rate: ${ratio(pa.lat.p99, pb.lat.p99)}`);
  const { w, lat, serverDelay, driverDelay } = pa;
  const figures = {
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

async function main(): Promise<void> {
  const file = path.join(findCorpus(args.corpus), SERVER_BENCH_FILE);
  const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!parsed.ok) throw parsed.error;
  const templates = stepTemplates(parsed.value.steps);
  const frameBytes = templates.frames.reduce((n, f) => n + f.length, 0) / templates.steps;
  const profileArgs = args.profile !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
  profileArgs.push(...(args['server-args'] ?? '').split(' ').filter((a) => a !== ''));
  const a = await startTarget('steplens', profileArgs);
  const b = await startTarget('echo');
  const m = machine();
  pids = [a.pid, b.pid, process.pid];
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(`load average before: ${loadLine()} (a shared machine: rates swing with other jobs; compare the in-run ratios and the CPU per step)`);
  console.log(
    `trajectory: ${SERVER_BENCH_FILE} (${templates.steps} steps, ${fmt(frameBytes, 0)} B per step frame; held out of its task's PTA); A = steplens (pid ${a.pid}), B = bare ws echo (pid ${b.pid}), driver pid ${process.pid}`,
  );
  console.log(`closed loop, full sessions (start, steps, end, next session); warm-up ${args['warmup-ms']} ms each, then ${args.rounds} rounds of ${args['round-ms']} ms each (A B B A A B ...)`);

  const targets: Target[] = [];
  const figures: Record<string, number> = {};
  const results: ConfigResult[] = [];
  for (const c of configs()) results.push(await throughput(a, b, templates, c));
  const rows: string[][] = [];
  for (const r of results) {
    for (const [label, ws, rate] of [
      ['A steplens', r.a, r.rateA],
      ['B ws echo', r.b, r.rateB],
    ] as const) {
      const isA = label.startsWith('A');
      const lat = latencySummary(pooled([...ws]));
      rows.push([
        `${r.shape} ${r.connections}×${r.sessions}×${r.depth}`,
        label,
        ws.map((w) => fmt(w.scored / w.seconds, 0)).join(' '),
        fmt(rate, 0),
        isA ? ratio(r.rateA, r.rateB) : '×1.00',
        fmt(isA ? r.cpuA : r.cpuB, 1),
        isA ? ratio(r.cpuB, r.cpuA) : '×1.00',
        fmt(isA ? r.driverA : r.driverB, 1),
        fmt(lat.p50, 2),
        fmt(lat.p99, 2),
        fmt(lat.max, 1),
      ]);
      const key = `${r.shape}_${isA ? 'steplens' : 'echo'}_${r.connections}`;
      Object.assign(figures, {
        [`${key}_steps_per_s`]: rate,
        [`${key}_cpu_us_per_step`]: isA ? r.cpuA : r.cpuB,
        [`${key}_p50_ms`]: lat.p50,
        [`${key}_p99_ms`]: lat.p99,
        [`${key}_max_ms`]: lat.max,
      });
    }
    figures[`${r.shape}_${r.connections}_ratio`] = r.ratio;
    figures[`${r.shape}_${r.connections}_cpu_ratio`] = r.cpuB / r.cpuA;
  }
  printTable(['shape conn×sessions×depth', 'target', 'steps/s per round', 'median', 'vs echo', 'server µs CPU/step', 'echo/server CPU', 'driver µs', 'p50 ms', 'p99 ms', 'max ms'], rows);
  console.log("vs echo = median steps/s over the echo's median in the same run; echo/server CPU = the echo's CPU per message over steplens' CPU per step");
  // A round's rate falls with the time the hypervisor gives other guests; the CPU a process spent per step does not.
  for (const r of results) {
    const steal = (rs: Round[]): string => rs.map((x) => fmt(x.steal, 1)).join(' ');
    console.log(`host steal % per round, ${r.shape} ${r.connections}×${r.sessions}×${r.depth} (/proc/stat): steplens ${steal(r.a)}; echo ${steal(r.b)}`);
    figures[`${r.shape}_${r.connections}_steal_pct_max`] = Math.max(...[...r.a, ...r.b].map((x) => x.steal));
  }
  for (const r of results) {
    console.log(`CPU µs per step by thread, ${r.shape} ${r.connections}×${r.sessions}×${r.depth} (/proc, 10 ms ticks): steplens ${threadLine(r.a)}; echo ${threadLine(r.b)}`);
  }
  for (const r of results) {
    if (r.shape === 'lifecycle') targets.push(target(`ws-load full-lifecycle steplens/echo throughput @${r.connections} connections`, r.ratio, '>=', 0.6, '', r.interval));
    else targets.push(target(`ws-load steplens/echo throughput @${r.connections} connections`, r.ratio, '>=', 0.5, '', r.interval));
  }

  const pacedSessions = num(args['paced-sessions']);
  if (pacedSessions > 0) {
    const max = Math.max(...results.map((r) => r.rateA));
    for (const [i, spec] of pacedRates(max).entries()) {
      const p = await paced(a, b, templates, spec, pacedSessions);
      // The first rate keeps the plain keys (what earlier result files hold); every rate also its own.
      for (const [k, v] of Object.entries(p.figures)) {
        if (i === 0) figures[k] = v;
        figures[k.replace('paced_', `paced_at_${spec.label}_`)] = v;
      }
      if (spec.label === 'half') targets.push(target(`ws-load p99 latency, ${pacedSessions} sessions at half max load`, p.p99, '<', 2, 'ms'));
      else targets.push(target(`ws-load p99 latency, ${pacedSessions} sessions at ${spec.label} steps/s`, p.p99, '<', 2, 'ms'));
    }
  }
  console.log(`load average after: ${loadLine()}`);
  await b.close();
  await a.close();
  if (args.profile !== undefined) {
    const prof = newestProfile(path.resolve(args.profile));
    if (prof !== undefined) printSelfTimes(prof, 30);
  }
  writeResult(args.json, { bench: 'ws-load', command: commandLine(import.meta.url), machine: m, targets, figures });
}

main().catch((error: unknown) => {
  process.stderr.write(`ws-load: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

/**
 * WebSocket load benchmark of `/v1/stream` against the limit for JSON over
 * WebSocket on this machine. The driver (this process, {@link LoadDriver})
 * streams a real corpus trajectory (79 steplens steps, task with a PTA in
 * data/example) over C connections × M sessions, `depth` steps in flight per
 * session, sessions restarting after their `final`. Targets run in their own
 * processes: A = the steplens server, B = a bare `ws` server that parses each
 * frame and answers a small JSON reply.
 *  1. throughput, per connection count: one warm-up round of A and B, then
 *     rounds A B B A ... (`--pairs`); steps/s = score frames received per
 *     second of a round; latency = step sent → its score received (client clock);
 *     ratio = median A rate / median B rate (target >= 0.5 at 16 and 64);
 *  2. paced (open loop): `--paced-sessions` sessions, total rate = half the
 *     highest median A rate (or `--rate`), p99 step-to-score latency (target < 2 ms);
 *     the sessions' phases are first spread over the trajectory (`stagger`), so
 *     session ends come at a steady rate; `--no-stagger` keeps them in lockstep.
 * `--profile DIR` runs the steplens process under `--cpu-prof` and prints its top self-time functions;
 * `--server-args '...'` passes more node flags to it (e.g. `--trace-gc`).
 *
 *   node dist/bench/ws-load.js [--connections 16,64] [--sessions 4] [--depth 4] [--round-ms 2000] [--warmup-ms 1500]
 *     [--pairs 2] [--paced-sessions 1000] [--paced-connections 20] [--paced-ms 8000] [--rate N] [--no-stagger] [--profile DIR] [--server-args '--trace-gc'] [--json FILE]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parseTrajectoryText } from '../src/formats/index.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { newestProfile, printSelfTimes } from './cpu-top.js';
import { machine, machineLine, target, writeResult, type Target } from './report.js';
import { startTarget, type TargetProcess } from './server-process.js';
import { commandLine, fmt, latencySummary, median, printTable, ratio } from './timing.js';
import { LoadDriver, stepTemplates, type StepTemplates, type Window } from './ws-driver.js';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '16,64' },
    sessions: { type: 'string', default: '4' },
    depth: { type: 'string', default: '4' },
    'round-ms': { type: 'string', default: '2000' },
    'warmup-ms': { type: 'string', default: '1500' },
    pairs: { type: 'string', default: '2' },
    'paced-sessions': { type: 'string', default: '1000' },
    'paced-connections': { type: 'string', default: '20' },
    'paced-ms': { type: 'string', default: '8000' },
    rate: { type: 'string' },
    'no-stagger': { type: 'boolean' },
    profile: { type: 'string' },
    'server-args': { type: 'string' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const num = (v: string | undefined): number => Number(v);
const RAMP_MS = 300;

let runId = 0;
async function round(t: TargetProcess, templates: StepTemplates, connections: number, sessions: number, depth: number, ms: number): Promise<Window> {
  const d = await LoadDriver.open({ url: t.url, connections, sessionsPerConnection: sessions, task: SERVER_BENCH_TASK, templates, depth, run: ++runId });
  const w = await d.closedLoop(RAMP_MS, ms);
  await d.close();
  if (w.errors > 0) throw new Error(`${t.kind}: ${w.errors} error frame(s), first: ${w.firstError}`);
  return w;
}

interface ConfigResult {
  connections: number;
  a: Window[];
  b: Window[];
  rateA: number;
  rateB: number;
  ratio: number;
}

async function throughput(a: TargetProcess, b: TargetProcess, templates: StepTemplates, connections: number): Promise<ConfigResult> {
  const [sessions, depth, ms, warm, pairs] = [args.sessions, args.depth, args['round-ms'], args['warmup-ms'], args.pairs].map(num) as [number, number, number, number, number];
  await round(a, templates, connections, sessions, depth, warm);
  await round(b, templates, connections, sessions, depth, warm);
  const runs: Record<'A' | 'B', Window[]> = { A: [], B: [] };
  for (let p = 0; p < pairs; p++) {
    for (const which of p % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      runs[which].push(await round(which === 'A' ? a : b, templates, connections, sessions, depth, ms));
    }
  }
  const rate = (w: Window): number => w.scored / w.seconds;
  const rateA = median(runs.A.map(rate));
  const rateB = median(runs.B.map(rate));
  return { connections, a: runs.A, b: runs.B, rateA, rateB, ratio: rateA / rateB };
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
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(
    `trajectory: ${SERVER_BENCH_FILE} (${templates.steps} steps, ${fmt(frameBytes, 0)} B per step frame); A = steplens (pid ${a.pid}), B = bare ws echo (pid ${b.pid}), driver pid ${process.pid}`,
  );
  console.log(
    `closed loop: ${args.sessions} sessions per connection, ${args.depth} steps in flight per session; warm-up ${args['warmup-ms']} ms each, then ${args.pairs} pairs of ${args['round-ms']} ms rounds (A B B A ...)`,
  );

  const targets: Target[] = [];
  const figures: Record<string, number> = {};
  const results: ConfigResult[] = [];
  for (const c of (args.connections ?? '').split(',').map(Number)) results.push(await throughput(a, b, templates, c));
  const rows: string[][] = [];
  for (const r of results) {
    for (const [label, ws, rate] of [
      ['A steplens', r.a, r.rateA],
      ['B ws echo', r.b, r.rateB],
    ] as const) {
      const lat = latencySummary(pooled([...ws]));
      rows.push([
        `${label} @${r.connections} conn`,
        ws.map((w) => fmt(w.scored / w.seconds, 0)).join(' '),
        fmt(rate, 0),
        label.startsWith('A') ? ratio(r.rateA, r.rateB) : '×1.00',
        fmt(lat.p50, 2),
        fmt(lat.p99, 2),
        fmt(lat.max, 1),
      ]);
      const key = `${label.startsWith('A') ? 'steplens' : 'echo'}_${r.connections}`;
      Object.assign(figures, { [`${key}_steps_per_s`]: rate, [`${key}_p50_ms`]: lat.p50, [`${key}_p99_ms`]: lat.p99, [`${key}_max_ms`]: lat.max });
    }
  }
  printTable(['target', 'steps/s per round', 'median', 'vs echo', 'p50 ms', 'p99 ms', 'max ms'], rows);
  for (const r of results) targets.push(target(`ws-load steplens/echo throughput @${r.connections} connections`, r.ratio, '>=', 0.5));

  const pacedSessions = num(args['paced-sessions']);
  if (pacedSessions > 0) {
    const max = Math.max(...results.map((r) => r.rateA));
    const rate = args.rate !== undefined ? num(args.rate) : max / 2;
    const pc = Math.min(num(args['paced-connections']), pacedSessions);
    const d = await LoadDriver.open({ url: a.url, connections: pc, sessionsPerConnection: Math.ceil(pacedSessions / pc), task: SERVER_BENCH_TASK, templates, depth: 0, run: ++runId });
    if (!args['no-stagger']) await d.stagger();
    const driverDelay = monitorEventLoopDelay({ resolution: 1 });
    const paced = d.pace(rate, 1000, num(args['paced-ms']));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await a.loopDelay();
    driverDelay.enable();
    const w = await paced;
    driverDelay.disable();
    const serverDelay = await a.loopDelay();
    await d.close();
    if (w.errors > 0) throw new Error(`paced: ${w.errors} error frame(s), first: ${w.firstError}`);
    const lat = latencySummary(w.latencies);
    console.log(
      `paced (open loop): ${pc * Math.ceil(pacedSessions / pc)} open sessions over ${pc} connections, target rate ${fmt(rate, 0)} steps/s (${args.rate !== undefined ? '--rate' : `half of the max median ${fmt(max, 0)}`}); sent ${fmt(w.sent / w.seconds, 0)}/s, scored ${fmt(w.scored / w.seconds, 0)}/s over ${fmt(w.seconds, 1)} s, ${w.skipped} due steps skipped`,
    );
    console.log(`paced latency ms: p50 ${fmt(lat.p50, 3)}  p99 ${fmt(lat.p99, 3)}  max ${fmt(lat.max, 2)}  (n = ${lat.n})`);
    console.log(
      `event-loop delay ms over the recorded window: server p99 ${fmt(serverDelay.p99, 1)} max ${fmt(serverDelay.max, 1)}; driver p99 ${fmt(driverDelay.percentile(99) / 1e6, 1)} max ${fmt(driverDelay.max / 1e6, 1)}`,
    );
    Object.assign(figures, {
      paced_rate: rate,
      paced_scored_per_s: w.scored / w.seconds,
      paced_p50_ms: lat.p50,
      paced_p99_ms: lat.p99,
      paced_max_ms: lat.max,
      paced_server_loop_delay_max_ms: serverDelay.max,
      paced_driver_loop_delay_max_ms: driverDelay.max / 1e6,
    });
    targets.push(target(`ws-load p99 latency, ${pacedSessions} sessions at half max load`, lat.p99, '<', 2, 'ms'));
  }
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

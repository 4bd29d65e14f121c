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
 *     the warm-up is 6 s (`--warmup-ms`): after 1.5 s the server was still compiling its step path (~450
 *     TurboFan compiles in its first 12 s), and its first measured round ran at a third of the later ones
 *     (bench/README.md, life20); the echo gets the same warm-up;
 *     with 5 rounds or more, a 95 % interval of the ratio over the pairs of rounds (bench/intervals.ts);
 *     latency = step sent → its score received (client clock); ratio = median A rate / median B rate
 *     (targets: lifecycle >= 0.6, pipelined >= 0.5). CPU µs per step of A, B and the driver over the
 *     rounds (from /proc) are printed beside, the echo's over steplens' with its interval over the same pairs:
 *     on a shared machine they move less than the rates;
 *  2. paced (open loop): `--paced-sessions` sessions at each rate of `--rate` (a list: steps/s, `half-paced` =
 *     half the paced shape's own capacity, measured first in the same run by offering `--capacity-rate` steps/s to
 *     steplens alone, ×1.5 a round while it answers 90 % of the offer or more, at most `--capacity-rounds` rounds (half22)
 *     (the default, and the half-load target's rate since p99-21), or `half` = half the highest
 *     median A rate, the pipelined shape's: the rate before p99-21, past what the paced shape carries, so printed
 *     without a target), p99 step-to-score latency (target < 2 ms), then
 *     the same open loop against B at the same rate (what this machine and driver allow at that load);
 *     e.g. `--rate half-paced,500`: half the paced maximum, then 1,000 agents stepping every 2 s;
 *     the sessions' phases are first spread over the trajectory (`stagger`), so
 *     session ends come at a steady rate; `--no-stagger` keeps them in lockstep, and `--stagger-order by-slot`
 *     spreads them in slot order as before stop 34 (ends then come back to back once a round, see ws-driver);
 *     beside p99 it prints where the tail sits: quantiles (p90-p99.9), steps over 2 ms and in how many bursts, the
 *     trajectory's slowest steps, and what session starts and ends waited; with the server's GC pauses and its
 *     resident memory (what a larger young generation costs). The paced steps go out from worker threads, one per
 *     5,000 steps/s up to `--paced-drivers` (bench/ws-pace-worker.ts; default 2, 0 = this main thread as before
 *     p99-19), schedules interleaved;
 *     latency is printed from each step's send (the target) and from its due time (a late driver counted), with the
 *     CPU per step and share of a core of the target and the driver over the window.
 * `--profile DIR` runs the steplens process under `--cpu-prof` and prints its top self-time functions;
 * `--server-args=...` passes more node flags to it (e.g. `--server-args=--trace-gc`; the = is needed, the value starts with a dash).
 * `--loop-monitor-ms` is the resolution of each target's event-loop delay monitor, a timer that wakes it that often
 * (default 10; 1 before p99-21; 0 = no monitor): it records whole intervals between its timer's runs, so an idle
 * loop reads the resolution (the server's delay rows' floor went from 1 to 10 ms with the default). Each
 * paced row prints the target main thread's wakeups and CPU a step (bench/ws-load-wakeups.ts).
 *
 *   node dist/bench/ws-load.js [--shapes lifecycle,pipelined] [--lifecycle-connections 16] [--lifecycle-depth 1]
 *     [--connections 16,64] [--sessions 4] [--depth 4] [--rounds 3] [--round-ms 2000] [--warmup-ms 6000]
 *     [--paced-sessions 1000] [--paced-connections 20] [--paced-ms 8000] [--paced-drivers 2] [--rate half-paced|half|N,...] [--capacity-rate 30000] [--capacity-rounds 3]
 *     [--loop-monitor-ms 10] [--no-stagger] [--stagger-order spread|by-slot] [--profile DIR] [--server-args=--trace-gc] [--json FILE]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseTrajectoryText } from '../src/formats/index.js';
import { argsError, benchArgs, numberFlag, numberListFlag } from './args.js';
import { SERVER_BENCH_FILE, findCorpus } from './corpus.js';
import { newestProfile, printSelfTimes } from './cpu-top.js';
import { loadLine } from './proc-cpu.js';
import { machine, machineLine, target, writeResult, type Target } from './report.js';
import { startTarget } from './server-process.js';
import { commandLine, fmt, latencySummary, printTable, ratio } from './timing.js';
import { configs, pooled, threadLine, throughput, type ClosedLoop, type ConfigResult, type Round } from './ws-load-closed.js';
import { capacityOf, needsCapacity, paced, pacedCapacity, pacedRates, rateListError, staggerOrder, type OpenLoop } from './ws-load-paced.js';
import { stepTemplates } from './ws-driver.js';

const { values: args } = benchArgs({
  options: {
    shapes: { type: 'string', default: 'lifecycle,pipelined' },
    'lifecycle-connections': { type: 'string', default: '16' },
    'lifecycle-depth': { type: 'string', default: '1' },
    connections: { type: 'string', default: '16,64' },
    sessions: { type: 'string', default: '4' },
    depth: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    'round-ms': { type: 'string', default: '2000' },
    'warmup-ms': { type: 'string', default: '6000' },
    'paced-sessions': { type: 'string', default: '1000' },
    'paced-connections': { type: 'string', default: '20' },
    'paced-ms': { type: 'string', default: '8000' },
    'paced-drivers': { type: 'string', default: '2' },
    rate: { type: 'string', default: 'half-paced' },
    'capacity-rate': { type: 'string', default: '30000' },
    'capacity-rounds': { type: 'string', default: '3' },
    'loop-monitor-ms': { type: 'string', default: '10' },
    'no-stagger': { type: 'boolean' },
    'stagger-order': { type: 'string', default: 'spread' },
    profile: { type: 'string' },
    'server-args': { type: 'string' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
// Every flag is checked before any process starts: one line naming a bad one, exit 2.
const shapesRead = configs({
  shapes: args.shapes ?? '',
  lifecycleConnections: numberListFlag(args, 'lifecycle-connections', 'positive integer'),
  lifecycleDepth: numberFlag(args, 'lifecycle-depth', 'positive integer'),
  connections: numberListFlag(args, 'connections', 'positive integer'),
  sessions: numberFlag(args, 'sessions', 'positive integer'),
  depth: numberFlag(args, 'depth', 'positive integer'),
});
const shapes = typeof shapesRead === 'string' ? argsError(shapesRead) : shapesRead;
const staggered = staggerOrder(args['stagger-order']) ?? argsError(`--stagger-order needs spread or by-slot, got '${args['stagger-order']}'`);
const stagger = args['no-stagger'] ? undefined : staggered;
const rounds = numberFlag(args, 'rounds', 'positive integer');
const roundMs = numberFlag(args, 'round-ms', 'positive number');
const warmupMs = numberFlag(args, 'warmup-ms', 'non-negative number');
const pacedSessions = numberFlag(args, 'paced-sessions', 'non-negative integer');
const pacedConnections = numberFlag(args, 'paced-connections', 'positive integer');
const pacedMs = numberFlag(args, 'paced-ms', 'positive number');
const pacedDrivers = numberFlag(args, 'paced-drivers', 'non-negative integer');
const capacityRate = numberFlag(args, 'capacity-rate', 'positive number');
const capacityRounds = numberFlag(args, 'capacity-rounds', 'positive integer');
const loopMonitorMs = numberFlag(args, 'loop-monitor-ms', 'non-negative integer');
const rateError = rateListError(args.rate ?? 'half-paced');
if (rateError !== undefined) argsError(rateError);

async function main(): Promise<void> {
  const file = path.join(findCorpus(args.corpus), SERVER_BENCH_FILE);
  const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!parsed.ok) throw parsed.error;
  const templates = stepTemplates(parsed.value.steps);
  const frameBytes = templates.frames.reduce((n, f) => n + f.length, 0) / templates.steps;
  const profileArgs = args.profile !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
  profileArgs.push(...(args['server-args'] ?? '').split(' ').filter((a) => a !== ''));
  const a = await startTarget('steplens', profileArgs, {}, undefined, loopMonitorMs);
  const b = await startTarget('echo', [], {}, undefined, loopMonitorMs);
  const m = machine();
  const open: OpenLoop = { templates, pacedMs, pacedConnections, stagger, drivers: pacedDrivers };
  const closed: ClosedLoop = { templates, pids: [a.pid, b.pid, process.pid], roundMs, warmupMs, rounds };
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
  for (const c of shapes) results.push(await throughput(a, b, closed, c));
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
        isA ? `${ratio(r.cpuB, r.cpuA)}${r.cpuInterval ? ` [${fmt(r.cpuInterval[0], 2)}, ${fmt(r.cpuInterval[1], 2)}]` : ''}` : '×1.00',
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
    if (r.cpuInterval) [figures[`${r.shape}_${r.connections}_cpu_ratio_lo`], figures[`${r.shape}_${r.connections}_cpu_ratio_hi`]] = r.cpuInterval;
  }
  printTable(['shape conn×sessions×depth', 'target', 'steps/s per round', 'median', 'vs echo', 'server µs CPU/step', 'echo/server CPU', 'driver µs', 'p50 ms', 'p99 ms', 'max ms'], rows);
  console.log(
    "vs echo = median steps/s over the echo's median in the same run (the target); echo/server CPU = the echo's CPU per message over steplens' CPU per step, with its 95 % interval over the same pairs of rounds (the load-robust figure, beside the target)",
  );
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
    const iv = r.cpuInterval ? ` [${fmt(r.cpuInterval[0], 3)}, ${fmt(r.cpuInterval[1], 3)}]` : '';
    console.log(
      `beside the target, ${r.shape} ${r.connections}×${r.sessions}×${r.depth}: echo/server CPU per step ${fmt(r.cpuB / r.cpuA, 3)}${iv} over ${r.a.length} pairs of rounds (not the target)`,
    );
  }
  for (const r of results) {
    if (r.shape === 'lifecycle') targets.push(target(`ws-load full-lifecycle steplens/echo throughput @${r.connections} connections`, r.ratio, '>=', 0.6, '', r.interval));
    else targets.push(target(`ws-load steplens/echo throughput @${r.connections} connections`, r.ratio, '>=', 0.5, '', r.interval));
  }

  if (pacedSessions > 0) {
    const max = Math.max(...results.map((r) => r.rateA));
    const rates = args.rate ?? 'half-paced';
    let capacity = Number.NaN;
    if (needsCapacity(rates)) {
      const found = capacityOf(await pacedCapacity(a, open, capacityRate, capacityRounds, pacedSessions));
      const c = found.best;
      capacity = found.answered;
      Object.assign(figures, {
        paced_capacity_steps_per_s: c.answered,
        paced_capacity_offered: c.offered,
        paced_capacity_sent_per_s: c.sent,
        paced_capacity_busy_pct: c.busyPct,
        paced_capacity_cpu_us_per_step: c.cpuUsPerStep,
        paced_capacity_reached: found.reached ? 1 : 0,
        paced_capacity_rounds: found.rounds,
      });
      // The definition before p99-21, beside the new one, so the change shows in every run.
      console.log(
        `half max load: half the paced shape's capacity, ${fmt(capacity / 2, 0)} steps/s (the target's rate${found.reached ? '' : '; the capacity not reached: half a lower bound'}); half the pipelined max median (the rate before p99-21): ${Number.isFinite(max) ? `${fmt(max / 2, 0)} steps/s` : 'no closed-loop shape run'}`,
      );
      if (Number.isFinite(max)) figures.paced_half_pipelined_rate = max / 2;
    }
    for (const [i, spec] of pacedRates(rates, max, capacity).entries()) {
      const p = await paced(a, b, open, spec, pacedSessions);
      // The first rate keeps the plain keys (what earlier result files hold); every rate also its own.
      for (const [k, v] of Object.entries(p.figures)) {
        if (i === 0) figures[k] = v;
        figures[k.replace('paced_', `paced_at_${spec.label}_`)] = v;
      }
      // Half the pipelined max is informational since p99-21: past what the paced shape carries, it measures queueing.
      if (spec.label === 'half-paced') targets.push(target(`ws-load p99 latency, ${pacedSessions} sessions at half max load (half the paced capacity)`, p.p99, '<', 2, 'ms'));
      else if (spec.label !== 'half') targets.push(target(`ws-load p99 latency, ${pacedSessions} sessions at ${spec.label} steps/s`, p.p99, '<', 2, 'ms'));
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

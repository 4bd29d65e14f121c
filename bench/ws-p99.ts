/**
 * ws-load's paced p99 at a fixed rate over independent sub-runs (tail30, issue 24 item 2): `--sub-runs` runs of
 * `ws-load.js --shapes '' --rate R` one after another, each with its own driver, steplens and echo processes, and
 * the row's verdict on the median of their p99s with its distribution-free 95 % interval (bench/sub-runs.ts
 * subRunMedian): one run's p99 at 500 steps/s read 1.60 ms in stop 74 and 2.77, 2.88 ms in stops 72 and 73 at the
 * same code, and the 4,000 latencies of one window are not independent draws (their slow steps come in bursts), so
 * the row's interval is over processes, not over the steps of one. Prints each sub-run's steplens and echo lines,
 * then a table of their p99s, the echo's beside (what the machine allowed in that sub-run), and how many met.
 *
 *   node dist/bench/ws-p99.js [--sub-runs 6] [--rate 500] [--paced-sessions 1000] [--paced-ms 8000] [--server-args=...] [--corpus DIR] [--json FILE]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, numberFlag } from './args.js';
import { loadLine } from './proc-cpu.js';
import { machine, machineLine, target, writeResult, type BenchResult } from './report.js';
import { subRunMedian } from './sub-runs.js';
import { commandLine, fmt, printTable } from './timing.js';

const { values: args } = benchArgs({
  options: {
    'sub-runs': { type: 'string', default: '6' },
    rate: { type: 'string', default: '500' },
    'paced-sessions': { type: 'string', default: '1000' },
    'paced-ms': { type: 'string', default: '8000' },
    'server-args': { type: 'string' },
    corpus: { type: 'string' },
    json: { type: 'string' },
  },
});
const subRuns = numberFlag(args, 'sub-runs', 'positive integer');
const rate = numberFlag(args, 'rate', 'positive number');
const sessions = numberFlag(args, 'paced-sessions', 'positive integer');
const pacedMs = numberFlag(args, 'paced-ms', 'positive number');

/** The p99 target's bound (ms), as ws-load's. */
const BOUND_MS = 2;

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-ws-p99-'));

/** One sub-run: ws-load's paced row alone at `rate`, in its own processes; its result file's figures. */
function subRun(i: number): Record<string, number> {
  const json = path.join(dir, `sub-run-${i}.json`);
  const child = [path.join(here, 'ws-load.js'), '--shapes', '', '--rate', String(rate), '--paced-sessions', String(sessions), '--paced-ms', String(pacedMs), '--json', json];
  if (args['server-args'] !== undefined) child.push(`--server-args=${args['server-args']}`);
  if (args.corpus !== undefined) child.push('--corpus', args.corpus);
  const run = spawnSync(process.execPath, child, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`sub-run ${i} of ${subRuns} failed (exit ${run.status ?? run.signal}): ${run.stderr}`);
  // The paced lines (steplens, then the echo), not the child's header or its own TARGET line: the target is this bench's.
  const lines = run.stdout.split('\n');
  const from = lines.findIndex((l) => l.startsWith('paced (open loop)'));
  const to = lines.findIndex((l) => l.startsWith('paced p99 steplens / echo'));
  console.log(`sub-run ${i} of ${subRuns} (load average ${loadLine()}):`);
  for (const l of lines.slice(Math.max(0, from), to + 1)) console.log(`  ${l}`);
  return (JSON.parse(readFileSync(json, 'utf8')) as BenchResult).figures as Record<string, number>;
}

function main(): void {
  const m = machine();
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(
    `${subRuns} sub-runs of ws-load's paced row at ${fmt(rate, 0)} steps/s, ${sessions} sessions, ${fmt(pacedMs / 1000, 1)} s windows, one after another; load average before: ${loadLine()}`,
  );
  const runs: Array<Record<string, number>> = [];
  for (let i = 1; i <= subRuns; i++) runs.push(subRun(i));
  const p99 = runs.map((f) => f.paced_p99_ms!);
  const echo = runs.map((f) => f.paced_echo_p99_ms!);
  printTable(
    [
      'sub-run',
      'steplens p99 ms',
      'echo p99 ms',
      'steplens p50 ms',
      'steps > 2 ms',
      'in a GC pause',
      'echo steps > 2 ms',
      'scavenges',
      'scavenge max ms',
      'mark-compacts',
      'server µs CPU/step',
      'steal %',
    ],
    runs.map((f, i) => [
      String(i + 1),
      fmt(f.paced_p99_ms!, 3),
      fmt(f.paced_echo_p99_ms!, 3),
      fmt(f.paced_p50_ms!, 3),
      String(f.paced_slow_steps),
      String(f.paced_slow_steps_in_gc),
      String(f.paced_echo_slow_steps),
      String(f.paced_server_scavenges),
      fmt(f.paced_server_scavenge_max_ms!, 2),
      String(f.paced_server_full_gcs),
      fmt(f.paced_server_cpu_us_per_step!, 1),
      fmt(f.paced_steal_pct!, 1),
    ]),
  );
  const met = p99.filter((x) => x < BOUND_MS).length;
  const total = (k: string): number => runs.reduce((a, f) => a + (f[k] ?? 0), 0);
  // The slow steps a GC pause of the server can account for (bench/gc-watch.ts slowStepsInGc), over all sub-runs.
  console.log(
    `steps over ${BOUND_MS} ms over the sub-runs: steplens ${total('paced_slow_steps')} (${total('paced_slow_steps_in_gc')} in flight during a server GC pause), the echo ${total('paced_echo_slow_steps')} (${total('paced_echo_slow_steps_in_gc')} during its own)`,
  );
  const mid = subRunMedian(p99);
  const echoMid = subRunMedian(echo);
  const iv = (x: ReturnType<typeof subRunMedian>): string =>
    x.interval === undefined ? '(no interval under 6 sub-runs)' : `[${fmt(x.interval[0], 3)}, ${fmt(x.interval[1], 3)}] (${fmt(x.coverage! * 100, 1)} % order-statistic interval)`;
  console.log(`median p99 over the sub-runs: steplens ${fmt(mid.value, 3)} ms ${iv(mid)}; the echo ${fmt(echoMid.value, 3)} ms ${iv(echoMid)}; ${met} of ${subRuns} sub-runs under ${BOUND_MS} ms`);
  console.log(`load average after: ${loadLine()}`);
  const figures: Record<string, number> = {
    sub_runs: subRuns,
    rate,
    sub_runs_met: met,
    median_p99_ms: mid.value,
    median_echo_p99_ms: echoMid.value,
    slow_steps: total('paced_slow_steps'),
    slow_steps_in_gc: total('paced_slow_steps_in_gc'),
    echo_slow_steps: total('paced_echo_slow_steps'),
  };
  p99.forEach((x, i) => (figures[`sub_run_${i + 1}_p99_ms`] = x));
  echo.forEach((x, i) => (figures[`sub_run_${i + 1}_echo_p99_ms`] = x));
  const t = target(`ws-load p99 latency, ${sessions} sessions at ${rate} steps/s (median of ${subRuns} sub-runs)`, mid.value, '<', BOUND_MS, 'ms', mid.interval);
  writeResult(args.json, { bench: 'ws-p99', command: commandLine(import.meta.url), machine: m, targets: [t], figures });
}

try {
  main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

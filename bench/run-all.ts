/**
 * Runs every benchmark, each in its own `node` process with defaults that
 * finish in a few minutes in total, then prints one table of every issue-6
 * target: measured value, its 95 % interval where the bench has paired repeats
 * (bench/intervals.ts), bound, MET or MISSED, and `unsettled` when the interval
 * holds the bound. Every bench writes its result
 * file (`--json`) into `--out DIR` (default: a fresh temp
 * directory), which is what to keep to compare two commits. Exits 1 if a
 * bench failed to run (a missed target is reported, not an error).
 *
 *   npm run build && node dist/bench/run-all.js [--out DIR] [--only ws-load,memory,...]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { withInterval } from './interval-digits.js';
import type { BenchResult } from './report.js';
import { machineTicks, stealPercent } from './proc-cpu.js';
import { fmt, printTable } from './timing.js';

interface Bench {
  name: string;
  /** Arguments after the script; `{json}` is replaced by the result file. */
  args: string[];
  node?: string[];
}

/** The benches in run order, with their quick defaults. */
const BENCHES: Bench[] = [
  { name: 'label-coverage', args: ['--json', '{json}'] },
  { name: 'cli-start', args: ['--rounds', '11', '--json', '{json}'] },
  // 16 pairs (with 5, one slow pass in the resamples' median set the interval's far end: bench/README,
  // label-per-step), in 4 sub-runs of 4 (child processes: the interval over them counts the spread between runs,
  // fcast29; each costs a corpus load and 3 warm-up passes, so not more of them).
  { name: 'label-per-step', args: ['', '4', '--sub-runs', '4', '--json', '{json}'] },
  { name: 'push-per-step', args: ['', '50', '--json', '{json}'] },
  { name: 'real-sessions', args: ['--passes', '7', '--json', '{json}'] },
  { name: 'score-batch', args: ['--rounds', '3', '--json', '{json}'] },
  // The push ratio reads a mean: its default 6 sub-runs of 150 blocks after 50 warm-up ones (100 passes after 10 read
  // ×1.05-1.40 on one build; one run of 1,000 blocks read an interval narrower than the spread between runs, fcast29).
  { name: 'forecast', args: ['--json', '{json}'] },
  { name: 'structural-add', args: ['200', '100', '--json', '{json}'] },
  { name: 'online-vs-batch', args: ['--json', '{json}'] },
  { name: 'memory', args: ['--sessions', '500', '--json', '{json}'], node: ['--expose-gc'] },
  { name: 'http', args: ['--seconds', '5', '--json', '{json}'] },
  // 5 rounds: the fewest that bench/intervals.ts gives an interval of the throughput ratios for.
  // half-paced: the half-load target's rate (half the paced shape's capacity, p99-21); half: the rate before, no target.
  // The capacity: 30,000 steps/s offered, ×1.5 a round while 90 % of the offer is answered, 3 rounds at most (half22:
  // stop 69's one round answered 28,112 of 30,000 and the row ran at half of that lower bound).
  { name: 'ws-load', args: ['--rounds', '5', '--rate', 'half-paced,half', '--capacity-rate', '30000', '--capacity-rounds', '3', '--json', '{json}'] },
  // The 500 steps/s p99 row (from ws-load's rates since tail30): 6 sub-runs in their own processes, the median p99 with
  // its order-statistic interval (6 is the fewest that give one at 95 %): one run read 1.60 ms, the two before 2.77
  // and 2.88 at the same code.
  { name: 'ws-p99', args: ['--sub-runs', '6', '--rate', '500', '--json', '{json}'] },
  { name: 'shadow-cost', args: ['', '9', '--json', '{json}'] },
  { name: 'evidence-cost', args: ['--runs', '15', '--passes', '9', '--json', '{json}'] },
  // Needs redis-server (Debian's package) on the PATH.
  { name: 'replicas', args: ['--json', '{json}'] },
  // Needs redis-server and taskset (util-linux), and 2 cores: pins processes to cores 0 and 1.
  { name: 'scale-out', args: ['--pairs', '1', '--json', '{json}'] },
];

const { values: opts } = benchArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } }, 'node dist/bench/run-all.js [--out DIR] [--only ws-load,memory,...]');
const here = path.dirname(fileURLToPath(import.meta.url));
const out = opts.out !== undefined ? path.resolve(opts.out) : mkdtempSync(path.join(os.tmpdir(), 'steplens-bench-results-'));
mkdirSync(out, { recursive: true });
const only = opts.only?.split(',');
const failed: string[] = [];
const results: BenchResult[] = [];
const began = performance.now();
// The host's steal over each bench and the whole run: on a VM whose host is busy, rates fall with it.
const ticksAtStart = machineTicks();

for (const b of BENCHES.filter((x) => only === undefined || only.includes(x.name))) {
  const json = path.join(out, `${b.name}.json`);
  const args = b.args.map((a) => (a === '{json}' ? json : a));
  console.log(`\n=== ${b.name}: node ${[...(b.node ?? []), path.relative(process.cwd(), path.join(here, `${b.name}.js`)), ...args].join(' ')}`);
  const t0 = performance.now();
  const ticks = machineTicks();
  const run = spawnSync(process.execPath, [...(b.node ?? []), path.join(here, `${b.name}.js`), ...args], { stdio: 'inherit' });
  console.log(`=== ${b.name}: ${run.status === 0 ? 'done' : `FAILED (exit ${run.status ?? run.signal})`} in ${fmt((performance.now() - t0) / 1000, 1)} s, host steal ${fmt(stealPercent(ticks), 1)} %`);
  if (run.status !== 0) failed.push(b.name);
  if (b.args.includes('{json}') && existsSync(json)) results.push(JSON.parse(readFileSync(json, 'utf8')) as BenchResult);
}

console.log(`\n=== summary (${fmt((performance.now() - began) / 1000, 0)} s, host steal ${fmt(stealPercent(ticksAtStart), 1)} %; result files in ${out})`);
const unit = (t: BenchResult['targets'][number]): string => (t.unit ? ` ${t.unit}` : '');
// The verdict is by the measured value; where the bench resamples paired repeats, the interval says whether another
// run could read the other way ("unsettled": the interval holds the bound).
const rows = results.flatMap((r) =>
  r.targets.map((t) => [
    r.bench,
    t.name,
    `${withInterval(t.value, t.interval)[0]}${unit(t)}`,
    withInterval(t.value, t.interval)[1],
    `${t.op} ${t.bound}${t.unit ? ` ${t.unit}` : ''}`,
    t.met ? 'MET' : 'MISSED',
    t.settled === false ? 'unsettled' : '',
  ]),
);
printTable(['bench', 'target', 'measured', '95 % interval', 'target', 'met', ''], rows);
const missed = rows.filter((r) => r[5] === 'MISSED').length;
const unsettled = rows.filter((r) => r[6] === 'unsettled').length;
console.log(
  `${rows.length - missed} of ${rows.length} targets met${unsettled > 0 ? ` (${unsettled} unsettled: the interval holds the bound)` : ''}${failed.length > 0 ? `; FAILED to run: ${failed.join(', ')}` : ''}`,
);
if (failed.length > 0) process.exitCode = 1;

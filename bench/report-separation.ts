/**
 * Separation of pPass (and of run length alone) over the runs of one or more `steplens report --json`
 * documents, in the one definition of docs/method.md section 16 (core/stats separation): each source's
 * AUROC with n and a bootstrap interval, their mean, within task, pooled beside source alone. Used to
 * put several held-out reports together, e.g. one per source scored by a model trained without it:
 *   node dist/bench/report-separation.js [--seed N] REPORT.json...
 */
import { readFileSync } from 'node:fs';
import { separation, type ScoredOutcome, type Separation } from '../src/core/stats/separation.js';
import { argsError, benchArgs, numberFlag } from './args.js';

interface Row {
  source: string;
  task: string | null;
  outcome: string;
  steps: number;
  pPass?: number;
}

const { values, positionals } = benchArgs({ allowPositionals: true, options: { seed: { type: 'string' } } }, 'node dist/bench/report-separation.js [--seed N] REPORT.json...');
if (positionals.length === 0) argsError('give report --json files as arguments');
const seed = numberFlag(values, 'seed', 'non-negative integer', 1);
const rows = positionals.flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { trajectories: Row[] }).trajectories);
const known = rows.filter((r) => (r.outcome === 'pass' || r.outcome === 'fail') && typeof r.pPass === 'number');
const of = (score: (r: Row) => number): ScoredOutcome[] => known.map((r) => ({ source: r.source, task: r.task, pass: r.outcome === 'pass', score: score(r) }));
const f = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : x.toFixed(3));
const iv = (i: { lo: number; hi: number } | null): string => (i === null ? '' : ` [${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`);

function print(name: string, s: Separation): void {
  console.log(`${name}:`);
  for (const x of s.withinSource.sources) console.log(`  ${x.source}  ${x.nPass} / ${x.nFail}  ${f(x.auroc)}${iv(x.interval)}${x.counted ? '' : ' (not counted)'}`);
  console.log(`  mean within source (${s.withinSource.counted} sources)  ${f(s.withinSource.mean)}${iv(s.withinSource.interval)}`);
  console.log(`  within task (${s.withinTask.tasks} tasks, ${s.withinTask.pairs} pairs)  ${f(s.withinTask.auroc)}${iv(s.withinTask.interval)}`);
  console.log(`  pooled ${s.pooled.nPass} / ${s.pooled.nFail}  ${f(s.pooled.auroc)}${iv(s.pooled.interval)} (source alone ${f(s.pooled.sourceOnly)})`);
}

console.log(`${known.length} runs with an outcome and a pPass of ${rows.length} in ${positionals.length} reports (seed ${seed})`);
print(
  'pPass',
  separation(
    of((r) => r.pPass!),
    { seed },
  ),
);
print(
  'run length alone, shorter wins',
  separation(
    of((r) => -r.steps),
    { seed },
  ),
);

/**
 * Issue 26 items 2-3 (task endrank29): the end-of-run model (core/forecast/end-ecdf.ts, "D" of forecast-ecdf.ts)
 * against the shipped model, on finished runs only, with the rule decided before the figures were seen:
 *   default on when, with each run's held-out end score averaged over the seeds, the paired difference in best-of-N
 *   gap closed (end − shipped) on the multi-run source's informative groups (resampled) has a 95 % interval above 0,
 *   AND the end model's within-source AUROC is not below shipped's by more than 0.02 on any source with >= 10 passes
 *   and >= 10 fails.
 * Each seed: train's configuration choice (select.ts) on the raw runs; shipped = leave source and task out under the
 * configuration chosen without the source; end = the same configuration, fitted on every row mapped by the ECDF of
 * the pooled runs of every OTHER source (the scored source's runs are in neither the fit nor the tables), the scored
 * source's task fold left out, its end rows scored.
 *
 *   npm run build && node dist/bench/forecast-end.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--seeds 1,2,3,4,5] [--folds 5] ../shared/calibration ../shared/corpus
 */
import { compileModel, scoreOf } from '../src/core/forecast/forecaster.js';
import { endScores, leaveSourceAndTaskOut, taskFolds } from '../src/core/forecast/crossfit.js';
import { ecdfRuns } from '../src/core/forecast/end-ecdf.js';
import { FEATURE_COUNT } from '../src/core/forecast/features.js';
import { fitRanker, rankerModel, type FitConfig } from '../src/core/forecast/fit.js';
import { sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { selectConfig } from '../src/core/forecast/select.js';
import { separation } from '../src/core/stats/separation.js';
import { argsError, benchArgs, numberFlag, numberListFlag } from './args.js';
import { loadForecastRuns } from './calibration-runs.js';
import { bestOf, pairedGap, scoredOf } from './forecast-ecdf/held-out.js';
import { pooledNormalised, VARIANTS } from './forecast-norm/normalise.js';
import { commandLine } from './timing.js';
import { machineLine } from './report.js';
import os from 'node:os';

const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, folds: { type: 'string' }, seeds: { type: 'string' } },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const folds = numberFlag(values, 'folds', 'positive integer', 5);
const seeds = numberListFlag(values, 'seeds', 'non-negative integer', [1, 2, 3, 4, 5]);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const started = Date.now();
const runs: readonly ForecastRun[] = await loadForecastRuns(positionals, values, 'forecast-end');
const src = runs.map(sourceOf);
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${runs.length} runs (${runs.filter((r) => r.passed).length} passing) read in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load()}; ${folds} task folds, seeds ${seeds.join(', ')}`,
);

const count = (s: string, pass: boolean) => runs.filter((r, i) => src[i] === s && r.passed === pass).length;
const sources = [...new Set(src)].sort();
const informative = (s: string) => {
  const g = new Map<string, Set<boolean>>();
  runs.forEach((r, i) => src[i] === s && g.set(r.task, (g.get(r.task) ?? new Set()).add(r.passed)));
  return [...g.values()].filter((x) => x.size === 2).length;
};
const multi = sources.filter((s) => informative(s) >= 5);
const ruled = sources.filter((s) => count(s, true) >= 10 && count(s, false) >= 10);
const scored = [...new Set([...multi, ...ruled])].sort();
console.log(`multi-run: ${multi.join(', ')}; sources with >= 10 passes and fails: ${ruled.join(', ')}`);

// The core map must be the bench's D (bench/forecast-norm pooledNormalised) to the last bit.
{
  const pop = runs.filter((_, i) => src[i] !== multi[0]);
  const a = ecdfRuns(runs, pop);
  const b = pooledNormalised(runs, VARIANTS['B-ecdf']!, pop);
  const same = a.every((r, i) => r.rows.every((x, j) => Object.is(x, b[i]!.rows[j])));
  console.log(`core ecdfRuns == bench pooledNormalised (population: all but ${multi[0]}): ${same}`);
  if (!same) process.exit(1);
}

/** End scores of source `s` by the end model: fitted on the other sources' other task folds, mapped by the other sources. */
function endFor(s: string, cfg: FitConfig, seed: number, out: Array<number | null>): void {
  const rs = ecdfRuns(
    runs,
    runs.filter((_, i) => src[i] !== s),
  );
  const fold = taskFolds(
    runs.map((r) => r.task),
    folds,
    seed,
  );
  for (let f = 0; f < folds; f++) {
    const mine = rs.flatMap((r, i) => (src[i] === s && fold.get(r.task) === f ? [i] : []));
    if (mine.length === 0) continue;
    const train = rs.filter((r, i) => src[i] !== s && fold.get(r.task) !== f);
    const model = compileModel(rankerModel(fitRanker(train, cfg), undefined));
    for (const i of mine) out[i] = scoreOf(model, rs[i]!.rows, (rs[i]!.at.length - 1) * FEATURE_COUNT);
  }
}

const sum = { shipped: runs.map(() => 0), end: runs.map(() => 0) };
const n = { shipped: runs.map(() => 0), end: runs.map(() => 0) };
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const f2 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(2));
const iv = (i: { lo: number; hi: number } | null | undefined) => (i === null || i === undefined ? '[-]' : `[${f2(i.lo)}, ${f2(i.hi)}]`);

function figures(label: string, shipped: ReadonlyArray<number | null>, end: ReadonlyArray<number | null>, seed: number): void {
  const boot = { seed };
  for (const s of scored) {
    const own = (e: ReadonlyArray<number | null>) => scoredOf(runs, e).filter((x) => x.source === s);
    const cells = [shipped, end].map((e) => {
      const sep = separation(own(e), { seed, unit: 'task' });
      const x = sep.withinSource.sources[0];
      return `${f3(x?.auroc)} ${iv(x?.interval)}`;
    });
    console.log(`${label} ${s} (${count(s, true)} / ${count(s, false)}): AUROC shipped ${cells[0]}, end ${cells[1]}`);
  }
  for (const m of multi) {
    const own = (e: ReadonlyArray<number | null>) => scoredOf(runs, e).filter((x) => x.source === m);
    for (const [name, e] of [
      ['shipped', shipped],
      ['end', end],
    ] as const) {
      const b = bestOf(own(e), boot);
      const wt = separation(own(e), { seed, unit: 'task' }).withinTask;
      console.log(
        `${label} ${m} ${name}: best-of-N resolved (rate [interval]) top ${f2(b.top.resolved)} (${f3(b.top.rate)} ${iv(b.top.interval)}) vs random ${f2(b.random.resolved)} (${f3(b.random.rate)} ${iv(b.random.interval)}) / oracle ${b.oracle.resolved} (${f3(b.oracle.rate)} ${iv(b.oracle.interval)}) of ${b.groups} groups; gap closed ${f2(b.gapClosed)} ${iv(b.gapInterval)} (${b.informative} informative); within task ${f3(wt.auroc)} ${iv(wt.interval)} (${wt.pairs} pairs, ${wt.tasks} tasks)`,
      );
    }
    const d = pairedGap(own(end), own(shipped), boot);
    console.log(`${label} ${m}: end − shipped, gap closed, paired (${d.n} informative groups resampled): ${f2(d.d)} ${iv(d.interval)}`);
  }
}

for (const seed of seeds) {
  const t0 = Date.now();
  const sel = selectConfig(runs, folds, seed);
  const configFor = (s: string): FitConfig => sel.candidates[sel.chosenApart[s] ?? sel.candidates.indexOf(sel.chosen)]!.config;
  const shipped = endScores(leaveSourceAndTaskOut(runs, configFor, folds, seed)).map((z, i) => (scored.includes(src[i]!) ? z : null));
  const end: Array<number | null> = runs.map(() => null);
  for (const s of scored) endFor(s, configFor(s), seed, end);
  for (const [k, e] of [
    ['shipped', shipped],
    ['end', end],
  ] as const)
    e.forEach((z, i) => {
      if (z === null) return;
      sum[k][i]! += z;
      n[k][i]! += 1;
    });
  console.log(`\n## seed ${seed} (${((Date.now() - t0) / 1000).toFixed(0)} s, load ${load()})`);
  figures(`seed ${seed}`, shipped, end, seed);
}
const avg = (k: 'shipped' | 'end') => sum[k].map((x, i) => (n[k][i] === seeds.length ? x / seeds.length : null));
console.log(`\n## each run's end score averaged over seeds ${seeds.join(', ')} (the rule's figures)`);
figures('mean', avg('shipped'), avg('end'), 1);
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()}`);

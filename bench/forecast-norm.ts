/**
 * Issue 26, item 2 (task norm27): the forecaster's features normalised within their source (agent + model) from
 * that source's runs WITHOUT their outcomes, as a server sees many sessions of a source before any outcome and
 * `train` / `report` see all runs of a source. Each feature of a row at prefix t is replaced using the statistics of
 * the same feature over the source's runs at the same checkpoint: end rows by the source's end rows; a prefix row
 * (t < the run's length) by the rows at the largest checkpoint <= t of the source's runs that reached it (fewer than
 * MIN_POPULATION runs there: the previous checkpoint's statistics). The held-out source's statistics come from its
 * own runs, outcomes unread. Variants:
 *   shipped   today's features;
 *   A-centre  x - mean;
 *   A-z       (x - mean) / sd (sd 0: x - mean);
 *   B-ecdf    the mid-rank ECDF of x among the source's values (in (0, 1));
 *   C-length  A-z on the length-like counters only (logSteps, logSinceEdit, sinceEditShare, firstEditShare).
 * Each variant then goes through train's own held-out procedure unchanged (select.ts: feature set and penalty chosen
 * leave one source out, each steering source's under the configuration chosen without it; train.ts `heldOutApart`:
 * leave one source and task out; per-source recalibration cross-fitted by task; the default model's map fitted
 * without the source for the ECE before any outcome): within-source AUROC of the end score and at t = 10, 20, 40 with
 * n and 95 % intervals resampling tasks, run length alone, ECE before any outcome, the paired difference to the
 * shipped features, best-of-N per source (top pick vs random and oracle; paired, informative groups resampled). Last, the variant chosen by the
 * mean over the steering sources, and without each of them.
 *
 *   npm run build && node dist/bench/forecast-norm.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--variants shipped,A-centre,A-z,B-ecdf,C-length] [--folds 5] [--seed 1] \
 *     [--json FILE] ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { crossCalibrate, endScores } from '../src/core/forecast/crossfit.js';
import { calibrationBySource, evaluateView, EVAL_STEPS } from '../src/core/forecast/evaluate.js';
import { applyPlatt } from '../src/core/forecast/platt.js';
import { sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { selectConfig } from '../src/core/forecast/select.js';
import { heldOutApart, unseenSourcePPass } from '../src/core/forecast/train.js';
import { pickGroups } from '../src/core/stats/best-of-n.js';
import { bootstrapDraws, resamplable, resampleIndices, spread } from '../src/core/stats/bootstrap.js';
import type { Separation } from '../src/core/stats/separation.js';
import { meanDifference, sourceDifference, withinTaskDifference, type Difference, type Paired } from './forecast-text/paired.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { normalised, VARIANTS } from './forecast-norm/normalise.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';
import { loadForecastRuns } from './calibration-runs.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, variants: { type: 'string' }, folds: { type: 'string' }, seed: { type: 'string' } },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const folds = numberFlag(values, 'folds', 'positive integer', 5);
const seed = numberFlag(values, 'seed', 'non-negative integer', 1);

const chosenVariants = (values.variants ?? Object.keys(VARIANTS).join(',')).split(',');
for (const v of chosenVariants) if (!(v in VARIANTS)) argsError(`--variants: unknown variant ${v} (known: ${Object.keys(VARIANTS).join(', ')})`);

const started = Date.now();
const runs: readonly ForecastRun[] = await loadForecastRuns(positionals, values, 'forecast-norm');
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(`${runs.length} runs (${runs.filter((r) => r.passed).length} passing) read in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load()}; ${folds} task folds, seed ${seed}`);

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const f2 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(2));
interface Result {
  steering: string[];
  chosen: Record<string, string>;
  end: Separation;
  at: Record<string, Separation>;
  shorter: Separation;
  eceBefore: Record<string, { n: number; ece: number | null }>;
  eceAfter: Record<string, { n: number; ece: number | null }>;
  bestOfN: ReturnType<typeof evaluateView>['bestOfN']['bySource'];
  /** Held-out end score of each run (null: not scored). */
  ends: Array<number | null>;
}
const results: Record<string, Result> = {};
for (const name of chosenVariants) {
  const t0 = Date.now();
  const rs = normalised(runs, VARIANTS[name]!);
  const sel = selectConfig(rs, folds, seed);
  const apart = heldOutApart(rs, sel, folds, seed);
  const cal = crossCalibrate(rs, apart, folds, seed);
  const p = apart.scores.map((z, i) => (z === null || cal[i] === null || cal[i] === undefined ? null : z.map((x) => applyPlatt(cal[i]!, x))));
  const view = evaluateView(rs, apart.scores, p, { seed });
  const before = calibrationBySource(rs, unseenSourcePPass(rs, apart));
  const chosen = Object.fromEntries(Object.entries(sel.chosenApart).map(([s, i]) => [s, `${sel.candidates[i]!.set}, lambda ${sel.candidates[i]!.config.lambda}`]));
  const ece = (c: typeof before) => Object.fromEntries(Object.entries(c.bySource).map(([s, e]) => [s, { n: e.n, ece: e.ece }]));
  results[name] = {
    steering: sel.steering,
    chosen,
    end: view.end,
    at: view.at,
    shorter: view.shorter,
    eceBefore: ece(before),
    eceAfter: ece(view.calibration),
    bestOfN: view.bestOfN.bySource,
    ends: endScores(apart),
  };
  console.log(`${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s, load ${load()}; chosen without each steering source: ${JSON.stringify(chosen)}`);
}

const first = results[chosenVariants[0]!]!;
const steer = first.steering;
const sources = first.end.withinSource.sources;
const cell = (sep: Separation, s: string) => {
  const x = sep.withinSource.sources.find((y) => y.source === s);
  if (x?.auroc === null || x?.auroc === undefined) return '-';
  return x.interval === null ? `${f3(x.auroc)} (point)` : `${f3(x.auroc)} [${f2(x.interval.lo)}, ${f2(x.interval.hi)}]`;
};
const aurocOf = (sep: Separation, s: string) => sep.withinSource.sources.find((y) => y.source === s)?.auroc ?? null;
const meanOver = (sep: Separation, ss: readonly string[]) => {
  const v = ss.map((s) => aurocOf(sep, s)).filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
};
const header = (what: string) => {
  console.log(`\n${what}`);
  console.log(`| variant | ${sources.map((s) => `${s.source} (${s.nPass} / ${s.nFail})`).join(' | ')} | mean, steering | mean, counted |`);
  console.log(`| --- | ${sources.map(() => '---').join(' | ')} | --- | --- |`);
};
const counted = sources.filter((s) => s.counted).map((s) => s.source);
const table = (what: string, pick: (r: Result) => Separation) => {
  header(what);
  for (const name of chosenVariants) {
    const sep = pick(results[name]!);
    console.log(`| ${name} | ${sources.map((s) => cell(sep, s.source)).join(' | ')} | ${f3(meanOver(sep, steer))} | ${f3(meanOver(sep, counted))} |`);
  }
};
table('end-of-run AUROC within source, leave one source and task out (95 % interval resampling tasks; "point": no interval)', (r) => r.end);
header('run length alone (shorter wins; the better direction is max(x, 1 - x))');
console.log(`| run length | ${sources.map((s) => cell(first.shorter, s.source)).join(' | ')} | ${f3(meanOver(first.shorter, steer))} | ${f3(meanOver(first.shorter, counted))} |`);
for (const t of EVAL_STEPS) table(`AUROC after t = ${t} steps (runs that reached t)`, (r) => r.at[String(t)]!);
const eceTable = (what: string, pick: (r: Result) => Result['eceBefore']) => {
  console.log(`\n${what}`);
  console.log(`| variant | ${sources.map((s) => s.source).join(' | ')} |`);
  console.log(`| --- | ${sources.map(() => '---').join(' | ')} |`);
  for (const name of chosenVariants) console.log(`| ${name} | ${sources.map((s) => `${f3(pick(results[name]!)[s.source]?.ece)} (n ${pick(results[name]!)[s.source]?.n ?? 0})`).join(' | ')} |`);
};
eceTable("ECE (10 bins) before any outcome of the source (the default model's map fitted without it)", (r) => r.eceBefore);
eceTable('ECE (10 bins) recalibrated on the source’s other task folds', (r) => r.eceAfter);

// Each variant minus the shipped features on the same runs and the same draws of tasks (forecast-text/paired.ts).
const boot = { seed };
const dv = (d: Difference) => `${d.estimate === null ? '-' : (d.estimate >= 0 ? '+' : '') + d.estimate.toFixed(3)} ${d.interval === null ? '[-]' : `[${f2(d.interval.lo)}, ${f2(d.interval.hi)}]`}`;
const shown = sources.filter((s) => s.counted).map((s) => s.source);
console.log(`\nend-of-run AUROC, variant − shipped, paired (tasks resampled; the sources with 3 or more passing and failing runs)`);
console.log(`| variant | ${shown.join(' | ')} | mean, steering | mean, counted | within task |`);
console.log(`| --- | ${shown.map(() => '---').join(' | ')} | --- | --- | --- |`);
for (const name of chosenVariants.filter((v) => v !== 'shipped' && 'shipped' in results)) {
  const a = results[name]!.ends;
  const b = results.shipped!.ends;
  const paired: Paired[] = runs.flatMap((r, i) => (a[i] === null || b[i] === null ? [] : [{ source: sourceOf(r), task: r.task, pass: r.passed, a: a[i]!, b: b[i]! }]));
  const wt = withinTaskDifference(paired, boot);
  console.log(
    `| ${name} | ${shown
      .map((s) =>
        dv(
          sourceDifference(
            paired.filter((p) => p.source === s),
            boot,
          ),
        ),
      )
      .join(' | ')} | ${dv(meanDifference(paired, steer, boot))} | ${dv(meanDifference(paired, shown, boot))} | ${dv(wt)} (${wt.pairs} pairs) |`,
  );
}

// Best-of-N within the sources with informative groups (several runs of a task, some passing and some failing).
console.log('\nbest-of-N on the end score per source (groups of 2+ runs of one task): top pick resolved vs random and oracle, gap closed');
for (const name of chosenVariants) {
  const by = results[name]!.bestOfN;
  const cells = Object.entries(by)
    .filter(([, b]) => b.informative >= 5)
    .map(
      ([s, b]) =>
        `${s}: ${f2(b.top.resolved)} vs ${f2(b.random.resolved)} / ${b.oracle.resolved} of ${b.groups} groups, gap closed ${f2(b.gapClosed)} ${b.gapInterval === null ? '[-]' : `[${f2(b.gapInterval.lo)}, ${f2(b.gapInterval.hi)}]`} (${b.informative} informative)`,
    );
  console.log(`${name}: ${cells.join('; ') || '-'}`);
}
// Paired: each variant's top pick against the shipped one's in the same informative groups (a passing and a failing run), groups resampled.
const groupsOf = (ends: ReadonlyArray<number | null>) =>
  pickGroups(runs.flatMap((r, i) => (ends[i] === null ? [] : [{ source: sourceOf(r), task: r.task, pass: r.passed, score: ends[i]! }]))).filter((g) => g.passing > 0 && g.passing < g.runs);
if ('shipped' in results) {
  const base = groupsOf(results.shipped.ends);
  for (const name of chosenVariants.filter((v) => v !== 'shipped')) {
    const other = new Map(groupsOf(results[name]!.ends).map((g) => [g.key, g]));
    const pairs = base.flatMap((g) => (other.has(g.key) ? [{ d: other.get(g.key)!.top - g.top, gap: g.oracle - g.random, source: JSON.parse(g.key) as [string, string] }] : []));
    for (const s of [...new Set(pairs.map((p) => p.source[0]))].sort()) {
      const own = pairs.filter((p) => p.source[0] === s);
      if (own.length < 5) continue;
      const stat = (xs: typeof own) => xs.reduce((a, p) => a + p.d, 0) / xs.reduce((a, p) => a + p.gap, 0);
      const iv = resamplable(own.length) ? spread(bootstrapDraws((random) => stat(resampleIndices(random, own.length).map((i) => own[i]!)), boot)) : null;
      console.log(`${name} − shipped, gap closed, paired (${s}, ${own.length} informative groups resampled): ${f2(stat(own))} ${iv === null ? '[-]' : `[${f2(iv.lo)}, ${f2(iv.hi)}]`}`);
    }
  }
}

// The choice among the variants: the best mean over the steering sources, and over the others without each.
const best = (ss: readonly string[]) => chosenVariants.reduce((a, b) => (meanOver(results[b]!.end, ss)! > meanOver(results[a]!.end, ss)! + 1e-12 ? b : a));
console.log(`\nchosen on the ${steer.length} steering sources: ${best(steer)}`);
for (const s of steer) {
  const others = steer.filter((x) => x !== s);
  const b = best(others);
  console.log(`without ${s}: ${b} (its AUROC on ${s}: ${f3(aurocOf(results[b]!.end, s))}; shipped ${f3(aurocOf(first.end, s))})`);
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()}`);
const figures: Record<string, number | string> = {};
for (const name of chosenVariants) {
  figures[`steering_mean ${name}`] = meanOver(results[name]!.end, steer) ?? Number.NaN;
  for (const s of sources) figures[`auroc ${name} ${s.source}`] = aurocOf(results[name]!.end, s.source) ?? Number.NaN;
}
writeResult(jsonFile, { bench: 'forecast-norm', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

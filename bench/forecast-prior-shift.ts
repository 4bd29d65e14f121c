/**
 * Issue 26 (task prior28): a new source's pass rate estimated from its own runs WITHOUT their outcomes (label
 * shift; bench/forecast-prior-shift/estimators.ts: EM of Saerens et al. 2002, the mean pPass, BBSE of Lipton et al. 2018 with soft and hard confusion),
 * and the ECE before any outcome of the source when its pPass is moved to that rate. Each source's pPass before
 * any outcome is train's own (`unseenSourcePPass`: the default model's map fitted without the source, at the
 * source's leave-one-source-and-task-out end scores, `heldOutApart` under the configuration chosen without it).
 * The training pass rate (and BBSE's confusion) is that of the other sources' runs through the same map.
 * Prints per source: n, true pass rate, each estimate, ECE (10 bins) shipped and shifted with 95 % intervals
 * resampling the source's tasks (the estimate redone in every draw), the paired difference; then the ECE with the
 * estimate from the first k runs of random orders (the shift applied to all the source's runs), and the method
 * chosen on the other steering sources.
 *
 *   npm run build && node dist/bench/forecast-prior-shift.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--folds 5] [--seed 1] [--orders 200] [--scores FILE] \
 *     ../shared/calibration ../shared/corpus
 * `--scores FILE`: the held-out end scores are read from FILE when it exists (same runs), else computed and written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { endScores } from '../src/core/forecast/crossfit.js';
import { applyPlatt } from '../src/core/forecast/platt.js';
import { estimatePrior, PRIOR_MIN, PRIOR_SHIFT_METHODS, shiftPPass, trainingPrior, type PriorShiftMethod } from './forecast-prior-shift/estimators.js';
import { sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { selectConfig } from '../src/core/forecast/select.js';
import { defaultMap, heldOutApart, isDefaultMapWeighting } from '../src/core/forecast/train.js';
import { bootstrapDraws, resamplable, resampleIndices } from '../src/core/stats/bootstrap.js';
import { calibrationError } from '../src/core/stats/calibration-error.js';
import { seededRandom, shuffleInPlace } from '../src/core/stats/rng.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';
import { loadForecastRuns } from './calibration-runs.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: {
    manifest: { type: 'string' },
    outcomes: { type: 'string' },
    sources: { type: 'string' },
    folds: { type: 'string' },
    seed: { type: 'string' },
    orders: { type: 'string' },
    scores: { type: 'string' },
    'default-map': { type: 'string' },
  },
});
const folds = numberFlag(values, 'folds', 'positive integer', 5);
const seed = numberFlag(values, 'seed', 'non-negative integer', 1);
const orders = numberFlag(values, 'orders', 'positive integer', 200);
const KS = [5, 10, 20] as const;
const weighting = values['default-map'] ?? 'runs';
if (!isDefaultMapWeighting(weighting)) argsError(`--default-map: runs or sources, not ${weighting}`);
// After the flags, so that a bad flag is named whatever else is missing.
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
/** The sources the brief names as steering (the others are reported as points). */
const MIN_FOR_INTERVAL = 30;

const started = Date.now();
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const runs: readonly ForecastRun[] = await loadForecastRuns(positionals, values, 'forecast-prior-shift');
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(`${runs.length} runs (${runs.filter((r) => r.passed).length} passing) read in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load()}; ${folds} task folds, seed ${seed}`);

// Held-out end scores, as train takes them (cached by run ids when --scores names a file).
interface Cached {
  folds: number;
  seed: number;
  ids: string[];
  ends: Array<number | null>;
  steering: string[];
}
const ids = runs.map((r) => r.id);
let cached: Cached | null = null;
if (values.scores !== undefined && existsSync(values.scores)) {
  const c = JSON.parse(readFileSync(values.scores, 'utf8')) as Cached;
  if (c.folds === folds && c.seed === seed && c.ids.length === ids.length && c.ids.every((x, i) => x === ids[i])) cached = c;
  else console.log(`${values.scores}: other runs, folds or seed; recomputed`);
}
if (cached === null) {
  const t0 = Date.now();
  const sel = selectConfig(runs, folds, seed);
  const apart = heldOutApart(runs, sel, folds, seed);
  cached = { folds, seed, ids, ends: endScores(apart), steering: sel.steering };
  console.log(`held-out scores in ${((Date.now() - t0) / 1000).toFixed(0)} s, load ${load()}`);
  if (values.scores !== undefined) writeFileSync(values.scores, JSON.stringify(cached));
}
const { ends, steering } = cached;

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const f2 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(2));
const iv = (x: { lo: number; hi: number } | null) => (x === null ? '' : ` [${f2(x.lo)}, ${f2(x.hi)}]`);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
/** `oracle`: moved to the source's true pass rate (reads its outcomes: what a perfect estimate would give, not a method). */
type Variant = 'shipped' | PriorShiftMethod | 'oracle';
const VARIANTS: readonly Variant[] = ['shipped', ...PRIOR_SHIFT_METHODS, 'oracle'];

interface SourceData {
  source: string;
  tasks: string[];
  /** pPass before any outcome (the map without the source) and outcome, per run. */
  ps: number[];
  pass: boolean[];
  train: ReturnType<typeof trainingPrior>;
}
const sources = [...new Set(runs.map(sourceOf))].sort();
const data: SourceData[] = sources.map((s) => {
  const map = defaultMap(runs, ends, s, weighting);
  const own = runs.flatMap((r, i) => (sourceOf(r) === s && ends[i] !== null ? [i] : []));
  const kept = runs.flatMap((r, i) => (sourceOf(r) !== s && ends[i] !== null ? [i] : []));
  // The training runs weighed as the map weighed them (defaultMap): their pass rate is the one the map is calibrated at.
  const per = new Map<string, number>();
  for (const i of kept) per.set(sourceOf(runs[i]!), (per.get(sourceOf(runs[i]!)) ?? 0) + 1);
  const weightOf = (i: number) => (weighting === 'runs' ? 1 : kept.length / per.size / per.get(sourceOf(runs[i]!))!);
  const others = kept.map((i) => ({ p: applyPlatt(map, ends[i]!), pass: runs[i]!.passed, weight: weightOf(i) }));
  return { source: s, tasks: own.map((i) => runs[i]!.task), ps: own.map((i) => applyPlatt(map, ends[i]!)), pass: own.map((i) => runs[i]!.passed), train: trainingPrior(others) };
});

const rateOf = (pass: readonly boolean[]) => Math.min(1 - PRIOR_MIN, Math.max(PRIOR_MIN, pass.filter(Boolean).length / pass.length));
const variantP = (v: Variant, d: { ps: number[]; pass: boolean[]; train: SourceData['train'] }, from: readonly number[] = d.ps): { prior: number | null; pPass: number[] } => {
  const est = v === 'shipped' ? null : v === 'oracle' ? rateOf(d.pass) : estimatePrior(v, from, d.train);
  return { prior: est, pPass: est === null ? [...d.ps] : d.ps.map((p) => shiftPPass(p, d.train.prior, est)) };
};
const eceOf = (ps: readonly number[], pass: readonly boolean[]) => calibrationError(ps.map((p, i) => ({ p, pass: pass[i]! }))).ece!;

/** Runs of a source grouped by task (the unit every interval resamples). */
const unitsOf = (d: SourceData): number[][] => {
  const m = new Map<string, number[]>();
  d.tasks.forEach((t, i) => m.set(t, [...(m.get(t) ?? []), i]));
  return [...m.values()];
};

interface Row {
  n: number;
  passRate: number;
  trainPrior: number;
  prior: Record<Variant, number | null>;
  ece: Record<Variant, number>;
  interval: Record<Variant, { lo: number; hi: number } | null>;
  diff: Record<Variant, { lo: number; hi: number } | null>;
  atK: Record<string, Record<Variant, { ece: number; lo: number; hi: number; prior: number } | null>>;
}
const rows: Record<string, Row> = {};
for (const d of data) {
  const n = d.ps.length;
  const units = unitsOf(d);
  const prior = {} as Row['prior'];
  const ece = {} as Row['ece'];
  const interval = {} as Row['interval'];
  const diff = {} as Row['diff'];
  for (const v of VARIANTS) {
    const { prior: est, pPass } = variantP(v, d);
    prior[v] = est;
    ece[v] = eceOf(pPass, d.pass);
    // Each draw resamples the source's tasks and redoes the estimate on the drawn runs (the training side fixed).
    const draw = (random: () => number, paired: boolean) => {
      const idx = resampleIndices(random, units.length).flatMap((u) => units[u]!);
      const pass = idx.map((i) => d.pass[i]!);
      const sub = { ps: idx.map((i) => d.ps[i]!), pass, train: d.train };
      const e = eceOf(variantP(v, sub).pPass, pass);
      return paired ? e - eceOf(sub.ps, pass) : e;
    };
    interval[v] = n >= MIN_FOR_INTERVAL && resamplable(units.length) ? bootstrapDraws((r) => draw(r, false), { seed }) : null;
    diff[v] = v !== 'shipped' && n >= MIN_FOR_INTERVAL && resamplable(units.length) ? bootstrapDraws((r) => draw(r, true), { seed }) : null;
  }
  // The estimate from the first k runs of a random order (as a server sees sessions end), applied to all the runs.
  const atK: Row['atK'] = {};
  for (const k of KS) {
    atK[String(k)] = {} as Row['atK'][string];
    for (const v of VARIANTS) {
      if (k >= n) {
        atK[String(k)]![v] = null;
        continue;
      }
      const random = seededRandom(seed * 1009 + k);
      const es: number[] = [];
      const pr: number[] = [];
      for (let o = 0; o < orders; o++) {
        const order = shuffleInPlace(
          d.ps.map((_, i) => i),
          random,
        ).slice(0, k);
        const { prior: est, pPass } = variantP(
          v,
          d,
          order.map((i) => d.ps[i]!),
        );
        es.push(eceOf(pPass, d.pass));
        pr.push(est ?? d.train.prior);
      }
      const sorted = [...es].sort((a, b) => a - b);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      atK[String(k)]![v] = { ece: mean(es), lo: sorted[Math.floor(0.025 * orders)]!, hi: sorted[Math.min(orders - 1, Math.floor(0.975 * orders))]!, prior: mean(pr) };
    }
  }
  rows[d.source] = { n, passRate: d.pass.filter(Boolean).length / n, trainPrior: d.train.prior, prior, ece, interval, diff, atK };
}

// Sources with 3 or more passing and failing runs (train's counted ones); the others are too small to say anything.
const shown = sources.filter((s) => {
  const d = data.find((x) => x.source === s)!;
  const k = d.pass.filter(Boolean).length;
  return k >= 3 && d.pass.length - k >= 3;
});
console.log(`\nsteering sources: ${steering.join('; ')}; default map: ${weighting}`);
console.log('\nECE (10 bins) before any outcome of the source, the pPass moved to the pass rate estimated from its runs (all of them, no outcome read)');
console.log(`95 % intervals resample the source's tasks (${MIN_FOR_INTERVAL}+ runs), the estimate redone in each draw; the paired row: shifted − shipped on the same draws`);
console.log(
  `| source | n | pass rate: true / training | estimate ${PRIOR_SHIFT_METHODS.join(' / ')} | ${VARIANTS.map((v) => `ECE ${v === 'oracle' ? 'at the true rate (reads outcomes)' : v}`).join(' | ')} |`,
);
console.log(`| --- | --- | --- | --- | ${VARIANTS.map(() => '---').join(' | ')} |`);
for (const s of shown) {
  const r = rows[s]!;
  const cell = (v: Variant) => `${f3(r.ece[v])}${iv(r.interval[v])}${v === 'shipped' || r.diff[v] === null ? '' : ` (${signed(r.ece[v] - r.ece.shipped)}${iv(r.diff[v])})`}`;
  console.log(`| ${s} | ${r.n} | ${f3(r.passRate)} / ${f3(r.trainPrior)} | ${PRIOR_SHIFT_METHODS.map((v) => f3(r.prior[v])).join(' / ')} | ${VARIANTS.map(cell).join(' | ')} |`);
}
// Why: label shift assumes p(pPass | outcome) the same in the source as in the training runs; compare them.
console.log('\nlabel shift assumes the pPass of passing (failing) runs alike in the source and the training runs: mean pPass by outcome, source vs training');
console.log('| source | passing: source / training | failing: source / training | all: source / training |');
console.log('| --- | --- | --- | --- |');
for (const s of shown) {
  const d = data.find((x) => x.source === s)!;
  const m = (pick: (i: number) => boolean) => {
    const v = d.ps.filter((_, i) => pick(i));
    return v.reduce((a, b) => a + b, 0) / v.length;
  };
  console.log(`| ${s} | ${f3(m((i) => d.pass[i]!))} / ${f3(d.train.passMean)} | ${f3(m((i) => !d.pass[i]!))} / ${f3(d.train.failMean)} | ${f3(m(() => true))} / ${f3(d.train.prior)} |`);
}
console.log(
  `\nECE with the estimate from the first k runs of ${orders} random orders (mean over orders [2.5, 97.5 percentiles]; mean estimate in parentheses), the shift applied to all the source's runs`,
);
console.log(`| source | k | ${PRIOR_SHIFT_METHODS.join(' | ')} |`);
console.log(`| --- | --- | ${PRIOR_SHIFT_METHODS.map(() => '---').join(' | ')} |`);
for (const s of shown) {
  for (const k of KS) {
    const a = rows[s]!.atK[String(k)]!;
    if (a.em === null) continue;
    console.log(`| ${s} | ${k} | ${PRIOR_SHIFT_METHODS.map((v) => `${f3(a[v]!.ece)} [${f2(a[v]!.lo)}, ${f2(a[v]!.hi)}] (${f2(a[v]!.prior)})`).join(' | ')} |`);
  }
}
// The method a team would pick without the source: the lowest mean ECE (all runs) over the other steering sources.
console.log('\nchosen on the other steering sources (lowest mean ECE, all runs), and its ECE on the one left out:');
for (const s of steering) {
  const others = steering.filter((x) => x !== s);
  const score = (v: Variant) => others.reduce((a, o) => a + rows[o]!.ece[v], 0) / others.length;
  // The oracle reads outcomes: not a choice a source without outcomes has.
  const best = VARIANTS.filter((v) => v !== 'oracle').reduce((a, b) => (score(b) < score(a) - 1e-12 ? b : a));
  console.log(`without ${s}: ${best} (mean ${f3(score(best))} on the others); on ${s}: ${f3(rows[s]!.ece[best])} (shipped ${f3(rows[s]!.ece.shipped)})`);
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()}`);
const figures: Record<string, number> = {};
for (const s of shown) for (const v of VARIANTS) figures[`ece ${v} ${s}`] = rows[s]!.ece[v];
writeResult(jsonFile, { bench: 'forecast-prior-shift', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

/**
 * Fitting the forecaster's linear score from finished runs with known
 * outcomes, so that it ranks runs **within** a source (agent + model)
 * rather than telling sources apart (issue 26):
 * - every source gets its own intercept, pulled toward a shared one (partial
 *   pooling, prior sd `groupSd`), so differences between sources' pass rates
 *   and typical lengths go to the intercepts, and the shared weights are
 *   learned from differences between runs of the same source;
 * - with `kappa`, a source with enough runs also gets its own weights,
 *   pulled toward the pooled ones by a penalty κ·λ (κ large = pooled);
 * - one sample per run at each checkpoint it passes and at its last step;
 *   the last step carries `endWeight` of the run's weight, the prefixes share
 *   the rest, so every run counts once and the end-of-run value (what a
 *   finished run's pPass is) gets most of the fit;
 * - with `pairWeight` > 0, a pairwise term on the end rows of every (passing,
 *   failing) pair of runs of one source and task: what neither the task's
 *   difficulty nor the harness can explain (logistic.ts `pairWeight`).
 */
import { FEATURE_COUNT, FEATURE_NAMES, type FeatureName } from './features.js';
import { fitDesign, type Design, type LogisticFit, type Standardisation } from './logistic.js';
import type { ForecastModel } from './model.js';
import { rowAt, sampleSteps, sourceOf, type ForecastRun } from './run.js';

/** What a fit is configured by (train chooses it held out). */
export interface FitConfig {
  features: readonly FeatureName[];
  /** L2 penalty on standardised weights per unit of sample weight. */
  lambda: number;
  /** Share of a run's weight on its last step. */
  endWeight: number;
  /** Prior standard deviation of a source's intercept around the shared one (logit units). */
  groupSd: number;
  /** Per-source weights pulled toward the pooled ones with penalty kappa·lambda; null = pooled weights only. */
  kappa: number | null;
  /** Weight of the within-task pairwise term (logistic.ts `FitOptions.pairWeight`); absent or 0: pointwise only. */
  pairWeight?: number;
}

/** A source gets its own weights (with `kappa`) only with this many runs and of each outcome. */
export const OWN_WEIGHTS_MIN_RUNS = 20;
export const OWN_WEIGHTS_MIN_CLASS = 5;

/** The fitted linear score: pooled weights, the intercept of each source seen, and the sources with their own weights. */
export interface Ranker extends Standardisation {
  features: readonly FeatureName[];
  weights: number[];
  /** The shared intercept: an unseen source's. */
  intercept: number;
  bySource: Map<string, { intercept: number; weights?: number[]; runs: number; passing: number; tasks: number }>;
  trainedOn: { runs: number; passing: number; tasks: number };
}

const counts = (runs: readonly ForecastRun[]) => ({ runs: runs.length, passing: runs.filter((r) => r.passed).length, tasks: new Set(runs.map((r) => r.task)).size });

/** The end rows of every (passing, failing) pair of runs of one source and task, as design row indices. */
export function taskPairs(runs: readonly ForecastRun[], endRow: ReadonlyMap<ForecastRun, number>): Int32Array {
  const byTask = new Map<string, { pass: number[]; fail: number[] }>();
  for (const r of runs) {
    const row = endRow.get(r);
    if (row === undefined) continue;
    const key = `${sourceOf(r)}\u0000${r.task}`;
    const g = byTask.get(key) ?? { pass: [], fail: [] };
    (r.passed ? g.pass : g.fail).push(row);
    byTask.set(key, g);
  }
  const out: number[] = [];
  for (const { pass, fail } of byTask.values()) for (const p of pass) for (const f of fail) out.push(p, f);
  return Int32Array.from(out);
}

/**
 * The design of `runs` over `features` (rows at the sampled prefix lengths, weights as in the file comment); with
 * `pairs`, the within-task pairs of end rows ({@link taskPairs}).
 */
export function designOf(runs: readonly ForecastRun[], features: readonly FeatureName[], endWeight: number, group?: (r: ForecastRun) => number, pairs = false): Design {
  const cols = features.map((f) => FEATURE_NAMES.indexOf(f));
  const d = cols.length;
  const picked: Array<[ForecastRun, number, number]> = [];
  for (const r of runs) {
    const steps = sampleSteps(r.length);
    const k = steps.length;
    for (const t of steps) {
      const row = rowAt(r, t);
      if (row < 0) continue;
      picked.push([r, row, k === 1 ? 1 : t === r.length ? endWeight : (1 - endWeight) / (k - 1)]);
    }
  }
  const n = picked.length;
  const x = new Float64Array(n * d);
  const y = new Uint8Array(n);
  const w = new Float64Array(n);
  const g = group !== undefined ? new Int32Array(n) : undefined;
  picked.forEach(([r, row, weight], i) => {
    for (let j = 0; j < d; j++) x[i * d + j] = r.rows[row * FEATURE_COUNT + cols[j]!]!;
    y[i] = r.passed ? 1 : 0;
    w[i] = weight;
    if (g !== undefined) g[i] = group!(r);
  });
  const ends = new Map<ForecastRun, number>();
  if (pairs) picked.forEach(([r, row], i) => r.at[row] === r.length && ends.set(r, i));
  return { x, n, d, y, w, ...(g !== undefined ? { group: g } : {}), ...(pairs ? { pairs: taskPairs(runs, ends) } : {}) };
}

const enoughForOwn = (runs: readonly ForecastRun[]): boolean => {
  const p = runs.filter((r) => r.passed).length;
  return runs.length >= OWN_WEIGHTS_MIN_RUNS && p >= OWN_WEIGHTS_MIN_CLASS && runs.length - p >= OWN_WEIGHTS_MIN_CLASS;
};

/** Fits the ranker on `runs` (at least one passing and one failing run; callers check). */
export function fitRanker(runs: readonly ForecastRun[], cfg: FitConfig, start?: readonly number[]): Ranker {
  const groups = new Map<string, ForecastRun[]>();
  for (const r of runs) {
    const s = sourceOf(r);
    const g = groups.get(s);
    if (g) g.push(r);
    else groups.set(s, [r]);
  }
  const sources = [...groups.keys()].sort();
  const index = new Map<ForecastRun, number>();
  sources.forEach((s, i) => groups.get(s)!.forEach((r) => index.set(r, i)));
  const pw = cfg.pairWeight ?? 0;
  const paired = pw > 0 ? { pairWeight: pw } : {};
  const design = designOf(runs, cfg.features, cfg.endWeight, (r) => index.get(r)!, pw > 0);
  const pooled: LogisticFit = fitDesign(design, { lambda: cfg.lambda, groups: { count: sources.length, sd: cfg.groupSd }, ...(start !== undefined ? { start } : {}), ...paired });
  const bySource: Ranker['bySource'] = new Map();
  sources.forEach((s, k) => {
    const own = groups.get(s)!;
    const entry: { intercept: number; weights?: number[] } & ReturnType<typeof counts> = { intercept: pooled.groupIntercepts[k]!, ...counts(own) };
    if (cfg.kappa !== null && enoughForOwn(own)) {
      const fit = fitDesign(designOf(own, cfg.features, cfg.endWeight, undefined, pw > 0), {
        lambda: cfg.lambda * cfg.kappa,
        prior: pooled.weights,
        start: pooled.weights,
        standard: pooled,
        ...paired,
      });
      entry.intercept = fit.intercept;
      entry.weights = fit.weights;
    }
    bySource.set(s, entry);
  });
  return { features: cfg.features, mean: pooled.mean, scale: pooled.scale, weights: pooled.weights, intercept: pooled.intercept, bySource, trainedOn: counts(runs) };
}

const IDENTITY = { a: 0, b: 1 };

/** The model a source gets from a ranker (the default one for a source it was not fitted on), with a calibration. */
export function rankerModel(r: Ranker, source: string | undefined, calibration = IDENTITY, match: ForecastModel['match'] = {}): ForecastModel {
  const own = source !== undefined ? r.bySource.get(source) : undefined;
  return {
    match,
    features: [...r.features],
    mean: [...r.mean],
    scale: [...r.scale],
    weights: [...(own?.weights ?? r.weights)],
    intercept: own?.intercept ?? r.intercept,
    calibration: { ...calibration },
    trainedOn: own !== undefined ? { runs: own.runs, passing: own.passing, tasks: own.tasks } : { ...r.trainedOn },
  };
}

/**
 * Held-out evaluation of the forecaster: task-disjoint folds (no task has
 * runs on both sides), each run's pPass after every step from a model fitted
 * without its task, then AUROC at t = 10, 20, 40 (runs still going at t) and
 * at the end, beside run length alone; a reliability table; the same per
 * source (agent + model). Pure and deterministic (the fold of a task is a
 * hash of its name and the seed).
 */
import { auroc } from '../stats/auroc.js';
import { createForecaster } from './forecaster.js';
import { fitForecastModel, PrefixVectorCache, sampleSteps, type ForecastRun } from './fit.js';
import { predict } from './logistic.js';
import type { ForecastModel } from './model.js';
import { evaluateForecastStop, type StopEvaluation } from './stop-eval.js';

export const EVAL_STEPS = [10, 20, 40] as const;

/** AUROC of pPass after t steps (runs with at least t steps) and at each run's end. */
export interface HorizonAurocs {
  runs: number;
  passing: number;
  /** Keyed by t: AUROC (null without both outcomes) and how many runs reached t. */
  at: Record<string, { auroc: number | null; runs: number; passing: number }>;
  end: number | null;
  /** Run length alone (shorter = pass) at the end: the baseline to beat. */
  lengthAlone: number | null;
  /** Mean log loss and Brier score of the sampled prefixes (the training samples' points). */
  logLoss: number | null;
  brier: number | null;
}

/** One bin of predicted pPass at the end: how many runs, their mean pPass, and the share that passed. */
export interface ReliabilityBin {
  from: number;
  to: number;
  runs: number;
  meanPredicted: number | null;
  observed: number | null;
}

export interface ForecastEvaluation {
  folds: number;
  seed: number;
  overall: HorizonAurocs;
  bySource: Record<string, HorizonAurocs>;
  reliability: ReliabilityBin[];
  /** The `lowForecast` stop rule on the same held-out pPass (5 % false-stop bound). */
  stop: StopEvaluation;
}

/** Deterministic 32-bit FNV-1a hash (fold assignment). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The fold (0..k−1) of every task: tasks sorted by their seeded hash, dealt round-robin, so folds differ in size by at most one task. */
export function taskFolds(tasks: readonly string[], k: number, seed: number): Map<string, number> {
  const sorted = [...new Set(tasks)].sort((a, b) => hash(`${seed}:${a}`) - hash(`${seed}:${b}`) || (a < b ? -1 : 1));
  return new Map(sorted.map((t, i) => [t, i % k]));
}

/** pPass after each step of a run under `model`. */
export function predictRun(model: ForecastModel, run: ForecastRun): number[] {
  const f = createForecaster(model);
  return run.states.map((s) => f.add(s));
}

export const sourceOf = (r: Pick<ForecastRun, 'agent' | 'model'>): string => `${r.agent} + ${r.model}`;

/** A fit of the forecaster: `fitForecastModel`'s signature (the cache shares prefix vectors between folds). */
export type FitForecast = (runs: readonly ForecastRun[], match?: ForecastModel['match'], lambda?: number, cache?: PrefixVectorCache) => ForecastModel;

/**
 * Out-of-fold pPass per run (null for a run whose training side lacked an
 * outcome class). The folds share one prefix-vector cache; the held-out
 * values equal {@link predictRun}'s (the same vectors, the same dot product).
 */
export function outOfFold(runs: readonly ForecastRun[], k: number, seed: number, fit: FitForecast = fitForecastModel, cache = new PrefixVectorCache()): Array<number[] | null> {
  const folds = taskFolds(
    runs.map((r) => r.task),
    k,
    seed,
  );
  const out: Array<number[] | null> = runs.map(() => null);
  for (let f = 0; f < k; f++) {
    const train = runs.filter((r) => folds.get(r.task) !== f);
    if (!train.some((r) => r.passed) || !train.some((r) => !r.passed)) continue;
    const model = fit(train, {}, undefined, cache);
    runs.forEach((r, i) => {
      if (folds.get(r.task) === f) out[i] = cache.of(r, model.prior.windows, model.prior.alpha).map((v) => predict(model, v));
    });
  }
  return out;
}

const clampP = (p: number) => Math.min(1 - 1e-9, Math.max(1e-9, p));

function aurocOf(pairs: ReadonlyArray<[number, boolean]>): number | null {
  return (
    auroc(
      pairs.filter((p) => p[1]).map((p) => p[0]),
      pairs.filter((p) => !p[1]).map((p) => p[0]),
    )?.auroc ?? null
  );
}

/** Metrics of given predictions (one array of pPass per run, null = not predicted). */
export function horizonAurocs(runs: readonly ForecastRun[], preds: ReadonlyArray<readonly number[] | null>): HorizonAurocs {
  const idx = runs.map((_, i) => i).filter((i) => preds[i] !== null && runs[i]!.states.length > 0);
  const at: HorizonAurocs['at'] = {};
  for (const t of EVAL_STEPS) {
    const alive = idx.filter((i) => runs[i]!.states.length >= t);
    at[String(t)] = {
      auroc: aurocOf(alive.map((i) => [preds[i]![t - 1]!, runs[i]!.passed])),
      runs: alive.length,
      passing: alive.filter((i) => runs[i]!.passed).length,
    };
  }
  let ll = 0,
    br = 0,
    m = 0;
  for (const i of idx) {
    const p = preds[i]!;
    const y = runs[i]!.passed ? 1 : 0;
    for (const t of sampleSteps(p.length)) {
      const q = clampP(p[t - 1]!);
      ll -= y * Math.log(q) + (1 - y) * Math.log(1 - q);
      br += (q - y) ** 2;
      m += 1;
    }
  }
  return {
    runs: idx.length,
    passing: idx.filter((i) => runs[i]!.passed).length,
    at,
    end: aurocOf(idx.map((i) => [preds[i]![preds[i]!.length - 1]!, runs[i]!.passed])),
    lengthAlone: aurocOf(idx.map((i) => [-runs[i]!.states.length, runs[i]!.passed])),
    logLoss: m > 0 ? ll / m : null,
    brier: m > 0 ? br / m : null,
  };
}

/** Ten bins of the end-of-run pPass: mean predicted vs observed pass rate. */
export function reliabilityTable(runs: readonly ForecastRun[], preds: ReadonlyArray<readonly number[] | null>, bins = 10): ReliabilityBin[] {
  const acc = Array.from({ length: bins }, () => ({ n: 0, p: 0, y: 0 }));
  runs.forEach((r, i) => {
    const p = preds[i];
    if (p === null || p === undefined || p.length === 0) return;
    const q = p[p.length - 1]!;
    const b = acc[Math.min(bins - 1, Math.floor(q * bins))]!;
    b.n += 1;
    b.p += q;
    b.y += r.passed ? 1 : 0;
  });
  return acc.map((b, j) => ({
    from: j / bins,
    to: (j + 1) / bins,
    runs: b.n,
    meanPredicted: b.n > 0 ? b.p / b.n : null,
    observed: b.n > 0 ? b.y / b.n : null,
  }));
}

/** Task-disjoint k-fold evaluation of fitting on `runs`. */
export function evaluateForecast(runs: readonly ForecastRun[], k = 5, seed = 1, fit: FitForecast = fitForecastModel, cache = new PrefixVectorCache()): ForecastEvaluation {
  const preds = outOfFold(runs, k, seed, fit, cache);
  const sources = [...new Set(runs.map(sourceOf))].sort();
  const bySource: Record<string, HorizonAurocs> = {};
  for (const s of sources) {
    const pick = runs.map((r, i) => [r, i] as const).filter(([r]) => sourceOf(r) === s);
    bySource[s] = horizonAurocs(
      pick.map(([r]) => r),
      pick.map(([, i]) => preds[i]!),
    );
  }
  return { folds: k, seed, overall: horizonAurocs(runs, preds), bySource, reliability: reliabilityTable(runs, preds), stop: evaluateForecastStop(runs, preds) };
}

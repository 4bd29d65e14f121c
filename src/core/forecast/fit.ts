/**
 * Fitting a forecast model from finished runs with known outcomes: the prior
 * windows (the stage profile of the passing runs), one prefix sample per run
 * at each checkpoint step it reaches and at its last step, and the logistic
 * fit. The same feature tracker the scorer runs produces every sample, so a
 * model's pPass after t steps online is exactly what it was trained and
 * evaluated on.
 */
import { createTemporalTracker, DEFAULT_ALPHA, windowDistributions, type Windows } from '../signals/temporal.js';
import type { State, StageDist } from '../types.js';
import { createFeatureTracker, FEATURE_NAMES } from './features.js';
import { fitLogistic } from './logistic.js';
import type { ForecastModel } from './model.js';

/** One finished run: its scorer states, outcome, task and source (agent + model). */
export interface ForecastRun {
  id: string;
  task: string;
  /** Agent and model as logged (or from a manifest). */
  agent: string;
  model: string;
  passed: boolean;
  states: readonly State[];
}

/** Prefix lengths sampled for training (plus every run's full length). */
export const CHECKPOINTS: readonly number[] = [1, 2, 3, 5, 7, 10, 13, 16, 20, 25, 30, 35, 40, 50, 60, 70, 80, 100, 120, 150, 200, 300, 500, 1000];

/** L2 penalty of the fit (per unit of sample weight, on standardised features). */
export const DEFAULT_LAMBDA = 0.01;

const uniform = (): StageDist => [0.25, 0.25, 0.25, 0.25];

/** The mean window profile of the passing runs (uniform without any): what Φtemp is compared against. */
export function priorWindows(runs: readonly ForecastRun[], alpha = DEFAULT_ALPHA): Windows {
  const sums: Windows = [
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ];
  let k = 0;
  for (const r of runs) {
    if (!r.passed || r.states.length === 0) continue;
    k += 1;
    const w = windowDistributions(
      r.states.map((s) => s.stage),
      alpha,
    );
    for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) sums[i]![j] = sums[i]![j]! + w[i]![j]!;
  }
  if (k === 0) return [uniform(), uniform(), uniform()];
  return sums.map((d) => d.map((x) => x / k)) as Windows;
}

/** The feature vector after every step of `states` (index t − 1 = after t steps). */
export function prefixVectors(states: readonly State[], windows: Windows, alpha: number): number[][] {
  const tracker = createFeatureTracker(windows, alpha);
  return states.map((s) => {
    tracker.add(s);
    return tracker.vector();
  });
}

const TEMP = FEATURE_NAMES.indexOf('temp');

/**
 * Prefix vectors of runs shared by the fits of one evaluation (its folds and
 * the final fit): every feature but Φtemp is the same whatever the prior
 * windows, so it is computed once per run, and a fit with other windows only
 * re-runs the temporal tracker. Equal to {@link prefixVectors} to the last
 * bit (the same trackers fed the same states).
 */
export class PrefixVectorCache {
  private readonly base = new Map<ForecastRun, number[][]>();

  /** The vectors of `run` against `windows`; `steps` (1-based prefix lengths, ascending) picks a subset. */
  of(run: ForecastRun, windows: Windows, alpha: number, steps?: readonly number[]): number[][] {
    let base = this.base.get(run);
    if (base === undefined) {
      base = prefixVectors(run.states, windows, alpha);
      this.base.set(run, base);
    }
    const want = steps ?? base.map((_, i) => i + 1);
    const temporal = createTemporalTracker(windows, alpha);
    const out: number[][] = [];
    let at = 0;
    for (const t of want) {
      while (at < t) temporal.add(run.states[at++]!);
      const v = base[t - 1]!.slice();
      v[TEMP] = temporal.value();
      out.push(v);
    }
    return out;
  }
}

/** The sampled prefix lengths of a run of `n` steps: the checkpoints it reaches and `n`. */
export function sampleSteps(n: number): number[] {
  const out = CHECKPOINTS.filter((c) => c < n);
  if (n > 0) out.push(n);
  return out;
}

/** Fits a model on `runs` (at least one passing and one failing run; callers check); `cache` shares prefix vectors between fits. */
export function fitForecastModel(runs: readonly ForecastRun[], match: ForecastModel['match'] = {}, lambda = DEFAULT_LAMBDA, cache = new PrefixVectorCache()): ForecastModel {
  const alpha = DEFAULT_ALPHA;
  const windows = priorWindows(runs, alpha);
  const xs: number[][] = [];
  const ys: number[] = [];
  for (const r of runs) {
    for (const v of cache.of(r, windows, alpha, sampleSteps(r.states.length))) {
      xs.push(v);
      ys.push(r.passed ? 1 : 0);
    }
  }
  const fit = fitLogistic(xs, ys, undefined, { lambda });
  return {
    match,
    features: [...FEATURE_NAMES],
    prior: { windows, alpha },
    mean: fit.mean,
    scale: fit.scale,
    weights: fit.weights,
    intercept: fit.intercept,
    trainedOn: { runs: runs.length, passing: runs.filter((r) => r.passed).length, tasks: new Set(runs.map((r) => r.task)).size },
  };
}

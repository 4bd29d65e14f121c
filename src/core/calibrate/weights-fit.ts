/**
 * Fitting the composite weights (method.md section 6) by grid search over the
 * simplex, the way the paper fixed 0.20 / 0.15 / 0.30 / 0.35: the weights whose
 * final composite separates passing from failing runs best (AUROC, passing =
 * positive). These weights weigh only scores against a reference (a PTA):
 * a run scored reference-free gets `priorWeights` (steplens train chooses
 * them), so the objective is the AUROC with a reference alone; the mean with
 * the reference-free mode once recommended weights that did worse where they
 * apply (0.495 vs the paper's 0.571 held out on the shared runs) for a gain
 * in a mode that never reads them. Ties go to the weights closest to `paper`.
 */
import { composite, type SignalValues } from '../composite.js';
import type { Weights } from '../config.js';
import { auroc } from '../stats/auroc.js';
import type { ModeName } from './tradeoff-types.js';

/** One run's final signal values per mode (`reference` null when its task has no leave-one-out PTA). */
export interface WeightSample {
  task: string;
  /** Agent + model (calibrate's source name); the per-source AUROCs read it (none: one unnamed source). */
  source?: string;
  passed: boolean;
  reference: SignalValues | null;
  referenceFree: SignalValues;
}

/** Every weight vector on the simplex with the given step (coh + temp > 0, so reference-free scoring is defined). */
export function simplexGrid(step = 0.05): Weights[] {
  const n = Math.round(1 / step);
  const out: Weights[] = [];
  const w = (k: number) => Number((k / n).toFixed(10));
  for (let a = 0; a <= n; a++) {
    for (let b = 0; a + b <= n; b++) {
      for (let c = 0; a + b + c <= n; c++) {
        const d = n - a - b - c;
        if (c + d > 0) out.push({ struct: w(a), cov: w(b), coh: w(c), temp: w(d) });
      }
    }
  }
  return out;
}

/** AUROC of the final composite under `weights` in one mode (null without both outcomes). */
export function aurocWith(samples: readonly WeightSample[], weights: Weights, mode: ModeName): number | null {
  const pos: number[] = [];
  const neg: number[] = [];
  for (const s of samples) {
    const v = s[mode];
    if (v === null) continue;
    (s.passed ? pos : neg).push(composite(v, weights).total);
  }
  return auroc(pos, neg)?.auroc ?? null;
}

/** AUROC of one signal alone in one mode (struct / cov only where a reference exists). */
export function signalAuroc(samples: readonly WeightSample[], signal: keyof SignalValues, mode: ModeName): number | null {
  const pos: number[] = [];
  const neg: number[] = [];
  for (const s of samples) {
    const x = s[mode]?.[signal];
    if (x === null || x === undefined) continue;
    (s.passed ? pos : neg).push(x);
  }
  return auroc(pos, neg)?.auroc ?? null;
}

/** Mean of the defined per-mode AUROCs (null when neither is defined). */
export function objective(samples: readonly WeightSample[], weights: Weights): number | null {
  return aurocWith(samples, weights, FIT_MODE);
}

/** The mode the weights govern, the only one they are fitted and judged on. */
export const FIT_MODE: ModeName = 'reference';

/** L1 distance between two weight vectors normalised to sum 1. */
export function weightDistance(a: Weights, b: Weights): number {
  const sa = a.struct + a.cov + a.coh + a.temp;
  const sb = b.struct + b.cov + b.coh + b.temp;
  return (['struct', 'cov', 'coh', 'temp'] as const).reduce((s, k) => s + Math.abs(a[k] / sa - b[k] / sb), 0);
}

/** The grid weights with the best objective on `samples`; `paper` when no objective is defined. */
export function fitWeights(samples: readonly WeightSample[], grid: readonly Weights[], paper: Weights): Weights {
  return bestWeights(grid, paper, (w) => objective(samples, w));
}

/**
 * The grid weights with the best score (`scoreOf(w, k)` for grid entry k; null where undefined), ties within 1e-12
 * going to the weights closest to `paper`; `paper` when no score is defined.
 */
export function bestWeights(grid: readonly Weights[], paper: Weights, scoreOf: (w: Weights, k: number) => number | null): Weights {
  let best: Weights = paper;
  let bestScore: number | null = null;
  grid.forEach((w, k) => {
    const s = scoreOf(w, k);
    if (s === null) return;
    const gain = bestScore === null ? Infinity : s - bestScore;
    if (gain > 1e-12 || (Math.abs(gain) <= 1e-12 && weightDistance(w, paper) < weightDistance(best, paper))) {
      best = w;
      bestScore = s;
    }
  });
  return best;
}

/** The mean of the defined per-mode AUROCs, as {@link objective} takes it (null when neither is defined). */
export function meanDefined(xs: ReadonlyArray<number | null>): number | null {
  const d = xs.filter((x): x is number => x !== null);
  return d.length === 0 ? null : d.reduce((a, b) => a + b, 0) / d.length;
}

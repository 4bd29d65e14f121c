/**
 * Efron's bias-corrected percentile (BC) bootstrap interval. A percentile interval reads the bootstrap draws as they
 * fall; for a statistic biased upward at small n (a binned ECE) the draws sit above the estimate itself (each
 * resample adds its own noise to the bins), and the 95 % percentile interval of an ECE often lay wholly above its
 * point. BC measures that shift as z0 = Φ⁻¹(share of draws below the estimate, ties counted half) and reads the
 * draws at Φ(2·z0 ± z) instead of Φ(±z) (Efron & Tibshirani 1993, §14.3). BCa would add an acceleration from a
 * jackknife over tasks (one more pass of n ECEs); at these n its correction is second order beside z0.
 */
import { normalQuantile } from '../../src/core/stats/binomial.js';
import type { Interval } from '../../src/core/stats/interval.js';
import { sortedQuantile } from '../../src/core/stats/bootstrap.js';
import { gammaP } from '../../src/core/stats/special.js';

/** Standard normal CDF via the regularized incomplete gamma: Φ(x) = (1 + sign(x) · P(1/2, x² / 2)) / 2. */
export function normalCdf(x: number): number {
  const half = gammaP(0.5, (x * x) / 2) / 2;
  return x >= 0 ? 0.5 + half : 0.5 - half;
}

/**
 * BC interval of `point` from its sorted bootstrap `values` at `level`. The share below the point is kept within
 * [1 / (2 · draws), 1 − 1 / (2 · draws)]: every draw above the estimate is a finite z0, not −∞.
 */
export function biasCorrectedInterval(values: readonly number[], point: number, level: number): Interval | null {
  const n = values.length;
  if (n === 0) return null;
  let below = 0;
  let ties = 0;
  for (const v of values) {
    if (v < point - 1e-12) below++;
    else if (v <= point + 1e-12) ties++;
  }
  const share = Math.min(1 - 0.5 / n, Math.max(0.5 / n, (below + ties / 2) / n));
  const z0 = normalQuantile(share);
  const z = normalQuantile(1 - (1 - level) / 2);
  return { lo: sortedQuantile(values, normalCdf(2 * z0 - z)), hi: sortedQuantile(values, normalCdf(2 * z0 + z) - 1e-12), level };
}

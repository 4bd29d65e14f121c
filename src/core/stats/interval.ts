/**
 * Two-sided confidence intervals of a binomial rate (pass rates, resolve rates): Wilson's score interval
 * (closed form, good coverage at small n) and Clopper-Pearson's exact interval (never undercovers).
 * Both are null-free: n = 0 gives the whole [0, 1].
 */
import { clopperPearsonUpper, normalQuantile, wilsonBounds } from './binomial.js';

/** A two-sided interval at `level` (e.g. 0.95). */
export interface Interval {
  lo: number;
  hi: number;
  level: number;
}

export type RateIntervalMethod = 'wilson' | 'clopper-pearson';

/** Wilson's score interval of k successes in n trials. */
export function wilsonInterval(k: number, n: number, level = 0.95): Interval {
  if (n <= 0) return { lo: 0, hi: 1, level };
  const [lo, hi] = wilsonBounds(k, n, normalQuantile(1 - (1 - level) / 2));
  return { lo, hi, level };
}

/** Clopper-Pearson's exact interval: each side a one-sided bound at 1 - (1 - level) / 2. */
export function clopperPearsonInterval(k: number, n: number, level = 0.95): Interval {
  if (n <= 0) return { lo: 0, hi: 1, level };
  const side = 1 - (1 - level) / 2;
  const hi = k >= n ? 1 : clopperPearsonUpper(k, n, side);
  // The lower bound of k successes is 1 - the upper bound of n - k failures.
  const lo = k <= 0 ? 0 : 1 - clopperPearsonUpper(n - k, n, side);
  return { lo, hi, level };
}

/** The interval of a rate by `method`. */
export function rateInterval(k: number, n: number, method: RateIntervalMethod = 'wilson', level = 0.95): Interval {
  return method === 'wilson' ? wilsonInterval(k, n, level) : clopperPearsonInterval(k, n, level);
}

/** True when two intervals share a point (the two estimates cannot be told apart at their level). */
export function intervalsOverlap(a: Interval, b: Interval): boolean {
  return a.lo <= b.hi && b.lo <= a.hi;
}

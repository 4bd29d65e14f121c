/**
 * One-sided upper confidence bounds of a binomial rate (k events in n
 * trials), for false-stop rates: Clopper-Pearson (exact: the rate p at which
 * P(X <= k) = 1 - confidence) and Wilson (score interval, closed form).
 * Clopper-Pearson is the default: it never undercovers, which is what a
 * "stops at most x % of passing runs" promise needs.
 */

export type BoundMethod = 'clopper-pearson' | 'wilson';
export const BOUND_METHODS: readonly BoundMethod[] = ['clopper-pearson', 'wilson'];

/** P(X <= k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  // Terms by recurrence in log space: ln t(i) = ln t(i-1) + ln((n - i + 1) / i) + ln(p / (1 - p)).
  const odds = Math.log(p) - Math.log1p(-p);
  let lnTerm = n * Math.log1p(-p);
  let sum = Math.exp(lnTerm);
  for (let i = 1; i <= k; i++) {
    lnTerm += Math.log((n - i + 1) / i) + odds;
    sum += Math.exp(lnTerm);
  }
  return Math.min(1, sum);
}

/** Exact one-sided upper bound: the p with P(X <= k | n, p) = 1 - confidence (bisection to 1e-12). */
export function clopperPearsonUpper(k: number, n: number, confidence = 0.95): number {
  if (n <= 0 || k >= n) return 1;
  const alpha = 1 - confidence;
  if (k === 0) return 1 - alpha ** (1 / n);
  let lo = k / n;
  let hi = 1;
  while (hi - lo > 1e-12) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(k, n, mid) > alpha) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/**
 * Wilson's score bounds of `k / n` (n > 0) at the normal quantile `z`. At k = 0 the lower bound is 0 and at k = n
 * the upper is 1 exactly: the formula gives them 1e-17 off, so an interval could exclude its own estimate.
 */
export function wilsonBounds(k: number, n: number, z: number): [number, number] {
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const d = 1 + z2 / n;
  return [k <= 0 ? 0 : Math.max(0, (centre - spread) / d), k >= n ? 1 : Math.min(1, (centre + spread) / d)];
}

/** One-sided Wilson score upper bound at `confidence`. */
export function wilsonUpper(k: number, n: number, confidence = 0.95): number {
  return n <= 0 ? 1 : wilsonBounds(k, n, normalQuantile(confidence))[1];
}

/** Two-sided Wilson score interval of a proportion `k / n` at `confidence` ([0, 1] when n is 0). */
export function wilsonInterval(k: number, n: number, confidence = 0.95): [number, number] {
  return n <= 0 ? [0, 1] : wilsonBounds(k, n, normalQuantile(1 - (1 - confidence) / 2));
}

/** The upper bound by `method`. */
export function upperBound(method: BoundMethod, k: number, n: number, confidence: number): number {
  return method === 'wilson' ? wilsonUpper(k, n, confidence) : clopperPearsonUpper(k, n, confidence);
}

/** The fewest trials whose bound with zero events is within `bound` (Infinity when none up to 1e6 is). */
export function trialsForBound(method: BoundMethod, bound: number, confidence: number): number {
  if (upperBound(method, 0, 1e6, confidence) > bound) return Infinity;
  let lo = 1;
  let hi = 1e6;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (upperBound(method, 0, mid, confidence) <= bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

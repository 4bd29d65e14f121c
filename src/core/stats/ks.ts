/** Two-sample Kolmogorov-Smirnov test. */

export interface KsResult {
  /** sup |F_a − F_b| over the pooled sample. */
  d: number;
  /** Asymptotic two-sided p-value (see `ksTwoSample`). */
  p: number;
  n: number;
  m: number;
  method: 'asymptotic';
}

/**
 * Survival function of the Kolmogorov distribution,
 * Q(λ) = 2 Σ_{k>=1} (−1)^{k−1} exp(−2 k² λ²), clamped to [0, 1].
 */
export function kolmogorovQ(lambda: number): number {
  if (lambda < 1e-3) return 1;
  let sum = 0;
  let sign = 1;
  for (let k = 1; k <= 200; k++) {
    const term = sign * Math.exp(-2 * k * k * lambda * lambda);
    sum += term;
    if (Math.abs(term) < 1e-16) break;
    sign = -sign;
  }
  return Math.min(1, Math.max(0, 2 * sum));
}

/**
 * Two-sample KS statistic D and its p-value. The p-value is ASYMPTOTIC: the
 * Kolmogorov distribution evaluated at λ = (√n_e + 0.12 + 0.11/√n_e)·D with
 * n_e = n·m/(n+m), Stephens' small-sample correction (as in Numerical
 * Recipes `kstwo`). It is conservative-ish for tiny samples; no exact
 * permutation p-value is computed. Null when either sample is empty or holds a
 * non-finite value (a NaN is in no order: the merge below would never advance past it).
 */
export function ksTwoSample(a: readonly number[], b: readonly number[]): KsResult | null {
  if (a.length === 0 || b.length === 0) return null;
  if (!a.every(Number.isFinite) || !b.every(Number.isFinite)) return null;
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i]!, y[j]!);
    while (i < x.length && x[i]! <= v) i++;
    while (j < y.length && y[j]! <= v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  const ne = Math.sqrt((x.length * y.length) / (x.length + y.length));
  const p = kolmogorovQ((ne + 0.12 + 0.11 / ne) * d);
  return { d, p, n: x.length, m: y.length, method: 'asymptotic' };
}

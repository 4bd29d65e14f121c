/** Descriptive statistics and ranking with ties. Pure; NaN-free inputs expected. */

/** Arithmetic mean; null for an empty sample. */
export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/**
 * Quantile `q` in [0, 1] by linear interpolation between order statistics
 * (Hyndman-Fan type 7, the default of R and NumPy); null for an empty sample.
 */
export function quantile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(h);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

/** Median (type-7 quantile 0.5); null for an empty sample. */
export function median(xs: readonly number[]): number | null {
  return quantile(xs, 0.5);
}

/** How many of `xs` equal `v` (the values tied at a point, e.g. at a median interval of one value). */
export function countOf(xs: readonly number[], v: number): number {
  let k = 0;
  for (const x of xs) if (x === v) k += 1;
  return k;
}

/**
 * 1-based ranks of `xs` in ascending order (`descending` reverses), tied
 * values sharing the average of the ranks they span (so ranks always sum to
 * n(n+1)/2).
 */
export function averageRanks(xs: readonly number[], descending = false): number[] {
  const idx = xs.map((_, i) => i).sort((a, b) => (descending ? xs[b]! - xs[a]! : xs[a]! - xs[b]!));
  const ranks = new Array<number>(xs.length).fill(0);
  let i = 0;
  while (i < idx.length) {
    let j = i;
    while (j + 1 < idx.length && xs[idx[j + 1]!] === xs[idx[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[idx[k]!] = r;
    i = j + 1;
  }
  return ranks;
}

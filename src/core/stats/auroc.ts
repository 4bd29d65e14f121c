/** AUROC through the Mann-Whitney U statistic. */

export interface AurocResult {
  /** P(score of a random positive > score of a random negative) + ½ P(tie). */
  auroc: number;
  /** Mann-Whitney U of the positives. */
  u: number;
  nPos: number;
  nNeg: number;
}

/**
 * Mann-Whitney U of ascending-sorted positives against ascending-sorted
 * negatives: for each positive, the negatives strictly below it plus half
 * those equal to it (the rank-sum form with average ranks for ties, counted
 * by one merge). Whole and half pair counts are exact in floating point.
 */
export function sortedU(pos: Float64Array, neg: Float64Array): number {
  let below = 0;
  let ties = 0;
  let u = 0;
  let j = 0;
  for (let i = 0; i < pos.length; i++) {
    const p = pos[i]!;
    if (i > 0 && p === pos[i - 1]!) {
      u += below + ties / 2;
      continue;
    }
    below += ties;
    ties = 0;
    while (j < neg.length && neg[j]! < p) {
      below += 1;
      j += 1;
    }
    while (j < neg.length && neg[j] === p) {
      ties += 1;
      j += 1;
    }
    u += below + ties / 2;
  }
  return u;
}

/**
 * AUROC of `pos` (e.g. scores of passing trajectories) against `neg`: the
 * Mann-Whitney U of the positives over all pairs, ties counting ½ (the same
 * value as the rank-sum form with average ranks; a native numeric sort of each
 * side and one merge, so the bootstrap intervals built on it stay fast).
 * Null when either sample is empty, or holds a NaN (an unscored run: it has no place in the order).
 */
export function auroc(pos: readonly number[], neg: readonly number[]): AurocResult | null {
  if (pos.length === 0 || neg.length === 0 || pos.some(Number.isNaN) || neg.some(Number.isNaN)) return null;
  const u = sortedU(Float64Array.from(pos).sort(), Float64Array.from(neg).sort());
  return { auroc: u / (pos.length * neg.length), u, nPos: pos.length, nNeg: neg.length };
}

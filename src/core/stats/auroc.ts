/** AUROC through the Mann-Whitney U statistic. */
import { averageRanks } from './descriptive.js';

export interface AurocResult {
  /** P(score of a random positive > score of a random negative) + ½ P(tie). */
  auroc: number;
  /** Mann-Whitney U of the positives. */
  u: number;
  nPos: number;
  nNeg: number;
}

/**
 * AUROC of `pos` (e.g. scores of passing trajectories) against `neg`, from the
 * rank-sum form of Mann-Whitney U with average ranks for ties (ties count ½).
 * Null when either sample is empty.
 */
export function auroc(pos: readonly number[], neg: readonly number[]): AurocResult | null {
  if (pos.length === 0 || neg.length === 0) return null;
  const ranks = averageRanks([...pos, ...neg]);
  let rankSum = 0;
  for (let i = 0; i < pos.length; i++) rankSum += ranks[i]!;
  const u = rankSum - (pos.length * (pos.length + 1)) / 2;
  return { auroc: u / (pos.length * neg.length), u, nPos: pos.length, nNeg: neg.length };
}

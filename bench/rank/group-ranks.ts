/**
 * Group-relative scores for bench/rank.ts (issue 26 item 3, third round): a run's rank among its group's runs under
 * each score, so that scores on different scales (pPass, whose level differs by source; the composite, whose level
 * differs by harness) can be combined without weights. Ranking one score within its group keeps its order, so its
 * top pick and within-task AUROC are the score's own; only a combination of ranks (Borda) can pick differently.
 */

/** Each value's rank within `xs`, 1 = lowest; tied values share the mean of their ranks (mid-ranks). */
export function midRanks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const out = new Array<number>(xs.length);
  for (let k = 0; k < order.length;) {
    let end = k;
    while (end + 1 < order.length && xs[order[end + 1]!] === xs[order[k]!]) end += 1;
    const mid = (k + end) / 2 + 1;
    for (let j = k; j <= end; j++) out[order[j]!] = mid;
    k = end + 1;
  }
  return out;
}

/** Borda count: each run's mean mid-rank over the given scores of one group (higher = better under all of them). */
export function bordaScores(scores: ReadonlyArray<readonly number[]>): number[] {
  if (scores.length === 0) return [];
  const ranks = scores.map(midRanks);
  return scores[0]!.map((_, i) => ranks.reduce((s, r) => s + r[i]!, 0) / ranks.length);
}

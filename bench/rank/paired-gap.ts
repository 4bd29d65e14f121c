/**
 * The paired bootstrap of best-of-N's gap closed (bench/rank.ts): a candidate's gap minus a baseline's on the same
 * resampled groups. Both order the same runs, so a group's random pick and oracle are the same on both sides and
 * the difference is (top − top₀) / (oracle − random) of each draw; the two gaps' own intervals overlap even when
 * one candidate is ahead in nearly every draw, which only the paired difference shows.
 */
import { bootstrapDraws, resamplable, resampleIndices, spread, type BootstrapOptions } from '../../src/core/stats/bootstrap.js';
import { pickGroups, type GroupPick } from '../../src/core/stats/best-of-n.js';
import type { Interval } from '../../src/core/stats/interval.js';
import type { ScoredOutcome } from '../../src/core/stats/separation.js';

export interface PairedGap {
  /** Candidate's gap closed minus the baseline's (null when the oracle gains nothing over a random pick). */
  diff: number | null;
  /**
   * 95 % (or `level`) percentile interval over resampled groups; null below MIN_RESAMPLE_UNITS informative groups, or
   * where every draw gives one value (two orders with the same top picks: it was printed `[0.00, 0.00]`).
   */
  interval: Interval | null;
}

const diffOf = (a: readonly GroupPick[], b: readonly GroupPick[], idx: readonly number[]): number | null => {
  let top = 0;
  let top0 = 0;
  let random = 0;
  let oracle = 0;
  for (const i of idx) {
    top += a[i]!.top;
    top0 += b[i]!.top;
    random += a[i]!.random;
    oracle += a[i]!.oracle;
  }
  return oracle - random > 1e-12 ? (top - top0) / (oracle - random) : null;
};

/** `candidate` and `baseline` score the same runs (same source, task and outcome, in any order). */
export function pairedGap(candidate: readonly ScoredOutcome[], baseline: readonly ScoredOutcome[], options: BootstrapOptions = {}): PairedGap {
  const a = pickGroups(candidate);
  const b = pickGroups(baseline);
  if (a.length !== b.length || a.some((g, i) => g.key !== b[i]!.key || g.runs !== b[i]!.runs || g.passing !== b[i]!.passing))
    throw new Error('pairedGap: the candidate and the baseline must score the same groups of runs');
  const all = a.map((_, i) => i);
  const informative = a.filter((g) => g.passing > 0 && g.passing < g.runs).length;
  return {
    diff: diffOf(a, b, all),
    interval: !resamplable(informative) ? null : spread(bootstrapDraws((random) => diffOf(a, b, resampleIndices(random, a.length)), options)),
  };
}

/**
 * bench/rank/group-ranks.ts (mid-ranks, Borda) and bench/rank/paired-gap.ts (the paired bootstrap of best-of-N's
 * gap closed), on small synthetic groups.
 */
import { describe, expect, it } from 'vitest';
import { bordaScores, midRanks } from '../../bench/rank/group-ranks.js';
import { pairedGap } from '../../bench/rank/paired-gap.js';
import { bestOfN } from '../../src/core/stats/best-of-n.js';
import type { ScoredOutcome } from '../../src/core/stats/separation.js';

/** `n` groups of one passing and two failing runs; `right(k)` says whether group k's passing run scores highest. */
function groups(n: number, right: (k: number) => boolean): ScoredOutcome[] {
  return Array.from({ length: n }, (_, k) => [
    { source: 's', task: `t${k}`, pass: true, score: right(k) ? 3 : 1 },
    { source: 's', task: `t${k}`, pass: false, score: 2 },
    { source: 's', task: `t${k}`, pass: false, score: right(k) ? 1 : 3 },
  ]).flat();
}

describe('rank bench helpers', () => {
  it('mid-ranks: 1 = lowest, ties share the mean of their ranks', () => {
    expect(midRanks([0.3, 0.1, 0.2])).toEqual([3, 1, 2]);
    expect(midRanks([5, 5, 1, 5])).toEqual([3, 3, 1, 3]);
    expect(midRanks([])).toEqual([]);
  });

  it('Borda: the mean of the mid-ranks; two scores that disagree meet in the middle', () => {
    expect(
      bordaScores([
        [0.9, 0.5, 0.1],
        [10, 50, 90],
      ]),
    ).toEqual([2, 2, 2]);
    expect(
      bordaScores([
        [0.9, 0.5, 0.1],
        [90, 10, 50],
      ]),
    ).toEqual([3, 1.5, 1.5]);
    expect(bordaScores([])).toEqual([]);
  });

  it('paired gap: the difference of the two gaps closed, with an interval from the same resampled groups', () => {
    const good = groups(10, (k) => k < 8); // top pick right in 8 of 10 groups
    const base = groups(10, (k) => k < 5); // in 5 of 10
    const p = pairedGap(good, base, { seed: 1, reps: 200 });
    const gap = (xs: ScoredOutcome[]) => bestOfN(xs).gapClosed!;
    expect(p.diff).toBeCloseTo(gap(good) - gap(base), 12);
    expect(p.diff).toBeCloseTo(3 / (10 - 10 / 3), 12);
    // Candidate ahead in 3 groups and never behind: every draw is ≥ 0, so the interval cannot hold a negative value.
    expect(p.interval!.lo).toBeGreaterThanOrEqual(0);
    expect(p.interval!.hi).toBeGreaterThan(0);
    const same = pairedGap(base, base, { seed: 1, reps: 200 });
    expect(same.diff).toBe(0);
    expect(same.interval).toEqual({ lo: 0, hi: 0, level: 0.95 });
  });

  it('paired gap: no interval below 5 informative groups; refuses groups that are not the same', () => {
    expect(
      pairedGap(
        groups(4, () => true),
        groups(4, () => false),
      ).interval,
    ).toBeNull();
    expect(() =>
      pairedGap(
        groups(6, () => true),
        groups(5, () => true),
      ),
    ).toThrow(/same groups/);
  });
});

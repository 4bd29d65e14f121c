/**
 * bench/rank/group-ranks.ts (mid-ranks, Borda), bench/rank/paired-gap.ts (the paired bootstrap of best-of-N's
 * gap closed) and bench/rank/pairs-top.ts (within-task pairs against top picks), on small synthetic groups.
 */
import { describe, expect, it } from 'vitest';
import { bordaScores, midRanks } from '../../bench/rank/group-ranks.js';
import { pairedGap } from '../../bench/rank/paired-gap.js';
import { gapOf, pairsAgainstTop } from '../../bench/rank/pairs-top.js';
import { oneForecasterPPass } from '../../bench/rank/one-forecaster.js';
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
  it("one forecaster per group: a group scored by two forecaster files gets no pPass (the 'calibration, by task' set)", () => {
    const pPass = new Map([
      ['a', 0.9],
      ['b', 0.2],
      ['c', 0.5],
    ]);
    const by = new Map([
      ['a', 'forecast-trials'],
      ['b', 'forecast-trials'],
      ['c', 'forecast-others'],
    ]);
    expect(oneForecasterPPass(['a', 'b'], pPass, by)).toEqual([0.9, 0.2]);
    expect(oneForecasterPPass(['a', 'c'], pPass, by)).toEqual([Number.NaN, Number.NaN]);
    // A run no file scored is no score either, and the whole group goes with it.
    expect(oneForecasterPPass(['a', 'd'], pPass, by)).toEqual([Number.NaN, Number.NaN]);
  });

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
    // Every draw 0: no interval, not `[0.00, 0.00]` (audit25; docs/rank.md printed `+0.000 [0.00, 0.00]`).
    expect(same.interval).toBeNull();
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

  it('pairs against top picks: the same share of right pairs closes less of the gap in 1P2F groups than in 2P1F ones', () => {
    const run = (task: string, pass: boolean, score: number): ScoredOutcome => ({ source: 's', task, pass, score });
    const rows = [
      // 1P2F, one pair of two right: the passing run is in the middle, the top pick fails.
      ...[run('a', true, 2), run('a', false, 3), run('a', false, 1)],
      // 2P1F, one pair of two right: a passing run is on top.
      ...[run('b', true, 3), run('b', true, 1), run('b', false, 2)],
      // 2P1F, the two passing runs tied on top: the top pick resolves.
      ...[run('c', true, 5), run('c', true, 5), run('c', false, 0)],
      // 1P1F tied: half a pair, half a top pick.
      ...[run('d', true, 1), run('d', false, 1)],
      // no failing run: not counted.
      ...[run('e', true, 1), run('e', true, 2)],
    ];
    const [p1f1, p1f2, p2f1, all] = pairsAgainstTop(rows);
    expect(p1f1).toMatchObject({ kind: '1P1F', groups: 1, pairs: 1, right: 0.5, someRight: 1, tiedTop: 1, top: 0.5, random: 0.5, oracle: 1 });
    expect(p1f2).toMatchObject({ kind: '1P2F', groups: 1, pairs: 2, right: 1, someRight: 1, top: 0 });
    expect(gapOf(p1f2!)).toBeCloseTo(-0.5, 12);
    expect(p2f1).toMatchObject({ kind: '2P1F', groups: 2, pairs: 4, right: 3, allRight: 1, someRight: 1, tiedTop: 1, top: 2 });
    expect(gapOf(p2f1!)).toBe(1);
    expect(all).toMatchObject({ kind: 'all', groups: 4, pairs: 7, right: 4.5, top: 2.5, oracle: 4 });
  });
});

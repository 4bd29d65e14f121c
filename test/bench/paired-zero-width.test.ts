/**
 * audit25 (no interval of zero width): the benches' paired differences (bench/forecast-text/paired.ts, as
 * bench/rank/paired-gap.ts) printed `0.000 [0.00, 0.00]` where the two scores order every draw alike (docs/forecast.md's
 * OpenHands column: text + pPass against pPass). Such a difference has no interval (`[-]`), as core/stats `spread` rules
 * for the report's and train's figures; a difference that varies keeps its interval.
 */
import { describe, expect, it } from 'vitest';
import { meanDifference, sourceDifference, withinTaskDifference, type Paired } from '../../bench/forecast-text/paired.js';

/** 8 tasks of one source, a passing and two failing runs each; `b` orders like `a` when `same`, else shuffled. */
function runs(same: boolean): Paired[] {
  return Array.from({ length: 8 }, (_, k) => [0.9, 0.5, 0.1].map((a, j) => ({ source: 's', task: `t${k}`, pass: j === 0, a: a + k / 100, b: same ? a + k / 100 : (a * (k + 3 * j + 1)) % 1 }))).flat();
}

describe('paired differences of the benches', () => {
  const o = { seed: 1, reps: 200 };
  it('give no interval where every draw gives one value', () => {
    const rs = runs(true);
    for (const d of [sourceDifference(rs, o), meanDifference(rs, ['s'], o), withinTaskDifference(rs, o)]) {
      expect(d.estimate).toBe(0);
      expect(d.interval).toBeNull();
    }
  });

  it('keep the interval of a difference that varies', () => {
    const rs = runs(false);
    const d = sourceDifference(rs, o);
    expect(d.estimate).not.toBe(0);
    expect(d.interval).not.toBeNull();
    expect(d.interval!.lo).toBeLessThan(d.interval!.hi);
  });
});

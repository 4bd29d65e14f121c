/**
 * A bootstrap of one unit (one run of a side, one task, one group) resamples that unit every time: its "95 %
 * interval" was the estimate itself, zero-width, so `report --min-runs 1` ranked two one-run sources 1 and 2 and
 * `train` printed "0.000 [0.00, 0.00]" at 1 pass / 2 fails. Below 2 units there is now no interval, and an entry
 * without one is not ranked.
 */
import { describe, expect, it } from 'vitest';
import { bestOfN } from '../../src/core/stats/best-of-n.js';
import { aurocInterval, meanInterval } from '../../src/core/stats/bootstrap.js';
import { calibrationCheck } from '../../src/core/stats/calibration-check.js';
import { rankWithTies } from '../../src/core/stats/ranking.js';
import { separation, type ScoredOutcome } from '../../src/core/stats/separation.js';

const o = { reps: 200 };

describe('bootstrap intervals below 2 units', () => {
  it('a mean of one value and an AUROC with one run on a side have none; 2 units have one', () => {
    expect(meanInterval([83.3], o)).toBeNull();
    // 2 to 4 values: too few to resample (MIN_RESAMPLE_UNITS, tiny-resamples.test.ts); 5 have one.
    expect(meanInterval([83.3, 38.1], o)).toBeNull();
    expect(meanInterval([83.3, 38.1, 52.0, 61.4, 47.9], o)).not.toBeNull();
    expect(aurocInterval([0.9], [0.1, 0.2], o)).toBeNull();
    expect(aurocInterval([0.9, 0.4], [0.1], o)).toBeNull();
    expect(aurocInterval([0.9, 0.4], [0.1, 0.5], o)).toBeNull();
    expect(aurocInterval([0.9, 0.4, 0.7], [0.1, 0.5], o)).not.toBeNull();
  });

  it('within task from one task, best-of-N from one group and an ECE from one prediction have none', () => {
    // One source, one task: 2 passing and 1 failing run (2 pass/fail pairs of 1 task), as in the README's example.
    const one: ScoredOutcome[] = [
      { source: 's', task: 't', pass: true, score: 0.9 },
      { source: 's', task: 't', pass: true, score: 0.8 },
      { source: 's', task: 't', pass: false, score: 0.1 },
    ];
    const s = separation(one, o);
    expect(s.withinTask).toMatchObject({ auroc: 1, interval: null, pairs: 2, tasks: 1 });
    expect(s.pooled.interval).toBeNull();
    const b = bestOfN(one, o);
    expect(b.groups).toBe(1);
    expect([b.top.interval, b.random.interval, b.oracle.interval, b.gapInterval]).toEqual([null, null, null, null]);
    expect(b.top.rate).toBe(1);
    expect(calibrationCheck([{ p: 0.46, pass: true }], o)).toMatchObject({ n: 1, ece: expect.closeTo(0.54, 9) as number, interval: null });
    // With a counted side of one run (minPerClass 1), the within-source mean has no interval either.
    expect(separation(one, { ...o, minPerClass: 1 }).withinSource).toMatchObject({ mean: 1, interval: null });
  });

  it('two sources of one run each are listed, not ranked, whatever the minimum', () => {
    const entries = [83.3, 38.1].map((q) => ({ estimate: q, interval: meanInterval([q], o), n: 1 }));
    expect(rankWithTies(entries, 1)).toEqual([
      { rank: null, tied: false, unranked: 'no interval (n too small)' },
      { rank: null, tied: false, unranked: 'no interval (n too small)' },
    ]);
  });
});

/**
 * A NaN score is an unscored run (evidence a model reads but nobody tracked reads NaN on purpose): it has no place
 * in an order or a probability bin, so every figure that would need it is null, never a plausible number.
 */
import { describe, expect, it } from 'vitest';
import { auroc } from '../../src/core/stats/auroc.js';
import { aurocInterval } from '../../src/core/stats/bootstrap.js';
import { bestOfN } from '../../src/core/stats/best-of-n.js';
import { calibrationCheck } from '../../src/core/stats/calibration-check.js';
import { calibrationError } from '../../src/core/stats/calibration-error.js';
import { separation, type ScoredOutcome } from '../../src/core/stats/separation.js';

const runs = (scores: number[]): ScoredOutcome[] => scores.map((score, i) => ({ source: 's', task: `t${i % 3}`, pass: i % 2 === 0, score }));

describe('NaN scores', () => {
  it('auroc and its interval are null, not a number from where the sort put the NaN', () => {
    expect(auroc([0.9, Number.NaN], [0.1, 0.2])).toBeNull();
    expect(auroc([0.9, 0.8], [Number.NaN])).toBeNull();
    expect(aurocInterval([0.9, Number.NaN], [0.1, 0.2], { reps: 50 })).toBeNull();
    expect(auroc([0.9, 0.8], [0.1, 0.2])?.auroc).toBe(1);
  });

  it('calibration error: a p outside [0, 1] gives null figures and empty bins, with n counting every prediction', () => {
    for (const bad of [Number.NaN, 1.5, -0.1]) {
      const c = calibrationError([
        { p: 0.2, pass: false },
        { p: bad, pass: true },
      ]);
      expect(c).toMatchObject({ n: 2, ece: null, meanPredicted: null, observedRate: null });
      expect(c.bins.every((b) => b.n === 0)).toBe(true);
      expect(calibrationCheck([{ p: bad, pass: true }], { reps: 20 })).toMatchObject({ ece: null, interval: null });
    }
  });

  it('best-of-N: the top pick and the gap are null, random and oracle still counted', () => {
    const b = bestOfN(runs([0.9, 0.1, Number.NaN, 0.4, 0.3, 0.2]), { reps: 50 });
    expect(b.groups).toBe(3);
    expect(b.top).toEqual({ resolved: null, rate: null, interval: null });
    expect(b.gapClosed).toBeNull();
    expect(b.gapInterval).toBeNull();
    expect(b.oracle.resolved).toBe(3);
    expect(b.random.resolved).toBeCloseTo(1.5, 12);
  });

  it('separation: within source, within task and pooled AUROCs are null', () => {
    const s = separation(runs([0.9, 0.1, Number.NaN, 0.4, 0.3, 0.2, 0.8, 0.05]), { reps: 50, minPerClass: 1 });
    expect(s.withinSource).toMatchObject({ mean: null, interval: null });
    expect(s.withinSource.sources[0]).toMatchObject({ auroc: null, interval: null });
    expect(s.withinTask).toMatchObject({ auroc: null, interval: null });
    expect(s.pooled).toMatchObject({ auroc: null, interval: null });
  });
});

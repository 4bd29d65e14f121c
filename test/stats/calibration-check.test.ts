/**
 * calibrationCheck: an ECE with its interval beside the ECE a perfectly calibrated forecaster shows at the same
 * predictions and n, and the share of that forecaster's draws at least the observed ECE.
 */
import { describe, expect, it } from 'vitest';
import { calibrationCheck } from '../../src/core/stats/calibration-check.js';
import { calibrationError } from '../../src/core/stats/calibration-error.js';
import { seededRandom } from '../../src/core/stats/rng.js';

/** n predictions spread over [0.05, 0.95], outcomes drawn from `truth(p)`. */
function sample(n: number, truth: (p: number) => number, seed: number) {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const p = 0.05 + 0.9 * r();
    return { p, pass: r() < truth(p) };
  });
}

describe('calibrationCheck', () => {
  it('at n = 31 a calibrated forecaster shows an ECE far above 0.10, and the check says it is consistent with calibration', () => {
    const preds = sample(31, (p) => p, 3);
    const c = calibrationCheck(preds, { seed: 1 });
    expect(c.n).toBe(31);
    expect(c.ece).toBe(calibrationError(preds).ece);
    expect(c.perfect!.mean).toBeGreaterThan(0.1);
    expect(c.perfect!.hi).toBeGreaterThan(c.perfect!.mean);
    expect(c.p!).toBeGreaterThan(0.05);
    expect(c.interval!.hi).toBeGreaterThan(c.interval!.lo);
  });

  it('flags a forecaster that is off by 0.3 at n = 500, and shrinks the perfect forecaster ECE with n', () => {
    const bad = calibrationCheck(
      sample(500, (p) => Math.min(1, p + 0.3), 5),
      { seed: 1 },
    );
    expect(bad.ece!).toBeGreaterThan(0.2);
    expect(bad.p!).toBeLessThan(0.01);
    expect(bad.perfect!.mean).toBeLessThan(0.06);
    // Deterministic for the seed.
    expect(
      calibrationCheck(
        sample(500, (p) => Math.min(1, p + 0.3), 5),
        { seed: 1 },
      ),
    ).toEqual(bad);
  });

  it('resamples tasks when predictions name them: 20 runs of one task are one unit, not 20', () => {
    // 8 tasks, 20 runs each with one prediction and one outcome per task: as runs the data look like 160 draws.
    const r = seededRandom(11);
    const tasks = Array.from({ length: 8 }, (_, t) => ({ task: `t${t}`, p: 0.1 + 0.1 * t, pass: r() < 0.5 }));
    const runs = tasks.flatMap((x) => Array.from({ length: 20 }, () => x));
    const asRuns = calibrationCheck(
      runs.map(({ p, pass }) => ({ p, pass })),
      { seed: 1 },
    );
    const asTasks = calibrationCheck(runs, { seed: 1 });
    expect(asTasks.ece).toBe(asRuns.ece);
    const width = (c: typeof asRuns): number => c.interval!.hi - c.interval!.lo;
    expect(width(asTasks)).toBeGreaterThan(2 * width(asRuns));
    // Fewer than 5 tasks: no interval, however many runs.
    expect(calibrationCheck(runs.slice(0, 80), { seed: 1 }).interval).toBeNull();
  });

  it('is empty for no predictions', () => {
    expect(calibrationCheck([])).toEqual({ n: 0, ece: null, interval: null, passRate: null, perfect: null, p: null, debiased: null });
  });
});

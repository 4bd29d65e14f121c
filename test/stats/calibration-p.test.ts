/**
 * audit21: `report --forecast bundled` on 20 passing CodeR + gpt-4 runs (../shared/calibration, NL2Code/CodeR @
 * d6346834, trajs/*.traj, the first 20 resolved in its manifest) printed the calibration test's p as `0`: none of the
 * 1,000 draws of a perfectly calibrated forecaster reached the observed ECE 0.572. A Monte Carlo p from 1,000 draws is
 * not 0; it is below about 1 / 1,001. Now p = (1 + draws at least the ECE) / (1 + draws).
 */
import { describe, expect, it } from 'vitest';
import { calibrationCheck } from '../../src/core/stats/calibration-check.js';

// The bundled forecaster's pPass of those 20 runs (report --json, rounded to 3 places); every run passed.
const PPASS = [0.564, 0.428, 0.395, 0.465, 0.568, 0.373, 0.416, 0.394, 0.392, 0.209, 0.487, 0.515, 0.446, 0.324, 0.611, 0.501, 0.33, 0.612, 0.241, 0.283];

describe('calibrationCheck: the Monte Carlo p', () => {
  it('is never 0: no draw as large gives 1 / (1 + draws)', () => {
    const c = calibrationCheck(
      PPASS.map((p) => ({ p, pass: true })),
      { reps: 1000, seed: 1 },
    );
    expect(c.ece).toBeCloseTo(0.572, 3);
    expect(c.p).toBe(1 / 1001);
  });

  it('a well calibrated sample keeps a p near the share of draws at least as large', () => {
    const preds = PPASS.map((p, i) => ({ p, pass: i % 5 < 2 }));
    const c = calibrationCheck(preds, { reps: 1000, seed: 1 });
    expect(c.p!).toBeGreaterThan(0.05);
    expect(c.p!).toBeLessThanOrEqual(1);
  });
});

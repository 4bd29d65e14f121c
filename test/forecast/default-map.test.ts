/**
 * The default model's map (the pPass of an agent + model the file has no model of) and what `train` reports of it:
 * - the "ECE before any outcome" of a source is that of the default model's map fitted WITHOUT the source, at the
 *   source's held-out scores (until stop 66 it was σ(z), which the server never outputs);
 * - `--default-map sources` weighs each source alike, so a large source does not set every source's intercept;
 * - a point's weight counts as that many copies of it.
 */
import { describe, expect, it } from 'vitest';
import { endScores } from '../../src/core/forecast/crossfit.js';
import { applyPlatt, fitPlatt } from '../../src/core/forecast/platt.js';
import { sourceOf } from '../../src/core/forecast/run.js';
import { selectConfig } from '../../src/core/forecast/select.js';
import { defaultMap, heldOutApart, trainForecast } from '../../src/core/forecast/train.js';
import { calibrationError } from '../../src/core/stats/calibration-error.js';
import { syntheticSource } from './synthetic-source.js';

const source = syntheticSource;

// Pass rates 10 %, 50 %, 80 %: a map fitted on all sources misses each of them differently.
const runs = [...source('A', 6, 54, 1), ...source('B', 10, 10, 2), ...source('C', 16, 4, 3)];
const options = { folds: 3, seed: 1, reps: 50 };

describe('the default model map', () => {
  it('reports the ECE before any outcome of a source as the default model fitted without it gives it', () => {
    const r = trainForecast(runs, options);
    const apart = heldOutApart(runs, selectConfig(runs, options.folds, options.seed), options.folds, options.seed);
    const ends = endScores(apart);
    for (const s of ['A + m', 'B + m', 'C + m']) {
      const map = defaultMap(runs, ends, s);
      const preds = runs.flatMap((run, i) => (sourceOf(run) !== s || ends[i] === null ? [] : [{ p: applyPlatt(map, ends[i]!), pass: run.passed }]));
      const before = r.evaluation.leaveSourceOut.uncalibrated[s]!;
      expect(before.n).toBe(preds.length);
      expect(before.meanPredicted).toBeCloseTo(calibrationError(preds).meanPredicted!, 12);
      expect(before.ece).toBeCloseTo(calibrationError(preds).ece!, 12);
    }
    expect(r.evaluation.defaultMap).toBe('runs');
  });

  it('weighs each source alike with `sources`, every run once with `runs` (the default)', () => {
    const ends = runs.map((_, i) => ((i * 7) % 11) / 11 - 0.5);
    const rate = (map: { a: number; b: number }) => runs.reduce((sum, _, i) => sum + applyPlatt(map, ends[i]!), 0) / runs.length;
    // Every run once: the mean pPass is the pooled pass rate (32 of 100), which A's 60 runs pull down.
    expect(rate(defaultMap(runs, ends))).toBeCloseTo(0.32, 2);
    // Each source alike: near the mean of the three rates (10, 50, 80 %), not the pooled one.
    expect(rate(defaultMap(runs, ends, undefined, 'sources'))).toBeGreaterThan(0.4);
    const r = trainForecast(runs, { ...options, defaultMap: 'sources' });
    expect(r.evaluation.defaultMap).toBe('sources');
    expect(r.models[0]!.calibration).not.toEqual(trainForecast(runs, options).models[0]!.calibration);
  });

  it('counts a point of weight 2 as two copies of it', () => {
    const points = [0.3, -1, 2, 0.5, -0.2].map((z, i) => ({ z, pass: i % 2 === 0 }));
    const twice = fitPlatt([...points, points[1]!, points[2]!], undefined, 0);
    const weighted = fitPlatt(
      points.map((p, i) => (i === 1 || i === 2 ? { ...p, weight: 2 } : p)),
      undefined,
      0,
    );
    expect(weighted.a).toBeCloseTo(twice.a, 9);
    expect(weighted.b).toBeCloseTo(twice.b, 9);
  });
});

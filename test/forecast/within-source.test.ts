/**
 * What makes the forecaster rank runs within a source rather than tell
 * sources apart (issue 26): per-source intercepts take what only identifies
 * the source, recalibration per source is fitted on that source's held-out
 * outcomes only, and the configuration a source is scored under is chosen
 * without it. The data are synthetic feature rows (not trajectories): the
 * point is the fit's arithmetic, with effects of known size.
 */
import { describe, expect, it } from 'vitest';
import { crossCalibrate, taskFolds } from '../../src/core/forecast/crossfit.js';
import { FEATURE_COUNT, FEATURE_NAMES, type FeatureName } from '../../src/core/forecast/features.js';
import { designOf, fitRanker, rankerModel } from '../../src/core/forecast/fit.js';
import { fitDesign } from '../../src/core/forecast/logistic.js';
import { fitPlatt, IDENTITY_PLATT } from '../../src/core/forecast/platt.js';
import type { ForecastRun } from '../../src/core/forecast/run.js';
import { DEFAULT_FIT, steeringSources } from '../../src/core/forecast/select.js';
import { rng } from './rng.js';

const col = (f: FeatureName) => FEATURE_NAMES.indexOf(f);

/**
 * Runs of two sources: `editShare` names the source (0.9 in A, 0.1 in B) and A passes 4 times as often;
 * within each source only `sourceEdited` carries signal (a passing run has edited with probability 0.8, a failing one 0.3).
 */
function twoSources(n: number, seed: number): ForecastRun[] {
  const r = rng(seed);
  const out: ForecastRun[] = [];
  for (let i = 0; i < n; i++) {
    const a = i % 2 === 0;
    const passed = r() < (a ? 0.6 : 0.15);
    const rows = new Float64Array(FEATURE_COUNT);
    rows[col('editShare')] = a ? 0.9 : 0.1;
    rows[col('sourceEdited')] = r() < (passed ? 0.8 : 0.3) ? 1 : 0;
    rows[col('logSteps')] = Math.log1p(10);
    out.push({ id: `r${i}`, task: `t${i}`, agent: a ? 'A' : 'B', model: 'm', passed, length: 1, at: Int32Array.from([1]), rows });
  }
  return out;
}

describe('per-source intercepts', () => {
  const runs = twoSources(2000, 3);
  const features: FeatureName[] = ['editShare', 'sourceEdited'];

  it('give a feature that only names the source no weight, where a pooled fit leans on it', () => {
    const ranker = fitRanker(runs, { ...DEFAULT_FIT, features, groupSd: 100 });
    const pooled = fitDesign(designOf(runs, features, 0.7), { lambda: 0.01 });
    // Standardised weights: the pooled fit uses the source marker strongly, the per-source fit not at all.
    expect(Math.abs(pooled.weights[0]!)).toBeGreaterThan(0.4);
    expect(Math.abs(ranker.weights[0]!)).toBeLessThan(0.05);
    // The within-source signal is kept, and the intercepts carry the pass rates (A above B).
    expect(ranker.weights[1]!).toBeGreaterThan(0.4);
    expect(ranker.bySource.get('A + m')!.intercept).toBeGreaterThan(ranker.bySource.get('B + m')!.intercept + 1);
  });

  it('pull a source with few runs toward the shared intercept (partial pooling)', () => {
    const few = [...runs.slice(0, 1000), ...twoSources(12, 5).map((r) => ({ ...r, agent: 'C', id: `c-${r.id}`, passed: true }))];
    const loose = fitRanker(few, { ...DEFAULT_FIT, features, groupSd: 100 });
    const tight = fitRanker(few, { ...DEFAULT_FIT, features, groupSd: 0.5 });
    const offset = (x: typeof loose) => x.bySource.get('C + m')!.intercept - x.intercept;
    // Every run of C passed: unpooled, its intercept runs off; pooled, it stays near the shared one.
    expect(offset(loose)).toBeGreaterThan(3);
    expect(offset(tight)).toBeLessThan(1.5);
    expect(offset(tight)).toBeGreaterThan(0);
  });

  it('serve an unseen source the shared intercept, a seen one its own', () => {
    const ranker = fitRanker(runs, { ...DEFAULT_FIT, features });
    expect(rankerModel(ranker, undefined).intercept).toBe(ranker.intercept);
    expect(rankerModel(ranker, 'B + m').intercept).toBe(ranker.bySource.get('B + m')!.intercept);
    expect(rankerModel(ranker, 'Z + m').intercept).toBe(ranker.intercept);
  });
});

describe('recalibration per source (Platt)', () => {
  it('recovers a known map from many outcomes and stays at the prior with none', () => {
    const r = rng(11);
    const points = Array.from({ length: 4000 }, () => {
      const z = r() * 6 - 3;
      return { z, pass: r() < 1 / (1 + Math.exp(-(-1 + 0.5 * z))) };
    });
    const c = fitPlatt(points);
    expect(c.a).toBeCloseTo(-1, 1);
    expect(c.b).toBeCloseTo(0.5, 1);
    expect(fitPlatt([])).toEqual(IDENTITY_PLATT);
    // Three outcomes move it a little, not all the way: the prior counts as 10 runs.
    const three = fitPlatt([
      { z: 0, pass: true },
      { z: 0, pass: true },
      { z: 0, pass: true },
    ]);
    expect(three.a).toBeGreaterThan(0.2);
    expect(three.a).toBeLessThan(2);
  });

  it('reaches the penalised optimum when every score is alike (intercept and slope collinear), with a firmer prior on the slope', () => {
    // 9 of 14 runs pass, all at z = −4 (a model in force that says 2 % for every run).
    const pts = Array.from({ length: 14 }, (_, i) => ({ z: -4, pass: i < 9 }));
    for (const [a, b] of [
      [3, 30],
      [1, 10],
      [10, 10],
    ] as const) {
      const c = fitPlatt(pts, IDENTITY_PLATT, a, b);
      const p = 1 / (1 + Math.exp(-(c.a + c.b * -4)));
      // Pulled from 2 % toward 9 / 14 = 0.64 by 14 runs against a prior of a few: well past the midpoint, short of it.
      expect(p).toBeGreaterThan(0.33);
      expect(p).toBeLessThan(0.65);
      // A stationary point of the penalised log-likelihood: the gradient in a vanishes.
      const ga = pts.reduce((g, x) => g + ((x.pass ? 1 : 0) - p), 0) - (a / 4) * c.a;
      expect(Math.abs(ga)).toBeLessThan(1e-6);
    }
    // Shift only (slope held at the prior's).
    const shift = fitPlatt(pts, { a: 0, b: 1 }, 3, Infinity);
    expect(shift.b).toBe(1);
    expect(1 / (1 + Math.exp(-(shift.a - 4)))).toBeGreaterThan(0.33);
  });

  it("is cross-fitted: a run's map is fitted on its own source's other task folds only", () => {
    const runs = twoSources(300, 9);
    const scores = runs.map((r) => Float64Array.from([r.rows[col('sourceEdited')]! - (r.agent === 'A' ? 0 : 2)]));
    const cal = crossCalibrate(runs, { scores }, 4, 1);
    const folds = taskFolds(
      runs.map((r) => r.task),
      4,
      1,
    );
    for (const i of [0, 1, 7, 150]) {
      const r = runs[i]!;
      const mine = runs.map((x, j) => [x, j] as const).filter(([x]) => x.agent === r.agent && folds.get(x.task) !== folds.get(r.task));
      expect(cal[i]).toEqual(fitPlatt(mine.map(([x, j]) => ({ z: scores[j]![0]!, pass: x.passed }))));
    }
  });
});

describe('the sources that steer a choice', () => {
  it('are those with 10 passing and 10 failing runs, else those with 3 of each', () => {
    const runs = twoSources(200, 2);
    expect(steeringSources(runs)).toEqual(['A + m', 'B + m']);
    const small = runs.filter((r) => r.agent === 'A').slice(0, 12);
    const tiny = [...small, ...runs.filter((r) => r.agent === 'B').slice(0, 30)];
    expect(steeringSources(tiny).length).toBeLessThanOrEqual(2);
    expect(steeringSources(tiny)).toContain('B + m');
  });
});

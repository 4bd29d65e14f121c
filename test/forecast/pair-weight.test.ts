/**
 * The within-task pairwise term of the forecaster's fit (fit.ts `pairWeight`, logistic.ts `addPairs`): weight 0 is
 * today's pointwise fit bit for bit, the term's gradient is right (the fit is a minimum of the objective it names),
 * and on runs where a feature tells easy tasks from hard ones but within a task points the other way, the term turns
 * the score toward what orders the runs of one task. Synthetic feature rows, effects of known size.
 */
import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, FEATURE_NAMES, type FeatureName } from '../../src/core/forecast/features.js';
import { designOf, fitRanker, rankerModel, taskPairs } from '../../src/core/forecast/fit.js';
import { fitDesign, linear, sigmoid, type Design } from '../../src/core/forecast/logistic.js';
import { compileModel, scoreOf } from '../../src/core/forecast/forecaster.js';
import type { ForecastRun } from '../../src/core/forecast/run.js';
import { DEFAULT_FIT, selectConfig, withinTaskOf } from '../../src/core/forecast/select.js';
import { rng } from './rng.js';

const col = (f: FeatureName) => FEATURE_NAMES.indexOf(f);
const features: FeatureName[] = ['editShare', 'sourceEdited'];

/**
 * `tasks` tasks of 4 runs each, per source. A task is easy (pass rate 0.7) or hard (0.1); `editShare` is 0.8 on easy
 * tasks and 0.2 on hard ones, minus 0.15 on a passing run (within a task it points the wrong way); `sourceEdited` is
 * set on 60 % of passing and 40 % of failing runs (a weak within-task signal).
 */
function tasksOfFour(tasks: number, seed: number, sources = ['A']): ForecastRun[] {
  const r = rng(seed);
  const out: ForecastRun[] = [];
  for (const agent of sources) {
    for (let t = 0; t < tasks; t++) {
      const easy = r() < 0.5;
      for (let k = 0; k < 4; k++) {
        const passed = r() < (easy ? 0.7 : 0.1);
        const rows = new Float64Array(FEATURE_COUNT);
        rows[col('editShare')] = (easy ? 0.8 : 0.2) - (passed ? 0.15 : 0) + 0.05 * (r() - 0.5);
        rows[col('sourceEdited')] = r() < (passed ? 0.6 : 0.4) ? 1 : 0;
        out.push({ id: `${agent}-${t}-${k}`, task: `t${t}`, agent, model: 'm', passed, length: 1, at: Int32Array.from([1]), rows });
      }
    }
  }
  return out;
}

/** End-of-run z of each run under a ranker's default model. */
const endZ = (runs: readonly ForecastRun[], ranker: ReturnType<typeof fitRanker>) => {
  const c = compileModel(rankerModel(ranker, undefined));
  return runs.map((r) => scoreOf(c, r.rows, (r.length - 1) * FEATURE_COUNT));
};

describe('the within-task pairwise term', () => {
  const runs = tasksOfFour(300, 7);

  it('with weight 0 gives the pointwise fit bit for bit', () => {
    const cfg = { ...DEFAULT_FIT, features };
    const a = fitRanker(runs, cfg);
    const b = fitRanker(runs, { ...cfg, pairWeight: 0 });
    expect(b.weights).toEqual(a.weights);
    expect(b.intercept).toBe(a.intercept);
    expect([...b.bySource.values()]).toEqual([...a.bySource.values()]);
    // The pairs built but weighted 0 change nothing either.
    const plain = fitDesign(designOf(runs, features, 0.7), { lambda: 0.01 });
    const withPairs = fitDesign(designOf(runs, features, 0.7, undefined, true), { lambda: 0.01, pairWeight: 0 });
    expect(withPairs).toEqual(plain);
  });

  it('pairs the end rows of passing and failing runs of one source and task only', () => {
    const two = tasksOfFour(20, 3, ['A', 'B']);
    const d = designOf(two, features, 0.7, undefined, true);
    let expected = 0;
    for (const s of ['A', 'B'])
      for (let t = 0; t < 20; t++) {
        const own = two.filter((r) => r.agent === s && r.task === `t${t}`);
        expected += own.filter((r) => r.passed).length * own.filter((r) => !r.passed).length;
      }
    expect(d.pairs!.length / 2).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    for (let k = 0; k < d.pairs!.length; k += 2) {
      expect(d.y[d.pairs![k]!]).toBe(1);
      expect(d.y[d.pairs![k + 1]!]).toBe(0);
    }
    expect(taskPairs(two, new Map()).length).toBe(0);
  });

  it('is fitted to a minimum of the pointwise loss plus the weighted mean pair loss', () => {
    const d: Design = designOf(runs, features, 0.7, undefined, true);
    const lambda = 0.01;
    const pw = 2;
    const fit = fitDesign(d, { lambda, pairWeight: pw });
    let tw = 0;
    for (let i = 0; i < d.n; i++) tw += d.w[i]!;
    const objective = (weights: number[], intercept: number): number => {
      const m = { mean: fit.mean, scale: fit.scale, weights };
      const zOf = (i: number) => linear(m, d.x.subarray(i * d.d, (i + 1) * d.d));
      let loss = 0;
      for (let i = 0; i < d.n; i++) {
        const p = sigmoid(intercept + zOf(i));
        loss -= d.w[i]! * (d.y[i] ? Math.log(p) : Math.log(1 - p));
      }
      let pairs = 0;
      for (let k = 0; k < d.pairs!.length; k += 2) pairs += Math.log1p(Math.exp(-(zOf(d.pairs![k]!) - zOf(d.pairs![k + 1]!))));
      const ridge = (lambda * tw * weights.reduce((s, w) => s + w * w, 0)) / 2 + (1e-9 * tw * intercept * intercept) / 2;
      return loss + ridge + pw * tw * (pairs / (d.pairs!.length / 2));
    };
    const at = objective(fit.weights, fit.intercept);
    for (let j = 0; j <= fit.weights.length; j++) {
      for (const h of [1e-3, -1e-3]) {
        const w = [...fit.weights];
        let b = fit.intercept;
        if (j < w.length) w[j]! += h;
        else b += h;
        expect(objective(w, b)).toBeGreaterThan(at);
      }
    }
  });

  it('turns the score toward what orders the runs of one task, held out', () => {
    const fresh = tasksOfFour(300, 11);
    const cfg = { ...DEFAULT_FIT, features };
    const pointwise = fitRanker(runs, cfg);
    const paired = fitRanker(runs, { ...cfg, pairWeight: 3 });
    // Pointwise, editShare's between-task pull wins (weight > 0); the pairs pull it below the pointwise weight.
    expect(pointwise.weights[0]!).toBeGreaterThan(0);
    expect(paired.weights[0]!).toBeLessThan(pointwise.weights[0]! - 0.3);
    const before = withinTaskOf(fresh, endZ(fresh, pointwise)).auroc!;
    const after = withinTaskOf(fresh, endZ(fresh, paired)).auroc!;
    expect(after).toBeGreaterThan(before + 0.1);
  });

  it('is a choice of the selection grid only when asked, each candidate with its within-task figure', () => {
    const three = tasksOfFour(60, 5, ['A', 'B', 'C']);
    const sets = { two: features };
    const plain = selectConfig(three, 3, 1, sets);
    expect(plain.candidates.every((c) => c.config.pairWeight === undefined)).toBe(true);
    const grid = selectConfig(three, 3, 1, sets, [0, 3]);
    expect(grid.candidates.map((c) => c.config.pairWeight ?? 0)).toEqual([0, 3, 0, 3, 0, 3]);
    for (const c of grid.candidates) expect(c.withinTask.pairs).toBeGreaterThan(0);
    // The weight-0 candidates are the plain grid's, score for score.
    expect(grid.candidates.filter((_, i) => i % 2 === 0).map((c) => c.bySource)).toEqual(plain.candidates.map((c) => c.bySource));
    // Chosen by the mean within source, as without pairs; within task the pairs rank better (reported beside it).
    expect(grid.chosen.mean).toBe(Math.max(...grid.candidates.map((c) => c.mean!)));
    expect(grid.candidates[1]!.withinTask.auroc!).toBeGreaterThan(grid.candidates[0]!.withinTask.auroc!);
  });
});

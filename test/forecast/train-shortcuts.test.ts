/**
 * The shortcuts that make `steplens train` fast change no number: training
 * without scope resolution yields the same samples, held-out scores equal
 * each fold model's forecaster, the chord Newton steps reach the Newton
 * optimum, and the lowForecast stop found directly is where the early-stop
 * engine stops. All on real corpus runs.
 */
import { describe, expect, it } from 'vitest';
import { createEarlyStop } from '../../src/core/early-stop/index.js';
import { leaveSourceOut, taskFolds, taskFoldsOut } from '../../src/core/forecast/crossfit.js';
import { createForecaster } from '../../src/core/forecast/forecaster.js';
import { designOf, fitRanker, rankerModel } from '../../src/core/forecast/fit.js';
import { FEATURE_NAMES } from '../../src/core/forecast/features.js';
import { fitDesign, sigmoid } from '../../src/core/forecast/logistic.js';
import { sourceOf } from '../../src/core/forecast/run.js';
import { DEFAULT_FIT } from '../../src/core/forecast/select.js';
import { forecastStop, STOP_FLOORS, STOP_MIN_STEPS } from '../../src/core/forecast/stop-eval.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { DEFAULT_POLICY, type Policy } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { trainAnalyzers, trainInput } from '../../src/cli/train-runs.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import { nameRuns } from '../../src/report/run-naming.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { labelledRuns } from './fixtures.js';

const runs = labelledRuns();

describe('steplens train shortcuts', () => {
  it('scoring without scope resolution gives the same training samples (prior samples, feature rows)', () => {
    const { found } = readCorpusInput([CORPUS_DIR], {}, '/', 'train');
    const reference = { kind: 'prior' as const, prior: UNIFORM_PRIOR };
    const full = trainInput(nameRuns(nodeReportFs, found.trajectories), reference, defaultAnalyzers(), DEFAULT_CONFIG);
    const fast = trainInput(nameRuns(nodeReportFs, found.trajectories), reference, trainAnalyzers(defaultAnalyzers()), DEFAULT_CONFIG);
    expect(full.runs.length).toBeGreaterThanOrEqual(40);
    expect(fast.prior).toEqual(full.prior);
    expect(fast.skipped).toEqual(full.skipped);
    full.runs.forEach((r, i) => {
      expect(fast.runs[i]!.rows).toEqual(r.rows);
      expect(fast.runs[i]!.costs).toEqual(r.costs);
    });
  });

  it("task-fold scores equal the forecaster of the model fitted without the run's task (with its source's intercept), at every step", () => {
    const k = 3;
    const held = taskFoldsOut(runs, DEFAULT_FIT, k, 1);
    const folds = taskFolds(
      runs.map((r) => r.task),
      k,
      1,
    );
    let checked = 0;
    for (let f = 0; f < k; f++) {
      const train = runs.filter((r) => folds.get(r.task) !== f);
      if (!train.some((r) => r.passed) || !train.some((r) => !r.passed)) continue;
      const ranker = fitRanker(train, DEFAULT_FIT);
      runs.forEach((r, i) => {
        if (folds.get(r.task) !== f) return;
        const fc = createForecaster(rankerModel(ranker, sourceOf(r)));
        expect([...held.scores[i]!].map(sigmoid)).toEqual(r.states.map((s, j) => fc.add(r.steps[j]!, s, r.labels[j]!)));
        checked += 1;
      });
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('leaving a source out scores its runs with the shared intercept of a model fitted on the other sources, and no other run', () => {
    const source = sourceOf(runs[9]!);
    const held = leaveSourceOut(runs, () => DEFAULT_FIT, [source]);
    const others = runs.filter((r) => sourceOf(r) !== source);
    const model = rankerModel(fitRanker(others, DEFAULT_FIT), undefined);
    expect(model.intercept).toBe(fitRanker(others, DEFAULT_FIT).intercept);
    runs.forEach((r, i) => {
      if (sourceOf(r) !== source) return expect(held.scores[i]).toBeNull();
      const fc = createForecaster(model);
      expect([...held.scores[i]!].map(sigmoid)).toEqual(r.states.map((s, j) => fc.add(r.steps[j]!, s, r.labels[j]!)));
    });
  });

  it('the chord steps near the optimum reach the same fit as Newton steps all the way', () => {
    const sources = [...new Set(runs.map(sourceOf))].sort();
    const design = designOf(runs, FEATURE_NAMES, 0.7, (r) => sources.indexOf(sourceOf(r)));
    const fit = fitDesign(design, { lambda: 0.01, groups: { count: sources.length, sd: 1 } });
    const newton = fitDesign(design, { lambda: 0.01, groups: { count: sources.length, sd: 1 }, maxIterations: 1 });
    expect(newton.iterations).toBe(1);
    // Restarting from the chord fit, one more full Newton step moves nothing.
    const again = fitDesign(design, { lambda: 0.01, groups: { count: sources.length, sd: 1 }, start: fit.weights, maxIterations: 50 });
    again.weights.forEach((w, j) => expect(w).toBeCloseTo(fit.weights[j]!, 6));
    fit.groupIntercepts.forEach((a, j) => expect(a).toBeCloseTo(again.groupIntercepts[j]!, 6));
  });

  it('the lowForecast stop found directly is the step where the early-stop engine stops', () => {
    const model = rankerModel(fitRanker(runs, DEFAULT_FIT), undefined);
    let stops = 0;
    for (const r of runs) {
      const fc = createForecaster(model);
      const scored = r.states.map((s, j) => fc.add(r.steps[j]!, s, r.labels[j]!));
      for (const floor of [...STOP_FLOORS, 0.5, 0.9]) {
        for (const minSteps of [...STOP_MIN_STEPS, 1, 3]) {
          const policy: Policy = {
            ...DEFAULT_POLICY,
            blindRetry: { warn: null, stop: null },
            regressionLoop: { warn: null, stop: null },
            cycle: { ...DEFAULT_POLICY.cycle, warn: null, stop: null },
            explorationStreak: { ...DEFAULT_POLICY.explorationStreak, warn: null, stop: null },
            noAction: { warn: null, stop: null },
            lowScore: { ...DEFAULT_POLICY.lowScore, severity: null },
            lowForecast: { floor, minSteps, severity: 'stop' },
          };
          const es = createEarlyStop(policy);
          const engine = r.states.findIndex((s, i) => es.add(s, 0, scored[i]).some((x) => x.kind === 'low_forecast' && x.severity === 'stop'));
          const direct = forecastStop(scored, floor, minSteps);
          expect(direct).toBe(engine < 0 ? null : engine);
          if (direct !== null) stops += 1;
        }
      }
    }
    expect(stops).toBeGreaterThan(20);
  });
});

/**
 * The shortcuts that make `steplens train` fast change no number: training
 * without scope resolution yields the same samples, prefix vectors shared
 * between folds equal fresh ones, out-of-fold pPass equals each fold model's
 * forecaster, and the lowForecast stop found directly is where the early-stop
 * engine stops. All on real corpus runs.
 */
import { describe, expect, it } from 'vitest';
import { createEarlyStop } from '../../src/core/early-stop/index.js';
import { outOfFold, predictRun, taskFolds } from '../../src/core/forecast/evaluate.js';
import { fitForecastModel, PrefixVectorCache, prefixVectors, priorWindows, type ForecastRun } from '../../src/core/forecast/fit.js';
import { forecastStop, STOP_FLOORS, STOP_MIN_STEPS } from '../../src/core/forecast/stop-eval.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { DEFAULT_POLICY, type Policy } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { DEFAULT_ALPHA } from '../../src/core/signals/temporal.js';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { trainAnalyzers, trainInput } from '../../src/cli/train-runs.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { labelledRuns } from './fixtures.js';

const runs = labelledRuns();

describe('steplens train shortcuts', () => {
  it('scoring without scope resolution gives the same training samples (states but scope, prior samples, feature vectors)', () => {
    const { found } = readCorpusInput([CORPUS_DIR], {}, '/', 'train');
    const reference = { kind: 'prior' as const, prior: UNIFORM_PRIOR };
    const full = trainInput(found.trajectories, undefined, undefined, reference, defaultAnalyzers(), DEFAULT_CONFIG);
    const fast = trainInput(found.trajectories, undefined, undefined, reference, trainAnalyzers(defaultAnalyzers()), DEFAULT_CONFIG);
    expect(full.runs.length).toBeGreaterThanOrEqual(40);
    expect(fast.prior).toEqual(full.prior);
    expect(fast.skipped).toEqual(full.skipped);
    const noScope = (r: ForecastRun) => r.states.map(({ scope: _scope, ...rest }) => rest);
    let scoped = 0;
    full.runs.forEach((r, i) => {
      const f = fast.runs[i]!;
      expect(noScope(f)).toEqual(noScope(r));
      scoped += r.states.filter((s) => s.scope !== undefined).length;
      expect(f.states.every((s) => s.scope === undefined)).toBe(true);
    });
    // The real resolver did find scopes: the comparison is not vacuous.
    expect(scoped).toBeGreaterThan(50);
    const windows = priorWindows(full.runs, DEFAULT_ALPHA);
    full.runs.forEach((r, i) => {
      expect(prefixVectors(fast.runs[i]!.states, windows, DEFAULT_ALPHA)).toEqual(prefixVectors(r.states, windows, DEFAULT_ALPHA));
    });
  });

  it('prefix vectors from the shared cache equal fresh ones for any prior windows and any subset of steps', () => {
    const cache = new PrefixVectorCache();
    const passing = priorWindows(runs, DEFAULT_ALPHA);
    const failing = priorWindows(
      runs.map((r) => ({ ...r, passed: !r.passed })),
      DEFAULT_ALPHA,
    );
    expect(failing).not.toEqual(passing);
    for (const windows of [passing, failing, passing]) {
      for (const r of runs) {
        const fresh = prefixVectors(r.states, windows, DEFAULT_ALPHA);
        expect(cache.of(r, windows, DEFAULT_ALPHA)).toEqual(fresh);
        const some = [1, 3, r.states.length].filter((t, i, a) => t <= r.states.length && a.indexOf(t) === i).sort((a, b) => a - b);
        expect(cache.of(r, windows, DEFAULT_ALPHA, some)).toEqual(some.map((t) => fresh[t - 1]));
      }
    }
    expect(fitForecastModel(runs, {}, undefined, cache)).toEqual(fitForecastModel(runs));
  });

  it("out-of-fold pPass equals the forecaster of the model fitted without the run's task, at every step", () => {
    const k = 3;
    const preds = outOfFold(runs, k, 1);
    const folds = taskFolds(
      runs.map((r) => r.task),
      k,
      1,
    );
    let checked = 0;
    for (let f = 0; f < k; f++) {
      const train = runs.filter((r) => folds.get(r.task) !== f);
      if (!train.some((r) => r.passed) || !train.some((r) => !r.passed)) continue;
      const model = fitForecastModel(train);
      runs.forEach((r, i) => {
        if (folds.get(r.task) !== f) return;
        expect(preds[i]).toEqual(predictRun(model, r));
        checked += 1;
      });
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('the lowForecast stop found directly is the step where the early-stop engine stops', () => {
    const model = fitForecastModel(runs);
    let stops = 0;
    for (const r of runs) {
      const p = predictRun(model, r);
      for (const floor of [...STOP_FLOORS, 0.5, 0.9]) {
        for (const minSteps of [...STOP_MIN_STEPS, 1, 3]) {
          const policy: Policy = {
            ...DEFAULT_POLICY,
            blindRetry: { warn: null, stop: null },
            regressionLoop: { warn: null, stop: null },
            cycle: { ...DEFAULT_POLICY.cycle, warn: null, stop: null },
            explorationStreak: { warn: null, stop: null },
            lowScore: { ...DEFAULT_POLICY.lowScore, severity: null },
            lowForecast: { floor, minSteps, severity: 'stop' },
          };
          const es = createEarlyStop(policy);
          const engine = r.states.findIndex((s, i) => es.add(s, 0, p[i]).some((x) => x.kind === 'low_forecast' && x.severity === 'stop'));
          const direct = forecastStop(p, floor, minSteps);
          expect(direct).toBe(engine < 0 ? null : engine);
          if (direct !== null) stops += 1;
        }
      }
    }
    expect(stops).toBeGreaterThan(20);
  });
});

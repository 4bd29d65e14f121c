/** The forecaster's core: the logistic fit, the model file, online == offline pPass on real runs, the stop kind. */
import { describe, expect, it } from 'vitest';
import { createEarlyStop } from '../../src/core/early-stop/index.js';
import { taskFolds } from '../../src/core/forecast/crossfit.js';
import { compileModel, createForecaster, pPassOf } from '../../src/core/forecast/forecaster.js';
import { FEATURE_COUNT, FEATURE_NAMES, PROCESS_FEATURES } from '../../src/core/forecast/features.js';
import { fitLogistic, predict, solveSpd } from '../../src/core/forecast/logistic.js';
import { FORECAST_SCHEMA, parseForecast, selectModel } from '../../src/core/forecast/model.js';
import { rowAt, sampleSteps } from '../../src/core/forecast/run.js';
import { DEFAULT_POLICY, resolvePolicy } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { buildPta } from '../../src/core/pta/index.js';
import { createScorer, scoreSteps } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { forecastFileOf, labelledRuns } from './fixtures.js';
import { rng } from './rng.js';

const runs = labelledRuns();
const file = forecastFileOf(runs);
const model = file.models[0]!;
const analyzers = defaultAnalyzers();
const prior = { kind: 'prior' as const, prior: UNIFORM_PRIOR };

describe('logistic regression', () => {
  it('solves a symmetric positive-definite system', () => {
    const a = Float64Array.from([4, 1, 0, 1, 3, 1, 0, 1, 2]);
    const x = solveSpd(a, Float64Array.from([1, 2, 3]), 3);
    const back = [0, 1, 2].map((i) => a[i * 3]! * x[0]! + a[i * 3 + 1]! * x[1]! + a[i * 3 + 2]! * x[2]!);
    back.forEach((v, i) => expect(v).toBeCloseTo([1, 2, 3][i]!, 10));
  });

  it('recovers the coefficients of data drawn from a known logistic model', () => {
    const r = rng(7);
    const xs: number[][] = [];
    const ys: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const x = [r() * 4 - 2, r() * 4 - 2, r()];
      const p = 1 / (1 + Math.exp(-(0.5 + 1.5 * x[0]! - 1 * x[1]!)));
      xs.push(x);
      ys.push(r() < p ? 1 : 0);
    }
    const fit = fitLogistic(xs, ys, undefined, { lambda: 1e-6 });
    // Back to raw units: w_j / scale_j.
    const raw = fit.weights.map((w, j) => w / fit.scale[j]!);
    expect(raw[0]).toBeCloseTo(1.5, 0);
    expect(raw[1]).toBeCloseTo(-1, 0);
    expect(Math.abs(raw[2]!)).toBeLessThan(0.3);
    expect(fit.iterations).toBeLessThan(20);
    const p = predict(fit, [1, 0, 0.5]);
    expect(p).toBeGreaterThan(0.8);
    expect(p).toBeLessThan(0.95);
  });
});

describe('online equals offline for pPass', () => {
  it('at every prefix of every labelled real run, the pushed pPass equals the batch pPass of that prefix, a fresh forecaster and the training rows', () => {
    const compiled = compileModel(model);
    let checked = 0;
    for (const run of runs) {
      const online = createScorer({ reference: prior, analyzers, forecast: model });
      // Every feature computed (what `serve --forecast-learn` asks for): the same pPass, and full trace rows.
      const full = createScorer({ reference: prior, analyzers, forecast: model, forecastFeatures: 'all' });
      const fresh = createForecaster(model);
      run.steps.forEach((step, i) => {
        const pushed = online.push(step).pPass;
        expect(full.push(step).pPass).toBe(pushed);
        const batch = scoreSteps(run.steps.slice(0, i + 1), { reference: prior, analyzers, forecast: model });
        expect(pushed).toBe(batch.results[i]!.pPass);
        expect(pushed).toBe(batch.report.pPass);
        expect(pushed).toBe(fresh.add(step, run.states[i]!, batch.results[i]!.label));
        // What train fits and evaluates on: the row of this prefix.
        expect(pushed).toBe(pPassOf(compiled, run.rows, rowAt(run, i + 1) * FEATURE_COUNT));
        checked += 1;
      });
      // The learner's trace: the rows at the sampled prefix lengths, the last one the whole run.
      const trace = full.forecastTrace!();
      expect([...trace.at]).toEqual(sampleSteps(run.length));
      trace.at.forEach((t, k) => expect([...trace.rows.subarray(k * FEATURE_COUNT, (k + 1) * FEATURE_COUNT)]).toEqual([...run.rows.subarray((t - 1) * FEATURE_COUNT, t * FEATURE_COUNT)]));
      // By default only what the model reads, and no rows kept: no trace.
      expect('forecastTrace' in online && online.forecastTrace !== undefined).toBe(false);
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('does not depend on the reference: the same pPass against a PTA as against the prior', () => {
    const run = runs[11]!;
    const pta = buildPta(run.task, [runs[9]!.states, runs[10]!.states]);
    const a = scoreSteps(run.steps, { reference: prior, analyzers, forecast: model }).results.map((r) => r.pPass);
    const b = scoreSteps(run.steps, { reference: { kind: 'pta', pta }, analyzers, forecast: model }).results.map((r) => r.pPass);
    expect(b).toEqual(a);
  });

  it('leaves pPass out without a model', () => {
    const r = scoreSteps(runs[0]!.steps, { reference: prior, analyzers });
    expect(r.results.every((x) => x.pPass === undefined)).toBe(true);
    expect(r.report.pPass).toBeUndefined();
  });

  it('applies the recalibration: pPass = σ(a + b·z)', () => {
    const shifted = { ...model, calibration: { a: -1, b: 0.5 } };
    const z = (p: number) => Math.log(p / (1 - p));
    const base = scoreSteps(runs[3]!.steps, { reference: prior, analyzers, forecast: model }).results.map((r) => r.pPass!);
    const cal = scoreSteps(runs[3]!.steps, { reference: prior, analyzers, forecast: shifted }).results.map((r) => r.pPass!);
    cal.forEach((p, i) => expect(p).toBeCloseTo(1 / (1 + Math.exp(-(-1 + 0.5 * z(base[i]!)))), 12));
  });
});

describe('the model file', () => {
  it('round-trips through JSON, names an unknown feature, and refuses another schema with one line saying to retrain', () => {
    const back = parseForecast(JSON.parse(JSON.stringify(file)));
    expect(back.ok).toBe(true);
    const stale = { ...file, models: [{ ...model, features: ['logSteps', 'logTokensPerStep'], mean: [0, 0], scale: [1, 1], weights: [0, 0] }] };
    const bad = parseForecast(stale);
    expect(!bad.ok && bad.error).toMatch(/models\.0\.features .* \(unknown: logTokensPerStep\); retrain with steplens train/);
    const old = parseForecast({ ...file, schema: 1 });
    expect(!old.ok && old.error).toBe(`invalid forecast model: schema 1 is from another steplens version (this one reads schema ${FORECAST_SCHEMA}); retrain with steplens train`);
    const uncalibrated = parseForecast({ ...file, models: [{ ...model, calibration: undefined }] });
    expect(!uncalibrated.ok && uncalibrated.error).toMatch(/calibration/);
    // A model stores the features it uses (the set train chose), in catalogue order, every process counter among them.
    expect(model.features).toEqual(FEATURE_NAMES.filter((f) => model.features.includes(f)));
    expect(model.features).toEqual(expect.arrayContaining([...PROCESS_FEATURES]));
    expect(model.features).not.toContain('logTokensPerStep');
  });

  it('picks the most specific model for a session', () => {
    const f = {
      ...file,
      models: [model, { ...model, match: { agent: 'a' }, intercept: 1 }, { ...model, match: { agent: 'a', model: 'm' }, intercept: 2 }, { ...model, match: { model: 'm' }, intercept: 3 }],
    };
    expect(selectModel(f, 'a', 'm')?.intercept).toBe(2);
    expect(selectModel(f, 'a', 'x')?.intercept).toBe(1);
    expect(selectModel(f, 'b', 'm')?.intercept).toBe(3);
    expect(selectModel(f, undefined, undefined)).toBe(model);
    expect(selectModel({ ...f, models: [f.models[1]!] }, 'b', undefined)).toBeUndefined();
  });
});

describe('task-disjoint folds', () => {
  it('put every task in exactly one fold, folds balanced to one task', () => {
    const tasks = runs.map((r) => r.task);
    const folds = taskFolds(tasks, 3, 1);
    expect(new Set(folds.keys())).toEqual(new Set(tasks));
    const sizes = [0, 1, 2].map((f) => [...folds.values()].filter((x) => x === f).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });
});

describe('the low-forecast stop', () => {
  it('fires once when pPass drops below the floor after minSteps, and re-arms when it climbs back', () => {
    const policy = resolvePolicy({ lowForecast: { floor: 0.3, minSteps: 2, severity: 'stop' } });
    if (!policy.ok) throw new Error(policy.error);
    const es = createEarlyStop(policy.value);
    const states = runs[0]!.states;
    const fired = [0.9, 0.2, 0.1, 0.05, 0.5, 0.2].map((p, i) =>
      es
        .add(states[i]!, 50, p)
        .filter((s) => s.kind === 'low_forecast')
        .map((s) => s.severity),
    );
    expect(fired).toEqual([[], ['stop'], [], [], [], ['stop']]);
    // Off by default, and silent without a forecast.
    expect(DEFAULT_POLICY.lowForecast.severity).toBeNull();
    const quiet = createEarlyStop(policy.value);
    expect(states.slice(0, 5).flatMap((s) => quiet.add(s, 50))).toEqual([]);
  });
});

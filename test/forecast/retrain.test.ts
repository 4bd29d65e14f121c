/**
 * `serve --forecast-learn`'s retraining per agent + model: a source's
 * candidate goes in force only for that source, and only if its held-out
 * within-source figures are not worse than the model in force for it.
 */
import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT } from '../../src/core/forecast/features.js';
import { compileModel, scoreOf } from '../../src/core/forecast/forecaster.js';
import { applyPlatt } from '../../src/core/forecast/platt.js';
import { parseForecast, selectModel, type ForecastFile } from '../../src/core/forecast/model.js';
import { retrainForecast } from '../../src/core/forecast/retrain.js';
import { sampleSteps, sourceOf, type ForecastRun } from '../../src/core/forecast/run.js';
import { forecastFileOf, labelledRuns } from './fixtures.js';

const runs = labelledRuns();
const file = forecastFileOf(runs);
const model = file.models[0]!;
const now = '2026-12-01T01:00:00.000Z';
/** A model in force that says 2 % for every run. */
const blind: ForecastFile = { ...file, models: [{ ...model, weights: model.weights.map(() => 0), intercept: -4 }] };

/** What the server's learner keeps of a session: the rows at the sampled prefix lengths only. */
const asSession = (r: ForecastRun): ForecastRun => {
  const at = Int32Array.from(sampleSteps(r.length));
  const rows = new Float64Array(at.length * FEATURE_COUNT);
  at.forEach((t, k) => rows.set(r.rows.subarray((t - 1) * FEATURE_COUNT, t * FEATURE_COUNT), k * FEATURE_COUNT));
  return { id: r.id, task: r.task, agent: r.agent, model: r.model, passed: r.passed, length: r.length, at, rows };
};
const sessions = runs.map(asSession);
const options = { now, minRuns: 4, minClass: 2, folds: 2 };

describe('retraining per source', () => {
  it('skips every source with too few sessions, and says so per source', () => {
    const r = retrainForecast(sessions.slice(0, 3), file, { now });
    expect(r.kind).toBe('skipped');
    expect(r.sources.every((s) => s.result === 'skipped')).toBe(true);
    expect(r.reason).toMatch(/need 20, with 5 of each outcome/);
  });

  it('puts a candidate in force for a source only, when the model in force for it is worse held out', () => {
    const r = retrainForecast(sessions, blind, options);
    expect(r.kind).toBe('accepted');
    if (r.kind !== 'accepted') return;
    const accepted = r.sources.filter((s) => s.result === 'accepted');
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const s of accepted) {
      expect(s.heldOut!.logLoss).toBeLessThanOrEqual(s.inForce!.logLoss);
      // The source gets its own model; the default stays the blind one.
      const own = selectModel(r.candidate, s.agent, s.model)!;
      expect(own.match).toEqual({ agent: s.agent, model: s.model });
      expect(own.weights).not.toEqual(blind.models[0]!.weights);
    }
    expect(selectModel(r.candidate, 'another agent', undefined)).toEqual(blind.models[0]);
    expect(r.candidate.createdAt).toBe(now);
    expect(parseForecast(JSON.parse(JSON.stringify(r.candidate))).ok).toBe(true);
    // Sources without enough sessions are named as skipped.
    expect(r.sources.some((s) => s.result === 'skipped')).toBe(true);
  });

  it('keeps the list of runs train fitted the file on (the sessions it learns from are not listed)', () => {
    const trainedRuns = { fingerprint: 'steps-sha256-16', runs: ['0123456789abcdef', 'fedcba9876543210'] };
    const r = retrainForecast(sessions, { ...blind, trainedRuns }, options);
    expect(r.kind).toBe('accepted');
    if (r.kind !== 'accepted') return;
    expect(r.candidate.trainedRuns).toEqual(trainedRuns);
    expect(parseForecast(JSON.parse(JSON.stringify(r.candidate))).ok).toBe(true);
  });

  it("does not try a source's own model again when the one in force was fitted here on these very sessions", () => {
    const first = retrainForecast(sessions, blind, options);
    if (first.kind !== 'accepted') throw new Error('expected a first acceptance');
    const own = first.sources.filter((s) => s.result === 'accepted');
    expect(own.length).toBeGreaterThanOrEqual(1);
    const again = retrainForecast(sessions, first.candidate, options);
    for (const s of own) {
      const now = again.sources.find((x) => x.agent === s.agent && x.model === s.model)!;
      // Refitted on the same sessions by the same procedure it would be the same model: skipped, with the reason.
      expect(now.result).toBe('skipped');
      expect(now.reason).toMatch(/its own model in force was fitted here on these \d+ sessions .*: no new session/);
      expect(selectModel(first.candidate, s.agent, s.model)!.learnedOwn).toEqual({ lambda: 0.01, kappa: 10 });
    }
    // An own model learned before it was marked (no learnedOwn) still loads, and is checked as before (its weights kept).
    const old = { ...first.candidate, models: first.candidate.models.map(({ learnedOwn: _dropped, ...m }) => m) };
    expect(parseForecast(JSON.parse(JSON.stringify(old))).ok).toBe(true);
    expect(retrainForecast(sessions, old, options).sources.find((x) => x.agent === own[0]!.agent && x.model === own[0]!.model)!.result).not.toBe('skipped');
    // Other sources are tried as before: one is still rejected against the blind model.
    expect(again.sources.some((s) => s.result === 'rejected')).toBe(true);
    const src = sessions.filter((x) => x.agent === own[0]!.agent && x.model === own[0]!.model);
    expect(new Set(src.map(sourceOf)).size).toBe(1);
  });

  it('checks an own model fitted here out of fold: per fold refitted by its procedure, so on new sessions it ties with the candidate', () => {
    const fresh = sessions.map((r) => ({ ...r, agent: 'fresh-agent', model: 'fresh-model' }));
    // Fitted on the first 10 sessions (its weights have seen them), then 4 more sessions come in.
    const first = retrainForecast(fresh.slice(0, 10), blind, options);
    if (first.kind !== 'accepted') throw new Error('expected a first acceptance');
    expect(first.sources[0]!.result).toBe('accepted');
    const again = retrainForecast(fresh, first.candidate, options);
    const s = again.sources[0]!;
    // Both sides held out: the in-force side is the same procedure refitted on each fold's training sessions.
    expect(s.inForce).toEqual(s.heldOut);
    expect(s.result).toBe('accepted');
    if (again.kind !== 'accepted') return;
    const own = selectModel(again.candidate, 'fresh-agent', 'fresh-model')!;
    expect(own.trainedOn.runs).toBe(fresh.length);
    expect(parseForecast(JSON.parse(JSON.stringify(again.candidate))).ok).toBe(true);
  });
});

describe('the model in force, checked on the outcomes it learned from', () => {
  it('scores a map learned here out of fold: its log loss is not the in-sample one (a better candidate lost to it)', () => {
    const fresh = sessions.map((r) => ({ ...r, agent: 'fresh-agent', model: 'fresh-model' }));
    // First too few for a model of its own: the blind model's map is refitted on every outcome of the source.
    const first = retrainForecast(fresh, blind, { now, minRuns: 1000 });
    if (first.kind !== 'accepted') throw new Error('expected a recalibration');
    const inForce = selectModel(first.candidate, 'fresh-agent', 'fresh-model')!;
    expect(inForce.recalibrated?.outcomes).toBe(fresh.length);
    const again = retrainForecast(fresh, first.candidate, options);
    const s = again.sources.find((x) => x.agent === 'fresh-agent')!;
    expect(s.inForce).toBeDefined();
    const c = compileModel(inForce);
    let inSample = 0;
    for (const r of fresh) {
      const p = Math.min(1 - 1e-9, Math.max(1e-9, applyPlatt(inForce.calibration, scoreOf(c, r.rows, (r.at.length - 1) * FEATURE_COUNT))));
      inSample -= (r.passed ? Math.log(p) : Math.log(1 - p)) / fresh.length;
    }
    expect(s.inForce!.sessions).toBe(fresh.length);
    // Held out, a map fitted on these outcomes does worse than on the outcomes it was fitted on.
    expect(s.inForce!.logLoss).toBeGreaterThan(inSample + 1e-6);
  });
});

describe('recalibration per source from reported outcomes', () => {
  // One source the model in force never saw, with too few sessions for a model of its own (14 < 20).
  const fresh = sessions.map((r) => ({ ...r, agent: 'fresh-agent', model: 'fresh-model' }));
  const endP = (f: ForecastFile, r: ForecastRun) => {
    const m = selectModel(f, r.agent, r.model)!;
    const c = compileModel(m);
    return applyPlatt(m.calibration, scoreOf(c, r.rows, (r.at.length - 1) * FEATURE_COUNT));
  };
  const meanP = (f: ForecastFile) => fresh.reduce((a, r) => a + endP(f, r), 0) / fresh.length;
  const rate = fresh.filter((r) => r.passed).length / fresh.length;

  it("refits that source's pPass map toward its pass rate, keeps its order and every other model", () => {
    const r = retrainForecast(fresh, blind, { now });
    expect(r.kind).toBe('accepted');
    if (r.kind !== 'accepted') return;
    expect(r.sources).toHaveLength(1);
    expect(r.sources[0]!.result).toBe('recalibrated');
    expect(r.sources[0]!.reason).toMatch(/need 20.*recalibrated on 14 outcomes/);
    const own = selectModel(r.candidate, 'fresh-agent', 'fresh-model')!;
    expect(own.match).toEqual({ agent: 'fresh-agent', model: 'fresh-model' });
    expect(own.weights).toEqual(blind.models[0]!.weights);
    expect(own.recalibrated).toEqual({ from: blind.models[0]!.calibration, outcomes: 14, passing: fresh.filter((x) => x.passed).length });
    // The blind model says about 2 %; recalibrated, the mean pPass moves most of the way to the pass rate.
    expect(meanP(blind)).toBeLessThan(0.05);
    expect(Math.abs(meanP(r.candidate) - rate)).toBeLessThan(Math.abs(meanP(blind) - rate) / 2);
    expect(selectModel(r.candidate, 'another agent', undefined)).toEqual(blind.models[0]);
    expect(parseForecast(JSON.parse(JSON.stringify(r.candidate))).ok).toBe(true);
  });

  it('counts each outcome once: recalibrating again on the same sessions changes nothing', () => {
    const first = retrainForecast(fresh, blind, { now });
    if (first.kind !== 'accepted') throw new Error('expected a recalibration');
    const again = retrainForecast(fresh, first.candidate, { now });
    expect(again.kind).toBe('skipped');
  });

  it('waits for a few outcomes, and never recalibrates the default model on sessions that name no source', () => {
    expect(retrainForecast(fresh.slice(0, 4), blind, { now }).kind).toBe('skipped');
    expect(
      retrainForecast(
        fresh.map((r) => ({ ...r, agent: '', model: '' })),
        blind,
        { now },
      ).kind,
    ).toBe('skipped');
  });
});

describe('recalibration of a source train saw', () => {
  const fresh = sessions.map((r) => ({ ...r, agent: 'fresh-agent', model: 'fresh-model' }));
  const endP = (f: ForecastFile, r: ForecastRun) => {
    const m = selectModel(f, r.agent, r.model)!;
    return applyPlatt(m.calibration, scoreOf(compileModel(m), r.rows, (r.at.length - 1) * FEATURE_COUNT));
  };
  const meanP = (f: ForecastFile) => fresh.reduce((a, r) => a + endP(f, r), 0) / fresh.length;

  it('weighs the map train fitted on the source own runs as those runs: 14 new outcomes move it less the more runs it had', () => {
    const seen = (runs: number): ForecastFile => ({
      ...blind,
      models: [...blind.models, { ...blind.models[0]!, match: { agent: 'fresh-agent', model: 'fresh-model' }, trainedOn: { runs, passing: 1, tasks: runs } }],
    });
    const moved = (runs: number) => {
      const r = retrainForecast(fresh, seen(runs), { now });
      return r.kind === 'accepted' ? meanP(r.candidate) - meanP(seen(runs)) : 0;
    };
    const unseen = retrainForecast(fresh, blind, { now });
    if (unseen.kind !== 'accepted') throw new Error('expected a recalibration');
    const byUnseen = meanP(unseen.candidate) - meanP(blind);
    expect(moved(20)).toBeGreaterThan(0);
    expect(moved(20)).toBeLessThan(byUnseen);
    expect(moved(2000)).toBeLessThan(moved(20));
    const r = retrainForecast(fresh, seen(20), { now });
    if (r.kind === 'accepted') expect(selectModel(r.candidate, 'fresh-agent', 'fresh-model')!.recalibrated!.priorRuns).toBe(20);
  });
});

/**
 * `serve --forecast-learn` fits an attempt over many kept sessions in a worker thread (retrain-off-loop.ts): one
 * tenant's 5,000 sessions of one source held every socket's event loop 1.2 s per attempt on the main thread, and
 * 499 sessions of 1,001 steps (under the old bound of 500 sessions) 1.7 s (T103): the bound counts rows. The
 * worker's result is the main thread's, bit for bit; the loop turns while it fits; a fit that fails rejects.
 */
import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT } from '../../src/core/forecast/features.js';
import type { ForecastFile } from '../../src/core/forecast/model.js';
import { retrainForecast } from '../../src/core/forecast/retrain.js';
import { sampleSteps, type ForecastRun } from '../../src/core/forecast/run.js';
import { ForecastHolder } from '../../src/server/forecast-holder.js';
import { OFF_LOOP_FROM_ROWS, retrainOffLoop, rowsOf } from '../../src/server/retrain-off-loop.js';
import { forecastFileOf, labelledRuns } from '../forecast/fixtures.js';

const runs = labelledRuns();
const file = forecastFileOf(runs);
const model = file.models[0]!;
/** A model in force that says 2 % for every run: the learner's candidates beat it. */
const blind: ForecastFile = { ...file, models: [{ ...model, weights: model.weights.map(() => 0), intercept: -4 }] };
/** What the learner keeps of a session: the rows at the sampled prefix lengths. */
const sessions = runs.map((r): ForecastRun => {
  const at = Int32Array.from(sampleSteps(r.length));
  const rows = new Float64Array(at.length * FEATURE_COUNT);
  at.forEach((t, k) => rows.set(r.rows.subarray((t - 1) * FEATURE_COUNT, t * FEATURE_COUNT), k * FEATURE_COUNT));
  return { id: r.id, task: r.task, agent: r.agent, model: r.model, passed: r.passed, length: r.length, at, rows };
});
const options = { now: '2026-12-04T19:00:00.000Z', minRuns: 4, minClass: 2, folds: 2 };

/** `fit()`'s result and how many 1 ms timer turns the event loop made while it ran. */
async function turnsDuring<T>(fit: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  const timer = setInterval(() => (turns += 1), 1);
  try {
    const value = await fit();
    return { value, turns };
  } finally {
    clearInterval(timer);
  }
}

describe('retraining off the event loop', () => {
  it("fits in a worker from the threshold on, with the main thread's result, the loop turning meanwhile", async () => {
    const inline = retrainForecast(sessions, blind, options);
    expect(inline.kind).toBe('accepted');
    const worker = await turnsDuring(() => retrainOffLoop(sessions, blind, options, 0));
    expect(worker.value).toEqual(inline);
    expect(worker.turns).toBeGreaterThan(0);
    // Below the threshold: on the main thread, the loop held until it is done.
    const below = await turnsDuring(() => retrainOffLoop(sessions, blind, options, rowsOf(sessions) + 1));
    expect(below.value).toEqual(inline);
    expect(below.turns).toBe(0);
  }, 60_000);

  it('fits fewer than 500 sessions in a worker when they are long: the bound is on the rows a fit reads (T103)', async () => {
    // Each session as if it ran 1,001 steps: 25 sampled rows (its own rows repeated), 40 of them far under 500 sessions.
    const long = Array.from({ length: 40 }, (_, i): ForecastRun => {
      const r = sessions[i % sessions.length]!;
      const at = Int32Array.from(sampleSteps(1001));
      const rows = new Float64Array(at.length * FEATURE_COUNT);
      for (let k = 0; k < at.length; k++) rows.set(r.rows.subarray(Math.min(k, r.at.length - 1) * FEATURE_COUNT, (Math.min(k, r.at.length - 1) + 1) * FEATURE_COUNT), k * FEATURE_COUNT);
      return { ...r, id: `${r.id}-${i}`, length: 1001, at, rows };
    });
    expect(rowsOf(long)).toBe(40 * 25);
    expect(rowsOf(long)).toBeGreaterThanOrEqual(OFF_LOOP_FROM_ROWS);
    // The default bound: in a worker, so the loop turns while it fits (on the main thread it made none).
    const worker = await turnsDuring(() => retrainOffLoop(long, blind, options));
    expect(worker.value).toEqual(retrainForecast(long, blind, options));
    expect(worker.turns).toBeGreaterThan(0);
  }, 60_000);

  it('fits a few hundred rows of real sessions in a worker too: under 512 rows they held the loop 4-43 ms (T107)', async () => {
    // The 14 real corpus sessions, as kept: under the old bound of 512 rows, so they were fitted on the main thread.
    expect(rowsOf(sessions)).toBeGreaterThanOrEqual(100);
    expect(rowsOf(sessions)).toBeLessThan(512);
    const worker = await turnsDuring(() => retrainOffLoop(sessions, blind, options));
    expect(worker.value).toEqual(retrainForecast(sessions, blind, options));
    expect(worker.value.kind).toBe('accepted');
    expect(worker.turns).toBeGreaterThan(0);
  }, 60_000);

  it('keeps the models it did not retrain as the very objects in force (the learner and holder tell learned from inherited by identity)', async () => {
    // The sessions' source retrains the default model; a model of another agent is left as it is.
    const other = { ...model, match: { agent: 'other-agent' } };
    const shared: ForecastFile = { ...blind, models: [...blind.models, other] };
    const inline = retrainForecast(sessions, shared, options);
    const worker = await retrainOffLoop(sessions, shared, options, 0);
    expect(inline.kind).toBe('accepted');
    expect(worker.kind).toBe('accepted');
    if (inline.kind !== 'accepted' || worker.kind !== 'accepted') return;
    expect(worker).toEqual(inline);
    const untouched = inline.candidate.models.filter((m) => shared.models.includes(m)).length;
    expect(untouched).toBeGreaterThan(0);
    expect(worker.candidate.models.filter((m) => shared.models.includes(m)).length).toBe(untouched);
    // What a tenant's attempt puts in force: its own models are the retrained ones only, not copies of the shared ones.
    const holder = new ForecastHolder(shared);
    holder.swap(worker.candidate, { source: 'learned', sessions: sessions.length }, 'team-a');
    expect(holder.versionFile('team-a', 'tenant').learnedFrom?.ownModels).toBe(inline.candidate.models.length - untouched);
  }, 60_000);

  it("rejects with the fit's own error when it fails in the worker", async () => {
    const broken = null as unknown as ForecastFile;
    expect(() => retrainForecast(sessions, broken, options)).toThrow(/models/);
    await expect(retrainOffLoop(sessions, broken, options, 0)).rejects.toThrow(/models/);
  }, 60_000);
});

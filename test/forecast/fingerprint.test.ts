/**
 * The fingerprints `train` lists in the forecast file (`trainedRuns`) and `report` checks its runs against: a hash
 * of the parsed steps, so the same run gives the same fingerprint whatever names or key order it comes with, and
 * forecast files without the list (or with a bad one) load or are refused as before.
 */
import { describe, expect, it } from 'vitest';
import { RUN_FINGERPRINT, runFingerprint, trainedRunsOf } from '../../src/core/forecast/fingerprint.js';
import { FORECAST_FORMAT, FORECAST_SCHEMA, parseForecast, type ForecastModel } from '../../src/core/forecast/model.js';
import type { Step } from '../../src/core/types.js';

const steps: Step[] = [
  { t: 0, tool: 'bash', args: { command: 'ls', timeout: 30 }, action: { kind: 'shell', command: 'ls' }, observation: 'a.py\n', exitCode: 0 },
  { t: 1, tool: 'str_replace_editor', action: { kind: 'edit', op: 'str_replace', path: 'a.py', old: 'x', new: 'y' }, observation: 'edited' },
];

const model: ForecastModel = {
  match: {},
  features: ['logSteps'],
  mean: [0],
  scale: [1],
  weights: [0.5],
  intercept: 0,
  calibration: { a: 0, b: 1 },
  trainedOn: { runs: 2, passing: 1, tasks: 1 },
};
const file = (extra: object = {}) => ({ format: FORECAST_FORMAT, schema: FORECAST_SCHEMA, version: 1, createdAt: '2026-12-04T00:00:00.000Z', models: [model], ...extra });

describe('run fingerprints', () => {
  it('are 16 hex digits of the steps alone: the same for the same steps in any key order, another for other steps', () => {
    const fp = runFingerprint(steps);
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
    const reordered: Step[] = steps.map((s) => Object.fromEntries(Object.entries(s).reverse()) as unknown as Step);
    reordered[0]!.args = { timeout: 30, command: 'ls' };
    expect(runFingerprint(reordered)).toBe(fp);
    expect(runFingerprint(JSON.parse(JSON.stringify(steps)) as Step[])).toBe(fp);
    // An absent member and one set to undefined are the same step (as JSON writes them).
    expect(runFingerprint([{ ...steps[0]!, thought: undefined }, steps[1]!])).toBe(fp);
    expect(runFingerprint([steps[0]!, { ...steps[1]!, observation: 'edited!' }])).not.toBe(fp);
    expect(runFingerprint(steps.slice(0, 1))).not.toBe(fp);
    // Step boundaries count: the same text split differently is another run.
    expect(runFingerprint([])).not.toBe(runFingerprint([{ t: 0, tool: '', action: { kind: 'none' } }]));
  });

  it("tell apart steps whose args differ only in a member named after Object's prototype (T52)", () => {
    const fp = runFingerprint(steps);
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString']) {
      // As a log's JSON.parse gives it: an own member of that name.
      const args = JSON.parse(`{"command":"ls","timeout":30,${JSON.stringify(name)}:{"other":"run"}}`) as Record<string, unknown>;
      expect(Object.hasOwn(args, name)).toBe(true);
      const other = runFingerprint([{ ...steps[0]!, args }, steps[1]!]);
      expect(other, name).not.toBe(fp);
      // Still the same for the same steps in any key order.
      const reordered = JSON.parse(`{${JSON.stringify(name)}:{"other":"run"},"timeout":30,"command":"ls"}`) as Record<string, unknown>;
      expect(runFingerprint([{ ...steps[0]!, args: reordered }, steps[1]!]), name).toBe(other);
    }
  });

  it('are listed sorted and each once, under the name of the method', () => {
    const listed = trainedRunsOf([steps, steps.slice(0, 1), steps]);
    expect(listed.fingerprint).toBe(RUN_FINGERPRINT);
    expect(listed.runs).toEqual([runFingerprint(steps), runFingerprint(steps.slice(0, 1))].sort());
  });
});

describe('a forecast file with trainedRuns', () => {
  it('loads with it and without it (files written before train listed its runs)', () => {
    expect(parseForecast(file()).ok).toBe(true);
    const listed = parseForecast(file({ trainedRuns: trainedRunsOf([steps]) }));
    expect(listed.ok && listed.value.trainedRuns).toEqual({ fingerprint: RUN_FINGERPRINT, runs: [runFingerprint(steps)] });
  });

  it('is refused, naming the field, when the list is not one of fingerprints', () => {
    for (const bad of [{ fingerprint: RUN_FINGERPRINT, runs: ['not hex!'] }, { fingerprint: RUN_FINGERPRINT }, { fingerprint: '', runs: [] }, { fingerprint: RUN_FINGERPRINT, runs: [], extra: 1 }]) {
      const r = parseForecast(file({ trainedRuns: bad }));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/trainedRuns/);
    }
  });
});

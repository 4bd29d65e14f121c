/**
 * The end of a session with fewer spreads (bench/README.md, "life18"): a scorer's reference info is one frozen object
 * per PTA version (shared by the sessions of its task) and the report is built key by key. The report's bytes, and
 * the final's made from it, are those the spread-built report gave: compared here with the old construction, written
 * out in the test, on real runs with and without a PTA, a forecaster and an outcome; the final's keys in the
 * protocol's order. (The final itself is still built by spreads: a key-by-key copy of the report read slower in a
 * hot loop, and not faster in a session's end.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForecast } from '../../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { addReference, buildPta } from '../../src/core/pta/index.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Reference, TrajectoryReport } from '../../src/core/scorer-api.js';
import type { State, Step } from '../../src/core/types.js';
import { finalMessage, type FinalExtras } from '../../src/server/final-message.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

function statesOf(steps: readonly Step[]): State[] {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
  for (const s of steps) scorer.push(s);
  return [...scorer.states()];
}

/** The report as `reportOf` built it before: the same values, by spreads. */
function spreadReport(r: TrajectoryReport): TrajectoryReport {
  const { lucky, pPass } = r;
  return {
    score: r.score,
    tier: r.tier,
    ...(lucky !== undefined ? { lucky } : {}),
    waste: r.waste,
    signals: r.signals,
    steps: r.steps,
    stages: r.stages,
    reference: { ...r.reference },
    unknown: r.unknown,
    ...(pPass !== undefined ? { pPass } : {}),
  };
}

/** What a final of `report` with extras `x` holds: the report, then the extras given (an undefined one is absent). */
function finalOf(report: TrajectoryReport, x: FinalExtras): Record<string, unknown> {
  const given = Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined));
  return { ...report, ...given };
}

/** The protocol's key order: type and session, the report's keys, the extras given, then why it ended. */
function finalKeys(report: TrajectoryReport, x: FinalExtras): string[] {
  const extras = (['passed', 'learned', 'forecastVersion', 'patch'] as const).filter((k) => x[k] !== undefined);
  // A key the report already has (the HTTP path's forecastVersion) keeps the report's place.
  return [...new Set(['type', 'session', ...Object.keys(report), ...extras, 'reason'])];
}

/** The final of `finalMessage`, checked against its contents and the protocol's key order (not a copy of its code). */
function expectFinal(session: string, report: TrajectoryReport, x: FinalExtras, why: 'end' | 'idle'): void {
  const final = finalMessage(session, report, x, why);
  expect(Object.keys(final)).toEqual(finalKeys(report, x));
  expect(JSON.parse(JSON.stringify(final))).toEqual(JSON.parse(JSON.stringify({ type: 'final', session, ...finalOf(report, x), reason: why })));
}

describe("a scorer's reference info", () => {
  const runs = corpusRuns().slice(0, 3);
  const pta = buildPta('life18', [statesOf(runs[0]!.steps), statesOf(runs[1]!.steps)]);

  it('is one frozen object for the scorers of one PTA version, and a new one for a grown version', () => {
    const a = createScorer({ reference: { kind: 'pta', pta }, analyzers });
    const b = createScorer({ reference: { kind: 'pta', pta }, analyzers });
    expect(a.reference).toBe(b.reference);
    expect(Object.isFrozen(a.reference)).toBe(true);
    expect(a.reference).toEqual({ kind: 'pta', version: 1, paths: 2 });
    const grown = addReference(pta, statesOf(runs[2]!.steps));
    const c = createScorer({ reference: { kind: 'pta', pta: grown }, analyzers });
    expect(c.reference).toEqual({ kind: 'pta', version: 2, paths: 3 });
    expect(createScorer({ reference: { kind: 'pta', pta }, analyzers }).reference).toBe(a.reference);
    const prior = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    expect(prior.reference).toEqual({ kind: 'prior' });
    expect(Object.isFrozen(prior.reference)).toBe(true);
  });

  it("is copied into each report, not shared with it: a report's reference can be changed without touching the next session's", () => {
    const a = createScorer({ reference: { kind: 'pta', pta }, analyzers });
    for (const s of runs[2]!.steps.slice(0, 5)) a.push(s);
    const report = a.report();
    expect(report.reference).not.toBe(a.reference);
    expect(Object.isFrozen(report.reference)).toBe(false);
    report.reference.version = 99;
    expect(createScorer({ reference: { kind: 'pta', pta }, analyzers }).reference).toEqual({ kind: 'pta', version: 1, paths: 2 });
  });
});

describe('the report, key by key, and the final made from it', () => {
  it('give the bytes the spread-built objects gave, with and without a PTA, a forecaster, an outcome and each extra', () => {
    const file = parseForecast(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../data/forecast.json'), 'utf8')));
    if (!file.ok) throw new Error(file.error);
    const runs = corpusRuns();
    const pta = buildPta('life18', [statesOf(runs[0]!.steps), statesOf(runs[1]!.steps)]);
    const references: Reference[] = [
      { kind: 'prior', prior: UNIFORM_PRIOR },
      { kind: 'pta', pta },
    ];
    const extras: FinalExtras[] = [
      { passed: undefined, learned: undefined, forecastVersion: undefined, patch: undefined },
      { passed: true, learned: { version: 3 }, forecastVersion: 2, patch: { key: 'ab12', lines: 3 } },
      { passed: false, learned: undefined, forecastVersion: 1, patch: undefined },
    ];
    const seen = new Set<string>();
    let compared = 0;
    for (const [i, run] of runs.slice(0, 24).entries()) {
      const reference = references[i % 2]!;
      const forecast = i % 3 === 0 ? { forecast: file.value.models[0]! } : {};
      const scorer = createScorer({ reference, analyzers, ...forecast });
      for (const s of run.steps) scorer.push(s);
      for (const passed of [undefined, true, false]) {
        const report = scorer.report(passed);
        seen.add(Object.keys(report).join(','));
        expect(JSON.stringify(report), run.name).toBe(JSON.stringify(spreadReport(report)));
        for (const [k, x] of extras.entries()) {
          const why = k === 2 ? 'idle' : 'end';
          expectFinal('s-1', report, x, why);
          compared++;
        }
      }
    }
    // A report of the server's HTTP path carries keys past the scorer's (forecastVersion, pPassInSample): kept in their place.
    const base = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers }).report();
    const wider: TrajectoryReport = { ...base, pPass: 0.5, forecastVersion: 4, pPassInSample: true };
    for (const x of extras) expectFinal('s-2', wider, x, 'end');
    expect(compared).toBeGreaterThan(150);
    // Both shapes of report were met: with and without pPass.
    expect([...seen].some((k) => k.endsWith(',pPass'))).toBe(true);
    expect([...seen].some((k) => k.endsWith(',unknown'))).toBe(true);
  });
});

/**
 * `reportInSteps` (the report a server builds a slice a turn, docs/reliability.md T30): the report of the steps pushed
 * when it was asked for, whatever is pushed before its first slice or between its slices, equal to the report of a
 * scorer given only those steps; it yields every few hundred states its waste analysis and states' rebuild visit.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForecast } from '../../src/core/forecast/model.js';
import { STATES_PER_STEP } from '../../src/core/in-steps.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

describe("a scorer's report in steps", () => {
  it('is the report of the steps pushed when asked, with steps pushed before and between its slices, passed or not, with a forecaster or not', () => {
    const file = parseForecast(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../data/forecast.json'), 'utf8')));
    if (!file.ok) throw new Error(file.error);
    const analyzers = defaultAnalyzers();
    // Every corpus run one after another (~2,000 real steps), numbered as a session numbers them.
    const steps: Step[] = corpusRuns().flatMap((r) => r.steps.map((s) => ({ ...s })));
    steps.forEach((s, t) => (s.t = t));
    const n = steps.length - 100;
    for (const [i, passed] of [undefined, true, false].entries()) {
      const forecast = i % 2 === 0 ? { forecast: file.value.models[0]! } : {};
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers, ...forecast });
      const alone = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers, ...forecast });
      steps.slice(0, n).forEach((s) => (scorer.push({ ...s }), alone.push({ ...s })));
      const inSteps = scorer.reportInSteps(passed);
      let next = n;
      // One step before its first slice, then one between each two.
      scorer.push({ ...steps[next++]! });
      let slices = 0;
      for (let r = inSteps.next(); ; r = inSteps.next()) {
        if (r.done === true) {
          expect(JSON.stringify(r.value), `passed ${passed}`).toBe(JSON.stringify(alone.report(passed)));
          expect(r.value.steps).toBe(n);
          break;
        }
        slices++;
        if (next < steps.length) scorer.push({ ...steps[next++]! });
      }
      // The states' rebuild, their index by step, then the redundant-step and irrelevant-exploration detectors, each
      // over every state, a slice of STATES_PER_STEP states at a time (the blind-retry, regression-loop and cycle
      // detectors read what the stop counters found: core/waste/history.ts).
      expect(slices).toBeGreaterThanOrEqual(4 * Math.floor(n / STATES_PER_STEP));
      expect(scorer.length).toBeGreaterThan(n + 5);
    }
  });
});

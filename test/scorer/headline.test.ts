/**
 * `headline` (what `GET /v1/sessions/:id` and `POST /v1/rank` of live sessions read) is the report's score, tier
 * and pPass, without the report's waste analysis: the same values at every prefix of real runs, with and without
 * a forecaster, outcome unknown, passed or failed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForecast } from '../../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

describe("a scorer's headline", () => {
  it("equals the report's score, tier and pPass at every tenth step of every corpus run", () => {
    const file = parseForecast(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../data/forecast.json'), 'utf8')));
    if (!file.ok) throw new Error(file.error);
    const analyzers = defaultAnalyzers();
    let compared = 0;
    for (const [i, run] of corpusRuns().entries()) {
      const forecast = i % 2 === 0 ? { forecast: file.value.models[0]! } : {};
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers, ...forecast });
      run.steps.forEach((step, t) => {
        scorer.push(step);
        if (t % 10 !== 9 && t !== run.steps.length - 1) return;
        for (const passed of [undefined, true, false]) {
          const { score, tier, pPass } = scorer.report(passed);
          expect(scorer.headline(passed), `${run.name} step ${t} passed ${passed}`).toEqual({ score, tier, ...(pPass !== undefined ? { pPass } : {}) });
          compared++;
        }
      });
    }
    expect(compared).toBeGreaterThan(300);
  });
});

/**
 * `steplens score`, `report`, `calibrate`, `rank` and `POST /v1/score` score runs against the prior without scope
 * resolution (src/core/scope-free.ts): no file a run views is parsed to find the enclosing function, since nothing
 * a reference-free report holds reads it. On every fixture run the report is the same as with the real resolver:
 * as a passing run (the Lucky classes), with the bundled forecaster, and the state stream's other fields; only
 * `scope` differs. A signal or detector that starts reading the scope makes this fail, and the shortcut must then go.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withoutScope } from '../../src/core/scope-free.js';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { parseForecast } from '../../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Analyzers } from '../../src/core/ports.js';
import { bundledForecastFile } from '../../src/package-files.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const { found } = readCorpusInput([CORPUS_DIR], {}, '/', 'score');
const forecast = parseForecast(JSON.parse(readFileSync(bundledForecastFile(), 'utf8')));
if (!forecast.ok) throw new Error(forecast.error);
const model = forecast.value.models[0]!;
const reference = { kind: 'prior' as const, prior: UNIFORM_PRIOR };

function scored(steps: Array<Parameters<ReturnType<typeof createScorer>['push']>[0]>, analyzers: Analyzers) {
  const scorer = createScorer({ reference, analyzers, forecast: model });
  const results = steps.map((s) => scorer.push(s));
  return { results, report: scorer.report(true), states: scorer.states() };
}

describe('score against the prior: no scope resolution', () => {
  it('gives the same report and step results on every fixture run; only the states lose their scope', () => {
    expect(found.trajectories.length).toBeGreaterThanOrEqual(50);
    let scopes = 0;
    for (const t of found.trajectories) {
      const full = scored(t.steps, defaultAnalyzers());
      const fast = scored(t.steps, withoutScope(defaultAnalyzers()));
      expect(fast.report, t.id).toEqual(full.report);
      const strip = <T extends { state: { scope?: string } }>(rs: T[]) => rs.map((r) => ({ ...r, state: { ...r.state, scope: undefined } }));
      expect(strip(fast.results), t.id).toEqual(strip(full.results));
      scopes += full.states.filter((s) => s.scope !== undefined).length;
      expect(fast.states.every((s) => s.scope === undefined)).toBe(true);
    }
    // The real resolver found scopes: the comparison is not between two runs that never had one.
    expect(scopes).toBeGreaterThan(100);
  });
});

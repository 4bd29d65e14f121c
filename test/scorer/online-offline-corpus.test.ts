/**
 * method.md section 8, "online equals offline", over every real trajectory in the corpus:
 * after every step, the streamed score equals the batch score of that prefix to the last bit.
 */
import { describe, expect, it } from 'vitest';
import { buildPta } from '../../src/core/pta/index.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer, scoreSteps } from '../../src/core/scorer.js';
import type { Reference } from '../../src/core/scorer-api.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

const trajectories = corpusRuns();

const statesOf = (steps: Step[]) => scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers }).results.map((r) => r.state);

describe('online equals offline on every corpus trajectory', () => {
  it('finds the corpus trajectories', () => {
    expect(trajectories.length).toBeGreaterThanOrEqual(60);
  });

  it('every prefix, against the prior and against a real PTA', () => {
    const longest = [...trajectories].sort((a, b) => b.steps.length - a.steps.length);
    const pta = buildPta('mixed', [statesOf(longest[0]!.steps), statesOf(longest[1]!.steps), statesOf(longest[2]!.steps)]);
    const references: Reference[] = [
      { kind: 'prior', prior: UNIFORM_PRIOR },
      { kind: 'pta', pta },
    ];
    let checked = 0;
    for (const { name, steps } of trajectories) {
      for (const reference of references) {
        const online = createScorer({ reference, analyzers });
        steps.forEach((step, i) => {
          const streamed = online.push(step);
          const batch = scoreSteps(steps.slice(0, i + 1), { reference, analyzers });
          const last = batch.results[i]!;
          if (streamed.score.total !== last.score.total || streamed.reward !== last.reward) {
            expect.fail(`${name} step ${i} (${reference.kind}): online ${streamed.score.total} vs batch ${last.score.total}`);
          }
          expect(streamed.score).toEqual(last.score);
          expect(streamed.signals).toEqual(last.signals);
          checked += 1;
        });
        expect(online.report()).toEqual(scoreSteps(steps, { reference, analyzers }).report);
      }
    }
    expect(checked).toBeGreaterThan(3000);
  }, 240_000);
});

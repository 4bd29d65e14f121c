/** holdsPath: does a PTA already hold a run's path (the run, or one equivalent step for step, built it)? */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPta, holdsPath } from '../../src/core/pta/index.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, readSteps } from '../server/helpers.js';
import { trajectoryArb } from './arbitraries.js';

async function statesOf(file: string) {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
  for (const s of await readSteps(file)) scorer.push(s);
  return [...scorer.states()];
}

describe('holdsPath', () => {
  it('is true for the real runs a PTA is built from, false for another run of the task and for a strict prefix', async () => {
    const [a, b, fail] = await Promise.all([statesOf(ASTROID.passA), statesOf(ASTROID.passB), statesOf(ASTROID.fail)]);
    const pta = buildPta(ASTROID.task, [a, b]);
    expect(holdsPath(pta, a)).toBe(true);
    expect(holdsPath(pta, b)).toBe(true);
    expect(holdsPath(pta, fail)).toBe(false);
    expect(holdsPath(pta, a.slice(0, -1))).toBe(false);
    expect(holdsPath(buildPta(ASTROID.task, [b, fail]), a)).toBe(false);
  });

  it('holds every inserted reference, however later ones branched the tree', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 5 }), (refs) => {
        const pta = buildPta('t', refs);
        for (const r of refs) expect(holdsPath(pta, r)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

/** The aligned path over a PTA (web view's task page) agrees with what the structural tracker scored. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAU } from '../../src/core/equivalence.js';
import { buildPta, ptaPaths } from '../../src/core/pta/index.js';
import { alignToPta } from '../../src/core/signals/alignment.js';
import { createStructuralTracker } from '../../src/core/signals/structural.js';
import { createScorer } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, readSteps } from '../server/helpers.js';
import { trajectoryArb } from '../pta/arbitraries.js';

async function statesOf(file: string) {
  const steps = await readSteps(file);
  const scorer = createScorer({
    reference: {
      kind: 'prior',
      prior: {
        windows: [
          [1, 1, 1, 1],
          [1, 1, 1, 1],
          [1, 1, 1, 1],
        ],
        references: 0,
      },
    },
    analyzers: defaultAnalyzers(),
  });
  steps.forEach((s, t) => scorer.push({ ...s, t }));
  return [...scorer.states()];
}

describe('alignToPta', () => {
  it('matches exactly as many nodes as the Φcov matching, on random PTAs and candidates', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 4 }), trajectoryArb(), (refs, cand) => {
        const pta = buildPta('t', refs);
        const tracker = createStructuralTracker(pta, DEFAULT_TAU);
        for (const s of cand) tracker.add(s);
        const a = alignToPta(pta, cand, DEFAULT_TAU);
        expect(a.matchedNodes.length).toBe(tracker.matched());
        expect(a.steps.map((s) => s.t)).toEqual(cand.map((s) => s.t));
        // One node per step at most, one step per node at most, never an O step.
        const nodes = a.steps.flatMap((s) => (s.node === null ? [] : [s.node]));
        expect(new Set(nodes).size).toBe(nodes.length);
        a.steps.forEach((s, i) => {
          if (s.node !== null) expect(cand[i]?.stage).not.toBe('O');
        });
        // The best path's in-order hits give the tracker's ordered recall.
        if (a.bestPath !== null) {
          const nonO = a.bestPath.nodes.filter((id) => pta.nodes[id]?.state?.stage !== 'O').length;
          expect(a.bestPath.hits.length / nonO).toBeCloseTo(tracker.recall(), 12);
          expect(ptaPaths(pta)).toContainEqual(a.bestPath.nodes);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a reference aligned over its own PTA hits its whole path; another run of the task hits part of it', async () => {
    const [a, b, fail] = await Promise.all([statesOf(ASTROID.passA), statesOf(ASTROID.passB), statesOf(ASTROID.fail)]);
    const pta = buildPta(ASTROID.task, [a, b]);
    const self = alignToPta(pta, a, DEFAULT_TAU);
    const path = self.bestPath!;
    expect(path.hits.length).toBe(path.nodes.filter((id) => pta.nodes[id]?.state?.stage !== 'O').length);
    expect(self.steps.filter((s) => s.node !== null).length).toBe(a.filter((s) => s.stage !== 'O').length);
    const other = alignToPta(pta, fail, DEFAULT_TAU);
    expect(other.matchedNodes.length).toBeGreaterThan(0);
    expect(other.steps.some((s) => s.node === null && fail[s.t]?.stage !== 'O')).toBe(true);
    expect(other.version).toBe(pta.version);
  });
});

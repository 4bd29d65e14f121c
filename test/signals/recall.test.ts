import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAU, equivalent } from '../../src/core/equivalence.js';
import { buildPta, ptaPaths } from '../../src/core/pta/index.js';
import { createStructuralTracker } from '../../src/core/signals/structural.js';
import type { State } from '../../src/core/types.js';
import { trajectoryArb } from '../pta/arbitraries.js';

/** Batch ordered recall of section 5.1 over a whole candidate, written from the spec text. */
function batchRecall(paths: State[][], cand: State[]): number {
  let best = 0;
  for (const p of paths) {
    if (p.length === 0) continue;
    let j = 0;
    let matches = 0;
    for (const s of cand) {
      let k = j;
      while (k < p.length && !equivalent(s, p[k]!, DEFAULT_TAU)) k++;
      if (k < p.length) {
        matches++;
        j = k + 1;
      }
    }
    best = Math.max(best, matches / p.length);
  }
  return best;
}

describe('ordered recall', () => {
  it('equals the batch greedy scan on every prefix', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(10), { minLength: 1, maxLength: 3 }), trajectoryArb(15), (refs, cand) => {
        const pta = buildPta('t', refs);
        const paths = ptaPaths(pta).map((p) => p.map((id) => pta.nodes[id]!.state!).filter((s) => s.stage !== 'O'));
        const tracker = createStructuralTracker(pta, DEFAULT_TAU);
        cand.forEach((s, i) => {
          tracker.add(s);
          const prefix = cand.slice(0, i + 1).filter((x) => x.stage !== 'O');
          expect(tracker.recall()).toBe(batchRecall(paths, prefix));
          const p = tracker.precision();
          const r = tracker.recall();
          expect(tracker.struct()).toBe(p + r === 0 ? 0 : (100 * 2 * p * r) / (p + r));
        });
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAU } from '../../src/core/equivalence.js';
import { addReference, buildPta, ptaPaths } from '../../src/core/pta/index.js';
import { createStructuralTracker } from '../../src/core/signals/structural.js';
import { trajectoryArb } from './arbitraries.js';

const startsWith = (p: number[], q: number[]) => q.every((x, i) => p[i] === x);

describe('PTA properties', () => {
  it('copies of one trajectory score it struct = cov = 100', () => {
    fc.assert(
      fc.property(trajectoryArb(15), fc.integer({ min: 1, max: 4 }), (traj, k) => {
        fc.pre(traj.some((s) => s.stage !== 'O'));
        const pta = buildPta(
          't',
          Array.from({ length: k }, () => traj),
        );
        expect(pta.nodes).toHaveLength(traj.length + 1);
        const tracker = createStructuralTracker(pta, DEFAULT_TAU);
        for (const s of traj) tracker.add(s);
        expect(tracker.struct()).toBe(100);
        expect(tracker.cov()).toBe(100);
      }),
      { numRuns: 200 },
    );
  });

  it('adding a reference keeps every old path, bumps the version and does not mutate', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 4 }), trajectoryArb(), (refs, extra) => {
        const pta = buildPta('t', refs);
        const before = structuredClone(pta);
        const next = addReference(pta, extra);
        expect(pta).toStrictEqual(before);
        expect(next.version).toBe(pta.version + 1);
        const newPaths = ptaPaths(next);
        for (const old of ptaPaths(pta)) expect(newPaths.some((p) => startsWith(p, old))).toBe(true);
        for (const n of pta.nodes) expect(next.nodes[n.id]?.refs).toBeGreaterThanOrEqual(n.refs);
      }),
      { numRuns: 200 },
    );
  });

  it('building k references at once equals building one and adding the rest, but for the version', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 4 }), (refs) => {
        const batch = buildPta('t', refs);
        let grown = buildPta('t', refs.slice(0, 1));
        for (const r of refs.slice(1)) grown = addReference(grown, r);
        expect(grown.version).toBe(refs.length);
        expect({ ...grown, version: 1 }).toStrictEqual(batch);
      }),
      { numRuns: 100 },
    );
  });

  it('every path ends at a node where a reference ended and each reference has a path', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 5 }), (refs) => {
        const pta = buildPta('t', refs);
        const paths = ptaPaths(pta);
        const lengths = new Set(paths.map((p) => p.length));
        for (const r of refs) if (r.length > 0) expect(lengths.has(r.length)).toBe(true);
        expect(paths.length).toBeLessThanOrEqual(refs.length);
      }),
      { numRuns: 100 },
    );
  });
});

/**
 * Growth that costs the reference, not the PTA (issue 25: 5,000-step references made each addition clone
 * and rewrite the whole PTA, and listing paths copied every path prefix): shared nodes, exact JSON bytes
 * kept up to date, caps, and paths listed in one walk.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addReference, buildPta, growWithin, ptaJsonBytes, ptaPathCount, ptaPaths, ptaToJson } from '../../src/core/pta/index.js';
import { PTA_SCHEMA_VERSION, type Pta, type PtaNode } from '../../src/core/scorer-api.js';
import type { State } from '../../src/core/types.js';
import { stateArb, trajectoryArb } from './arbitraries.js';
import { DEFAULT_TAU } from '../../src/core/equivalence.js';
import { structuralReference } from '../../src/core/signals/structural-reference.js';
import { createStructuralTracker } from '../../src/core/signals/structural.js';

const state = (t: number, file: string): State => ({
  t,
  stage: 'E',
  kind: 'read',
  tool: 'bash',
  hash: `h${t}`,
  tokens: [],
  command: false,
  changesFile: false,
  failed: false,
  cost: 1,
  unknown: false,
  file,
});

/** A PTA of one reference `depth` states deep (built directly: buildPta would take as long as the chain is deep anyway). */
function chain(depth: number): Pta {
  const nodes: PtaNode[] = [{ id: 0, parent: null, children: depth > 0 ? [1] : [], state: null, refs: 1 }];
  for (let i = 1; i <= depth; i++) nodes.push({ id: i, parent: i - 1, children: i < depth ? [i + 1] : [], state: state(i - 1, 'a.py'), refs: 1 });
  return {
    schema: PTA_SCHEMA_VERSION,
    task: 't',
    version: 1,
    tau: 0.7,
    nodes,
    windowSums: [
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ],
    references: [{ length: depth, implTargets: 0 }],
    files: ['a.py'],
  };
}

describe('PTA growth', () => {
  it('lists the paths of a 200,000-deep reference in one walk (copying every prefix would take 2e10 element copies)', () => {
    const pta = chain(200_000);
    const paths = ptaPaths(pta);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toHaveLength(200_000);
    expect(paths[0]![199_999]).toBe(200_000);
    expect(ptaPathCount(pta)).toBe(1);
  });

  it('counts exactly the paths it lists', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { maxLength: 6 }), (refs) => {
        const pta = buildPta('t', refs);
        expect(ptaPathCount(pta)).toBe(ptaPaths(pta).length);
      }),
      { numRuns: 300 },
    );
  });

  it('shares every node the insertion did not touch with the previous version, and leaves that version as it was', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 5 }), trajectoryArb(), (refs, extra) => {
        const pta = buildPta('t', refs);
        const before = structuredClone(pta);
        const next = addReference(pta, extra);
        expect(pta).toStrictEqual(before);
        // A node's refs grow only on the inserted path: every other node is the very same object.
        const onPath = new Set(next.nodes.filter((n, i) => i < pta.nodes.length && n.refs !== pta.nodes[i]!.refs).map((n) => n.id));
        for (const n of pta.nodes) if (!onPath.has(n.id)) expect(next.nodes[n.id]).toBe(n);
        expect(next).toStrictEqual({ ...buildPta('t', [...refs, extra]), version: pta.version + 1 });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the JSON bytes exact from version to version (UTF-8, new files, growing counts)', () => {
    const utf8 = fc.constantFrom('a.py', 'é/ü.py', '日本.py', 'tests/test_a.py');
    const states = fc.array(
      fc.tuple(stateArb, utf8).map(([s, file]) => ({ ...s, file })),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(states, fc.array(states, { minLength: 1, maxLength: 12 }), (first, more) => {
        let pta = buildPta('t', [first]);
        expect(ptaJsonBytes(pta)).toBe(Buffer.byteLength(ptaToJson(pta)));
        for (const ref of more) {
          pta = addReference(pta, ref);
          expect(ptaJsonBytes(pta)).toBe(Buffer.byteLength(ptaToJson(pta)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses growth past a cap, naming the task, the cap and the figure', () => {
    const a = Array.from({ length: 30 }, (_, t) => state(t, 'a.py'));
    const b = Array.from({ length: 30 }, (_, t) => ({ ...state(t, 'b.py'), hash: `b${t}` }));
    const loose = { maxReferences: 10, maxNodes: 1000, maxBytes: 1e7 };
    const one = growWithin('t', undefined, a, loose);
    expect(one.ok && one.value.version).toBe(1);
    const pta = one.ok ? one.value : buildPta('t', [a]);
    expect(growWithin('t', pta, b, { ...loose, maxReferences: 1 })).toEqual({ ok: false, error: 'task t: a reference of 30 steps is refused: its PTA already holds 1 references, the limit' });
    expect(growWithin('t', pta, b, { ...loose, maxNodes: 59 })).toEqual({ ok: false, error: 'task t: a reference of 30 steps would make its PTA 60 nodes, over the limit of 59' });
    const bytes = Buffer.byteLength(ptaToJson(addReference(pta, b)));
    expect(growWithin('t', pta, b, { ...loose, maxBytes: bytes - 1 })).toEqual({
      ok: false,
      error: `task t: a reference of 30 steps would make its PTA ${bytes} bytes of JSON, over the limit of ${bytes - 1}`,
    });
    const within = growWithin('t', pta, b, { ...loose, maxBytes: bytes, maxNodes: 60, maxReferences: 2 });
    expect(within.ok && within.value.references).toHaveLength(2);
    // A reference equal to one held adds no node: the node cap does not refuse it.
    expect(growWithin('t', pta, a, { ...loose, maxNodes: 30 }).ok).toBe(true);
  });

  it("extends a grown version's structural reference and path count from the previous version's: the same as built from scratch", () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 6 }), trajectoryArb(20), (refs, candidate) => {
        let pta = buildPta('t', refs.slice(0, 1));
        structuralReference(pta, DEFAULT_TAU);
        ptaPathCount(pta);
        for (const ref of refs.slice(1)) {
          pta = addReference(pta, ref);
          const grown = structuralReference(pta, DEFAULT_TAU);
          const fresh = structuralReference(structuredClone(pta), DEFAULT_TAU);
          expect(grown.nodeStates).toEqual(fresh.nodeStates);
          const key = (p: readonly number[]): string => p.join(',');
          expect(grown.paths.map(key).sort()).toEqual(fresh.paths.map(key).sort());
          expect(ptaPathCount(pta)).toBe(ptaPaths(structuredClone(pta)).length);
          const a = createStructuralTracker(pta, DEFAULT_TAU);
          const b = createStructuralTracker(structuredClone(pta), DEFAULT_TAU);
          for (const s of candidate) {
            a.add(s);
            b.add(s);
            expect(a.value()).toEqual(b.value());
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

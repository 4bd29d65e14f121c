import { describe, expect, it } from 'vitest';
import { addReference, buildPta, ptaPaths } from '../../src/core/pta/index.js';
import { commandState, makeState } from '../equivalence/state-factory.js';

const A = makeState({ stage: 'E', hash: 'A', file: 'src/a.py', range: [1, 50] });
const B = makeState({ stage: 'E', hash: 'B', file: 'src/b.py', range: [1, 20] });
const C = makeState({ stage: 'I', hash: 'C', file: 'src/a.py', scope: 'src/a.py::f', range: [10, 12] });
const D = makeState({ stage: 'V', hash: 'D', kind: 'run_test' });
const O = makeState({ stage: 'O', hash: 'O', kind: 'think' });

describe('buildPta', () => {
  it('merges shared prefixes and branches on divergence', () => {
    const pta = buildPta('t1', [
      [A, B, C],
      [A, D],
    ]);
    expect(pta.version).toBe(1);
    expect(pta.nodes.map((n) => [n.id, n.parent, n.children, n.refs])).toEqual([
      [0, null, [1], 2],
      [1, 0, [2, 4], 2],
      [2, 1, [3], 1],
      [3, 2, [], 1],
      [4, 1, [], 1],
    ]);
    expect(ptaPaths(pta)).toEqual([
      [1, 2, 3],
      [1, 4],
    ]);
    expect(pta.files).toEqual(['src/a.py', 'src/b.py']);
    expect(pta.references).toEqual([
      { length: 3, implTargets: 1 },
      { length: 2, implTargets: 0 },
    ]);
  });

  it('follows the most confident equivalent child, ties to the first created', () => {
    const view40 = makeState({ stage: 'E', file: 'x.py', range: [40, 80] });
    const view1 = makeState({ stage: 'E', file: 'x.py', range: [1, 60] });
    const pta0 = buildPta('t', [[view40], [view1]]);
    expect(pta0.nodes[0]?.children).toEqual([1]);
    const pta = buildPta('t', [[makeState({ stage: 'E', hash: 'p' })], [makeState({ stage: 'E', hash: 'q' })]]);
    expect(pta.nodes[0]?.children).toEqual([1, 2]);
    // 'q' copy goes to child 2 (conf 1) over nothing else
    const grown = addReference(pta, [makeState({ stage: 'E', hash: 'q' })]);
    expect(grown.nodes[2]?.refs).toBe(2);
    // a state equivalent to both children with the same conf follows child 1
    const p2 = buildPta('t', [
      [makeState({ stage: 'E', file: 'y.py', range: [1, 10] })],
      [makeState({ stage: 'V', file: 'y.py', range: [1, 10] })],
      [makeState({ stage: 'E', file: 'y.py', range: [30, 40] })],
    ]);
    expect(p2.nodes[0]?.children).toEqual([1, 2, 3]);
    const tie = addReference(p2, [makeState({ stage: 'E', file: 'y.py' })]);
    expect(tie.nodes.map((n) => n.refs)).toEqual([4, 2, 1, 1]);
    // [8, 30] overlaps [1, 10] by 0.3 (conf 0.80) and [30, 40] by 1/11 (not equivalent) ...
    const low = addReference(p2, [makeState({ stage: 'E', file: 'y.py', range: [8, 30] })]);
    expect(low.nodes.map((n) => n.refs)).toEqual([4, 2, 1, 1]);
    // ... while [8, 40] overlaps [30, 40] fully (0.95) and [1, 10] by 0.3 (0.80): the later child wins
    const best = addReference(p2, [makeState({ stage: 'E', file: 'y.py', range: [8, 40] })]);
    expect(best.nodes.map((n) => n.refs)).toEqual([4, 1, 1, 2]);
  });

  it('keeps a reference that is a prefix of another as its own path', () => {
    const pta = buildPta('t', [
      [A, B, C],
      [A, B],
    ]);
    expect(ptaPaths(pta)).toEqual([
      [1, 2],
      [1, 2, 3],
    ]);
  });

  it('keeps O nodes in the tree and sums the window distributions', () => {
    const pta = buildPta('t', [[A, O, D]], { alpha: 0 });
    expect(pta.nodes.map((n) => n.state?.stage ?? null)).toEqual([null, 'E', 'O', 'V']);
    expect(pta.windowSums).toEqual([
      [1, 0, 0, 0],
      [0, 0, 0, 1],
      [0, 0, 1, 0],
    ]);
  });

  it('builds a root-only PTA from zero references', () => {
    const pta = buildPta('t', []);
    expect(pta.nodes).toHaveLength(1);
    expect(ptaPaths(pta)).toEqual([]);
  });

  it('stores the tau it was built with and uses it for later references', () => {
    const a = commandState('grep -rn foo src');
    const b = commandState('grep -rn foo lib');
    expect(buildPta('t', [[a], [b]], { tau: 0.9 }).nodes).toHaveLength(3);
    const loose = buildPta('t', [[a]], { tau: 0.7 });
    expect(addReference(loose, [b]).nodes).toHaveLength(2);
  });
});

describe('addReference', () => {
  it('returns a new PTA with version + 1 and leaves the input untouched', () => {
    const pta = buildPta('t', [[A, B]]);
    const before = structuredClone(pta);
    const next = addReference(pta, [A, D]);
    expect(pta).toStrictEqual(before);
    expect(next.version).toBe(2);
    expect(next.references).toHaveLength(2);
    expect(addReference(next, [C]).version).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { addReference, buildPta, ptaPathCount, ptaPaths } from '../../src/core/pta/index.js';
import { makeState } from '../equivalence/state-factory.js';

const A = makeState({ stage: 'E', hash: 'A', file: 'src/a.py', range: [1, 50] });
const B = makeState({ stage: 'E', hash: 'B', file: 'src/b.py', range: [1, 20] });
const D = makeState({ stage: 'V', hash: 'D', kind: 'run_test' });
const O = makeState({ stage: 'O', hash: 'O', kind: 'think' });

describe('ptaPathCount', () => {
  it('is the number of reference paths, counted once per PTA and again for a grown one', () => {
    const pta = buildPta('t', [
      [A, B],
      [A, D],
    ]);
    expect(ptaPathCount(pta)).toBe(ptaPaths(pta).length);
    expect(ptaPathCount(pta)).toBe(2);
    const grown = addReference(pta, [O]);
    expect(ptaPathCount(grown)).toBe(ptaPaths(grown).length);
    expect(ptaPathCount(grown)).toBe(3);
    expect(ptaPathCount(pta)).toBe(2);
  });

  it('counts again when a PTA still being built has grown in place', () => {
    const pta = buildPta('t', [[A, B]]);
    expect(ptaPathCount(pta)).toBe(1);
    const other = buildPta('t', [[A, B], [O]]);
    // Grown in place to the same content as `other` (what a builder does before handing the PTA out).
    pta.nodes.splice(0, pta.nodes.length, ...other.nodes);
    pta.references.splice(0, pta.references.length, ...other.references);
    expect(ptaPathCount(pta)).toBe(2);
  });
});

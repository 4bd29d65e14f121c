import { describe, expect, it } from 'vitest';
import { DEFAULT_TAU, equivalent } from '../../src/core/equivalence.js';
import { buildPta } from '../../src/core/pta/index.js';
import { createStructuralTracker } from '../../src/core/signals/structural.js';
import type { State } from '../../src/core/types.js';
import { makeState } from '../equivalence/state-factory.js';

const A = makeState({ stage: 'E', hash: 'A' });
const B = makeState({ stage: 'E', hash: 'B' });
const C = makeState({ stage: 'I', hash: 'C' });
const D = makeState({ stage: 'V', hash: 'D' });
const O = makeState({ stage: 'O', hash: 'O' });
const X = makeState({ stage: 'E', hash: 'X' });

describe('structural tracker: hand-worked example', () => {
  // References [A, O, B, C] and [A, D]: paths (O left out) [A, B, C] and [A, D]; N = {A, B, C, D}.
  const pta = buildPta('t', [
    [A, O, B, C],
    [A, D],
  ]);

  it('tracks recall, precision, struct and cov after every step', () => {
    const t = createStructuralTracker(pta, DEFAULT_TAU);
    expect([t.struct(), t.cov(), t.recall(), t.precision()]).toEqual([0, 0, 0, 0]);
    t.add(B); // path 1: B at j=1 (1/3); path 2: none. M = 1, |C| = 1
    expect(t.recall()).toBeCloseTo(1 / 3, 15);
    expect(t.precision()).toBe(1);
    expect(t.struct()).toBeCloseTo(50, 12);
    expect(t.cov()).toBe(25);
    t.add(A); // path 1: pointer at 2, A not after it; path 2: A at 0 (1/2). M = 2
    expect(t.recall()).toBe(0.5);
    t.add(O); // ignored
    t.add(X); // matches nothing; |C| = 3
    t.add(C); // path 1: C at 2 (2/3). M = 3, |C| = 4
    expect(t.recall()).toBeCloseTo(2 / 3, 15);
    expect(t.precision()).toBe(0.75);
    expect(t.matched()).toBe(3);
    expect(t.struct()).toBeCloseTo((100 * 2 * 0.75 * (2 / 3)) / (0.75 + 2 / 3), 12);
    expect(t.struct()).toBeCloseTo(70.588235, 5);
    expect(t.cov()).toBe(75);
  });

  it('ignores candidate O states even when equivalent to an O node', () => {
    const t = createStructuralTracker(pta, DEFAULT_TAU);
    t.add(O);
    expect([t.matched(), t.precision(), t.struct(), t.cov()]).toEqual([0, 0, 0, 0]);
  });

  it('scores 0 against a PTA with only O nodes', () => {
    const t = createStructuralTracker(buildPta('t', [[O, O]]), DEFAULT_TAU);
    t.add(A);
    expect([t.recall(), t.precision(), t.struct(), t.cov()]).toEqual([0, 0, 0, 0]);
  });
});

describe('structural tracker: augmenting paths', () => {
  // n1 = a.py lines 1-10, n2 = a.py lines 100-110. Candidate a views all of a.py
  // (equivalent to both), candidate b is n1's exact content (equivalent to n1 only).
  const n1 = makeState({ stage: 'E', hash: 'n1', file: 'a.py', range: [1, 10] });
  const n2 = makeState({ stage: 'E', hash: 'n2', file: 'a.py', range: [100, 110] });
  const a = makeState({ stage: 'E', hash: 'a', file: 'a.py' });
  const b = makeState({ stage: 'E', hash: 'n1', file: 'a.py', range: [1, 10] });
  const pta = buildPta('t', [[n1, n2]]);

  function greedy(cands: State[], nodes: State[]): number {
    const used = new Set<number>();
    for (const c of cands) {
      const j = nodes.findIndex((n, i) => !used.has(i) && equivalent(n, c, DEFAULT_TAU));
      if (j >= 0) used.add(j);
    }
    return used.size;
  }

  it('finds the maximum matching where greedy does not', () => {
    expect(equivalent(a, n1, DEFAULT_TAU) && equivalent(a, n2, DEFAULT_TAU)).toBe(true);
    expect(equivalent(b, n2, DEFAULT_TAU)).toBe(false);
    expect(greedy([a, b], [n1, n2])).toBe(1);
    const t = createStructuralTracker(pta, DEFAULT_TAU);
    t.add(a);
    expect(t.matched()).toBe(1);
    t.add(b);
    expect(t.matched()).toBe(2);
    expect(t.cov()).toBe(100);
    expect(t.precision()).toBe(1);
  });
});

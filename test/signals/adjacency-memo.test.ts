/**
 * The structural reference's adjacency memo (looked up by the candidate's fields, no string key): a state that
 * differs from a memoised one in any field `equivalent` reads is a miss, one that differs elsewhere a hit; the
 * oldest entries go first past either bound; and `adjacent` answers what a scan of every node answers, before and
 * after evictions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAU, equivalent } from '../../src/core/equivalence.js';
import { buildPta } from '../../src/core/pta/index.js';
import { AdjacencyMemo } from '../../src/core/signals/adjacency-memo.js';
import { ADJACENCY_MEMO_ENTRIES, structuralReference } from '../../src/core/signals/structural-reference.js';
import type { State } from '../../src/core/types.js';
import { makeState } from '../equivalence/state-factory.js';

const tokens = ['a', 'b'];

describe('AdjacencyMemo', () => {
  it('tells states apart by every field equivalent reads, and by nothing else', () => {
    const memo = new AdjacencyMemo(100, 1000);
    const base = makeState({ stage: 'E', hash: 'h', file: 'a.py', scope: 'f', range: [1, 5], command: true, tokens });
    const list = Object.freeze([1, 2]);
    memo.set(base, list);
    expect(memo.get({ ...base, t: 9, tool: 'x', cost: 7, kind: 'edit', failed: true, range: [1, 5] })).toBe(list);
    for (const other of [
      { hash: 'g' },
      { stage: 'I' as const },
      { file: 'b.py' },
      { file: undefined },
      { scope: 'g' },
      { scope: undefined },
      { range: [1, 6] as [number, number] },
      { range: [0, 5] as [number, number] },
      { range: undefined },
      { tokens: ['a', 'b'] },
      { command: false },
    ]) {
      expect(memo.get({ ...base, ...other })).toBeUndefined();
    }
    // Tokens are not read for a state that is no command.
    const plain = makeState({ hash: 'p', command: false, tokens: ['x'] });
    memo.set(plain, list);
    expect(memo.get({ ...plain, tokens: ['y'] })).toBe(list);
  });

  it('drops the oldest entries past the entry bound and past the index bound', () => {
    const byCount = new AdjacencyMemo(3, 1000);
    const states = Array.from({ length: 5 }, (_, i) => makeState({ hash: i < 3 ? 'same' : `h${i}`, file: `f${i}` }));
    states.forEach((s, i) => byCount.set(s, [i]));
    expect(byCount.size).toBe(3);
    expect(states.map((s) => byCount.get(s))).toEqual([undefined, undefined, [2], [3], [4]]);
    const byIndices = new AdjacencyMemo(100, 5);
    states.forEach((s, i) => byIndices.set(s, [i, i, i]));
    // Each entry holds 3 indices: one fits under 5; the last is always kept.
    expect(states.map((s) => byIndices.get(s))).toEqual([undefined, undefined, undefined, undefined, [4, 4, 4]]);
    const big = new AdjacencyMemo(100, 5);
    big.set(states[0]!, [0, 1, 2, 3, 4, 5, 6]);
    expect(big.get(states[0]!)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('structural reference adjacency', () => {
  const stages = ['E', 'I', 'V'] as const;
  const nodeState = (i: number): State =>
    makeState({ stage: stages[i % 3], hash: `n${i % 7}`, file: i % 2 ? `f${i % 4}.py` : undefined, range: i % 3 ? [i % 5, (i % 5) + 3] : undefined, scope: i % 4 ? undefined : `s${i % 3}` });
  const pta = buildPta(
    't',
    Array.from({ length: 6 }, (_, r) => Array.from({ length: 8 }, (_, k) => nodeState(r * 8 + k))),
  );
  const ref = structuralReference(pta, DEFAULT_TAU);
  const scan = (s: State): number[] => ref.nodeStates.flatMap((n, j) => (equivalent(n, s, DEFAULT_TAU) ? [j] : []));
  const candidate = fc.record({
    i: fc.integer({ min: 0, max: 60 }),
    file: fc.constantFrom(undefined, 'f1.py', 'f3.py'),
    from: fc.integer({ min: 0, max: 6 }),
    scope: fc.constantFrom(undefined, 's0', 's1'),
  });

  it('answers the scan of every node, memoised or not, through more states than the memo keeps', () => {
    const seen: State[] = [];
    fc.assert(
      fc.property(candidate, ({ i, file, from, scope }) => {
        const s = makeState({ stage: stages[i % 3], hash: `n${i % 9}`, file, range: [from, from + 2], scope });
        seen.push(s);
        expect(ref.adjacent(s)).toEqual(scan(s));
        expect(ref.adjacent({ ...s, range: [from, from + 2] })).toEqual(scan(s));
      }),
      { numRuns: 500, seed: 7 },
    );
    for (let k = 0; k < ADJACENCY_MEMO_ENTRIES + 10; k++) ref.adjacent(makeState({ hash: `fill${k}` }));
    for (const s of seen) expect(ref.adjacent(s)).toEqual(scan(s));
  });
});

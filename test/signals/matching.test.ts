import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAU, equivalent } from '../../src/core/equivalence.js';
import { buildPta } from '../../src/core/pta/index.js';
import { createIncrementalMatching } from '../../src/core/signals/matching.js';
import { createStructuralTracker } from '../../src/core/signals/structural.js';
import type { State } from '../../src/core/types.js';
import { trajectoryArb } from '../pta/arbitraries.js';

/** Reference maximum matching from scratch: Hopcroft-Karp over the whole graph. */
function hopcroftKarp(adj: number[][], right: number): number {
  const INF = Number.MAX_SAFE_INTEGER;
  const mL = adj.map(() => -1);
  const mR = new Array<number>(right).fill(-1);
  const dist = adj.map(() => 0);
  const bfs = (): boolean => {
    const q: number[] = [];
    adj.forEach((_, u) => {
      dist[u] = mL[u] === -1 ? 0 : INF;
      if (mL[u] === -1) q.push(u);
    });
    let found = false;
    // `q` grows while it is walked (breadth-first); for-of visits the appended vertices too.
    for (const u of q) {
      for (const v of adj[u]!) {
        const w = mR[v]!;
        if (w === -1) found = true;
        else if (dist[w] === INF) {
          dist[w] = dist[u]! + 1;
          q.push(w);
        }
      }
    }
    return found;
  };
  const dfs = (u: number): boolean => {
    for (const v of adj[u]!) {
      const w = mR[v]!;
      if (w === -1 || (dist[w] === dist[u]! + 1 && dfs(w))) {
        mL[u] = v;
        mR[v] = u;
        return true;
      }
    }
    dist[u] = INF;
    return false;
  };
  let size = 0;
  while (bfs())
    adj.forEach((_, u) => {
      if (mL[u] === -1 && dfs(u)) size++;
    });
  return size;
}

describe('incremental matching', () => {
  it('stays maximum on random bipartite graphs, with a consistent matching', () => {
    const graph = fc.integer({ min: 1, max: 8 }).chain((right) => fc.tuple(fc.constant(right), fc.array(fc.uniqueArray(fc.nat(right - 1), { maxLength: right }), { maxLength: 12 })));
    fc.assert(
      fc.property(graph, ([right, adj]) => {
        const m = createIncrementalMatching(right);
        adj.forEach((edges, u) => {
          m.addLeft(edges);
          expect(m.size).toBe(hopcroftKarp(adj.slice(0, u + 1), right));
        });
        let pairs = 0;
        for (let u = 0; u < adj.length; u++) {
          const v = m.matchOfLeft(u);
          if (v === -1) continue;
          pairs++;
          expect(adj[u]).toContain(v);
          expect(m.matchOfRight(v)).toBe(u);
        }
        expect(pairs).toBe(m.size);
      }),
      { numRuns: 500 },
    );
  });

  it('follows an augmenting path deeper than its first stack (a chain of 300 matched vertices)', () => {
    // Left k has edges [k, k + 1] and takes k; a last left vertex with the edge [0] shifts every match along by one.
    const n = 300;
    const m = createIncrementalMatching(n + 1);
    for (let k = 0; k < n; k++) expect(m.addLeft([k, k + 1])).toBe(true);
    expect(m.addLeft([0])).toBe(true);
    expect(m.size).toBe(n + 1);
    expect(m.matchOfRight(0)).toBe(n);
    for (let k = 0; k < n; k++) expect(m.matchOfRight(k + 1)).toBe(k);
    expect(m.addLeft([0, n])).toBe(false);
  });

  it('rejects edges to unknown right vertices', () => {
    expect(() => createIncrementalMatching(2).addLeft([2])).toThrow(RangeError);
  });
});

describe('structural tracker matching equals a from-scratch maximum matching', () => {
  it('after every added state', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(10), { minLength: 1, maxLength: 3 }), trajectoryArb(15), (refs, cand) => {
        const pta = buildPta('t', refs);
        const nodes = pta.nodes.flatMap((n) => (n.state && n.state.stage !== 'O' ? [n.state] : []));
        const tracker = createStructuralTracker(pta, DEFAULT_TAU);
        const seen: State[] = [];
        for (const s of cand) {
          tracker.add(s);
          if (s.stage !== 'O') seen.push(s);
          const adj = seen.map((c) => nodes.flatMap((n, j) => (equivalent(n, c, DEFAULT_TAU) ? [j] : [])));
          const max = hopcroftKarp(adj, nodes.length);
          expect(tracker.matched()).toBe(max);
          expect(tracker.cov()).toBe(nodes.length === 0 ? 0 : (100 * max) / nodes.length);
          expect(tracker.precision()).toBe(seen.length === 0 ? 0 : max / seen.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});

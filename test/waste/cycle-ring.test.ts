/**
 * The cycle detector keeps only its last maxBlock + 1 states (a ring): it must find exactly the runs,
 * with the same steps and growth points, as the growing-array version it replaced (kept here as the
 * reference), on the states of every real corpus run and for several block settings.
 */
import { describe, expect, it } from 'vitest';
import { REPEAT_EXEMPT_KINDS } from '../../src/core/signals/repeats.js';
import type { State } from '../../src/core/types.js';
import { createCycleDetector, type CycleRun } from '../../src/core/waste/cycles.js';
import { corpusRuns, extraRuns, statesOf } from '../fixtures/corpus-runs.js';

function cycleKey(state: State): string {
  return REPEAT_EXEMPT_KINDS.has(state.kind) || state.variant === true ? `\0${state.t}` : state.hash;
}

function isPrimitive(block: readonly string[]): boolean {
  const len = block.length;
  for (let p = 1; p < len; p++) {
    if (len % p !== 0) continue;
    let periodic = true;
    for (let i = p; i < len && periodic; i++) periodic = block[i] === block[i - p];
    if (periodic) return false;
  }
  return true;
}

/** The previous detector: every key and state kept. */
function reference(minBlock: number, maxBlock: number): { add(state: State): CycleRun[]; runs(): CycleRun[] } {
  const hashes: string[] = [];
  const states: State[] = [];
  const perBlock = new Map<number, { len: number; primitive: boolean; run: CycleRun | undefined }>();
  for (let L = minBlock; L <= maxBlock; L++) perBlock.set(L, { len: 0, primitive: false, run: undefined });
  const all: CycleRun[] = [];
  return {
    add(state) {
      const i = hashes.length;
      hashes.push(cycleKey(state));
      states.push(state);
      const grown: CycleRun[] = [];
      for (const [L, cur] of perBlock) {
        if (i < L || hashes[i] !== hashes[i - L]) {
          cur.len = 0;
          cur.run = undefined;
          continue;
        }
        cur.len += 1;
        const startIdx = i - cur.len + 1 - L;
        if (cur.len === 1) cur.primitive = isPrimitive(hashes.slice(startIdx, startIdx + L));
        if (!cur.primitive) continue;
        const reps = Math.floor((cur.len + L) / L);
        if (cur.run === undefined) {
          const first = states[startIdx]!;
          cur.run = { block: L, start: first.t, end: state.t, reps, steps: states.slice(startIdx, i + 1).map((s) => s.t), tool: first.tool };
          all.push(cur.run);
          grown.push(cur.run);
          continue;
        }
        cur.run.end = state.t;
        cur.run.steps.push(state.t);
        if (reps > cur.run.reps) {
          cur.run.reps = reps;
          grown.push(cur.run);
        }
      }
      return grown;
    },
    runs: () => all.filter((r) => r.reps >= 2).sort((a, b) => a.start - b.start || a.block - b.block),
  };
}

describe('cycle detector ring', () => {
  it('finds the same runs as the growing-array detector on every real run', () => {
    let found = 0;
    const runs = [...corpusRuns(), ...extraRuns()].map((r) => statesOf(r.steps));
    for (const [minBlock, maxBlock] of [
      [2, 4],
      [1, 3],
      [2, 8],
      [3, 3],
    ] as const) {
      for (const states of runs) {
        const ring = createCycleDetector(minBlock, maxBlock);
        const ref = reference(minBlock, maxBlock);
        for (const s of states) expect(JSON.stringify(ring.add(s))).toBe(JSON.stringify(ref.add(s)));
        expect(ring.runs()).toEqual(ref.runs());
        found += ref.runs().length;
      }
    }
    expect(found).toBeGreaterThan(5);
  });

  it('keys an exempt or variant state by its t as the string it replaced did: equal only to a state of the same t, never to a hash (t shifted, some repeated, hashes like numbers)', () => {
    let found = 0;
    for (const run of corpusRuns().slice(0, 25)) {
      const states = statesOf(run.steps).map((s, i) => ({ ...s, t: Math.floor(i / 3), hash: i % 7 === 0 ? String(Math.floor(i / 3)) : s.hash }));
      const ring = createCycleDetector(1, 4);
      const ref = reference(1, 4);
      for (const s of states) expect(JSON.stringify(ring.add(s))).toBe(JSON.stringify(ref.add(s)));
      expect(ring.runs()).toEqual(ref.runs());
      found += ref.runs().length;
    }
    expect(found).toBeGreaterThan(5);
  });
});

import { describe, expect, it } from 'vitest';
import { createCoherenceTracker } from '../../src/core/signals/coherence.js';
import { createRetryDetector } from '../../src/core/signals/repeats.js';
import type { State } from '../../src/core/types.js';
import { fromStages, st } from '../fixtures/make-state.js';

const EPS = 1e-6;

function run(states: readonly State[]) {
  const c = createCoherenceTracker(EPS);
  for (const s of states) c.add(s);
  return { value: c.value(), counts: c.counts() };
}

describe('coherence transitions', () => {
  it('E→I→V: two pivots, no retry', () => {
    const r = run(fromStages('EIV'));
    expect(r.counts).toEqual({ pivots: 2, confirms: 0, backtracks: 0, retries: 0 });
    expect(r.value).toBeCloseTo(2 / (2 + EPS), 14);
  });

  it('E→I→V→I→V: a backtrack V→I', () => {
    const r = run(fromStages('EIVIV'));
    expect(r.counts).toEqual({ pivots: 3, confirms: 0, backtracks: 1, retries: 0 });
    expect(r.value).toBeCloseTo(3 / (4 + EPS), 14);
  });

  it('V→E and I→E are backtracks, same-stage steps are no transition', () => {
    expect(run(fromStages('VVEE')).counts).toEqual({ pivots: 0, confirms: 0, backtracks: 1, retries: 0 });
    expect(run(fromStages('IE')).counts.backtracks).toBe(1);
    expect(run(fromStages('EEEE')).value).toBe(0);
  });

  it('into O is a confirm; out of O compares with the last non-O stage before the run', () => {
    expect(run(fromStages('EOI')).counts).toEqual({ pivots: 1, confirms: 1, backtracks: 0, retries: 0 });
    expect(run(fromStages('VOOE')).counts).toEqual({ pivots: 0, confirms: 1, backtracks: 1, retries: 0 });
    expect(run(fromStages('IOI')).counts).toEqual({ pivots: 0, confirms: 1, backtracks: 0, retries: 0 });
    const r = run(fromStages('EOIOV'));
    expect(r.counts).toEqual({ pivots: 2, confirms: 2, backtracks: 0, retries: 0 });
    expect(r.value).toBeCloseTo(4 / (4 + EPS), 14);
  });

  it('leaving a leading O run has nothing to compare with: neither', () => {
    expect(run(fromStages('OOE')).counts).toEqual({ pivots: 0, confirms: 0, backtracks: 0, retries: 0 });
  });

  it('is 0 for zero or one state', () => {
    expect(createCoherenceTracker(EPS).value()).toBe(0);
    expect(run(fromStages('E')).value).toBe(0);
  });
});

describe('blind retries', () => {
  it('the same test re-run with nothing changed is a retry and scales by 1 − r/|T|', () => {
    const states = [st(0, 'E'), st(1, 'I', { changesFile: true }), st(2, 'V', { hash: 'pytest' }), st(3, 'V', { hash: 'pytest' })];
    const r = run(states);
    expect(r.counts).toEqual({ pivots: 2, confirms: 0, backtracks: 0, retries: 1 });
    expect(r.value).toBeCloseTo((2 / (2 + EPS)) * (1 - 1 / 3), 14);
  });

  it('a file change between the two (any stage) resets the retry', () => {
    const i = [st(0, 'V', { hash: 'pytest' }), st(1, 'I', { changesFile: true }), st(2, 'V', { hash: 'pytest' })];
    expect(run(i).counts.retries).toBe(0);
    const v = [st(0, 'V', { hash: 'pytest' }), st(1, 'V', { kind: 'edit', changesFile: true }), st(2, 'V', { hash: 'pytest' })];
    expect(run(v).counts.retries).toBe(0);
  });

  it('an install between the two resets the retry; a step that changed nothing does not', () => {
    const install = [st(0, 'V', { hash: 'pytest' }), st(1, 'O', { kind: 'install', changesEnv: true }), st(2, 'V', { hash: 'pytest' })];
    expect(run(install).counts.retries).toBe(0);
    const nothing = [st(0, 'V', { hash: 'pytest' }), st(1, 'I', { changesFile: false }), st(2, 'V', { hash: 'pytest' })];
    expect(run(nothing).counts.retries).toBe(1);
  });

  it('re-applying the same edit is a retry (the earlier state itself is the last change)', () => {
    const states = [st(0, 'I', { hash: 'edit', changesFile: true, file: 'a.py' }), st(1, 'I', { hash: 'edit', changesFile: true, file: 'a.py' })];
    expect(run(states).counts.retries).toBe(1);
  });

  it('clamps to 0 when every transition is a retry of a backtrack-only walk', () => {
    const states = [st(0, 'V', { hash: 'a' }), st(1, 'E', { hash: 'a' }), st(2, 'E', { hash: 'a' })];
    const r = run(states);
    expect(r.counts).toEqual({ pivots: 0, confirms: 0, backtracks: 1, retries: 2 });
    expect(r.value).toBe(0);
  });
});

describe('retry exemptions', () => {
  it('a confirmed double submit (SWE-agent 1.x protocol) is not a blind retry', () => {
    const d = createRetryDetector();
    const base = { stage: 'O' as const, kind: 'finish' as const, tool: 'submit', hash: 'h', tokens: [], command: false, changesFile: false, failed: false, cost: 1, unknown: false };
    expect(d.add({ ...base, t: 0 })).toBeUndefined();
    expect(d.add({ ...base, t: 1 })).toBeUndefined();
    const read = { ...base, kind: 'read' as const, stage: 'E' as const, hash: 'r' };
    expect(d.add({ ...read, t: 2 })).toBeUndefined();
    expect(d.add({ ...read, t: 3 })).toBe(2);
  });
});

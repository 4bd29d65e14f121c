/**
 * The scorer keeps its states in columns (StateColumns): every state of every real run comes back equal,
 * with the same keys in the same order, sharing the pooled strings, token arrays and ranges, and the
 * scorer keeps none of the state objects it hands out (~60 B a state in columns against ~140 as objects:
 * bench/memory.ts measures that).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { createScorer } from '../../src/core/scorer.js';
import { StateColumns } from '../../src/core/state/state-columns.js';
import type { State } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns, extraRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

describe('states in columns', () => {
  it('round-trips every state of every real run (values, key order, shared references); the scorer gives the states it built', () => {
    let checked = 0;
    for (const run of [...corpusRuns(), ...extraRuns()]) {
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
      const built: State[] = run.steps.map((step) => scorer.push(step).state);
      const columns = new StateColumns();
      built.forEach((s) => columns.push(s));
      expect(columns.length).toBe(built.length);
      for (const [i, s] of built.entries()) {
        const back = columns.at(i)!;
        expect(Object.keys(back)).toEqual(Object.keys(s));
        expect(back).toStrictEqual(s);
        expect(back.tokens).toBe(s.tokens);
        expect(back.range).toBe(s.range);
        expect(scorer.state(i)).toStrictEqual(s);
        checked++;
      }
      expect(JSON.stringify(scorer.states())).toBe(JSON.stringify(built));
      expect(columns.at(built.length)).toBeUndefined();
      expect(scorer.state(-1)).toBeUndefined();
    }
    expect(checked).toBeGreaterThan(1500);
  });

  it("keeps a whole cost in the code's number (one number a state) and any other cost aside, exactly", () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const real = corpusRuns()[0]!.steps.map((step) => scorer.push(step).state);
    const costs = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 40, 1e15, -0, -1, 0.5, 1.25e-7, Number.MAX_VALUE, Number.POSITIVE_INFINITY, Number.NaN, 7];
    // Every flag and a range on some, and over 255 tools (the last ones' index kept aside): the code at its widest.
    const states: State[] = [];
    for (let i = 0; i < 300; i++) {
      const s = real[i % real.length]!;
      states.push({
        ...s,
        t: i,
        cost: costs[i % costs.length]!,
        tool: `tool${i}`,
        failed: i % 2 === 0,
        unknown: i % 3 === 0,
        changesEnv: i % 5 === 0 ? true : undefined,
        variant: i % 7 === 0 ? true : undefined,
      });
    }
    for (const s of states) for (const k of ['changesEnv', 'variant'] as const) if (s[k] === undefined) delete s[k];
    const columns = new StateColumns();
    states.forEach((s) => columns.push(s));
    states.forEach((s, i) => {
      expect(columns.at(i)).toStrictEqual(s);
      expect(Object.is(columns.at(i)!.cost, s.cost)).toBe(true);
    });
    // The corpus's costs are whole numbers: one number a state (two before the eighth memory pass).
    const plain = new StateColumns();
    real.forEach((s) => plain.push(s));
    expect((plain as unknown as { nums: number[] }).nums).toHaveLength(real.length);
  });

  it('keeps the hash and tokens of states the builder did not make (their own token arrays, empty or not, any hash)', () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const real = corpusRuns()[0]!.steps.map((step) => scorer.push(step).state);
    const states = real.slice(0, 12).map((s, i) => ({ ...s, hash: `h${i % 3}`, tokens: i % 2 === 0 ? [] : [...s.tokens, 'x'] }));
    // A terminal state's own token array with another hash than its facts'.
    const terminal = real.find((s) => s.tokens.length > 0)!;
    states.push({ ...terminal, hash: 'other' });
    const columns = new StateColumns();
    states.forEach((s) => columns.push(s));
    states.forEach((s, i) => {
      expect(columns.at(i)).toStrictEqual(s);
      expect(columns.at(i)!.tokens).toBe(s.tokens);
      expect(columns.at(i)!.hash).toBe(s.hash);
    });
  });

  it('names up to 255 tools by index and keeps the tools of states beyond that aside', () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const real = corpusRuns()[0]!.steps.map((step) => scorer.push(step).state);
    const states = Array.from({ length: 600 }, (_, i) => ({ ...real[i % real.length]!, t: i, tool: `tool-${i % 400}` }));
    const columns = new StateColumns();
    states.forEach((s) => columns.push(s));
    expect(columns.all()).toStrictEqual(states);
  });

  it('names up to 254 files by index in the code (one pointer a state), the files of states beyond that aside', () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const real = corpusRuns()[0]!.steps.map((step) => scorer.push(step).state);
    // No file, the empty name, 400 distinct files (each twice), and costs on both sides of the packed bound (2^23 - 1).
    const costs = [0, 2 ** 23 - 1, 2 ** 23, 2 ** 31 - 1, 5];
    const states = Array.from({ length: 900 }, (_, i) => {
      const s: State = { ...real[i % real.length]!, t: i, cost: costs[i % costs.length]! };
      if (i % 9 === 0) delete s.file;
      else s.file = i % 9 === 1 ? '' : `pkg/mod${(i * 7) % 400}.py`;
      return s;
    });
    const columns = new StateColumns();
    states.forEach((s) => columns.push(s));
    expect(columns.all()).toStrictEqual(states);
    states.forEach((s, i) => expect(Object.is(columns.at(i)!.cost, s.cost)).toBe(true));
    // The corpus runs: one reference a state (hash and tokens), the file in the code's number (two before this pass).
    const all = corpusRuns().flatMap((run) => {
      const own = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
      return run.steps.map((step) => own.push(step).state);
    });
    const plain = new StateColumns();
    all.forEach((s) => plain.push(s));
    expect(all.filter((s) => s.file !== undefined).length).toBeGreaterThan(all.length / 2);
    expect((plain as unknown as { refs: unknown[] }).refs).toHaveLength(all.length);
    expect(plain.all()).toStrictEqual(all);
  });

  it('keeps t aside only for states whose t is not their position (-0, gaps, fractions)', () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const real = corpusRuns()[0]!.steps.map((step) => scorer.push(step).state);
    const ts = [-0, 1, 5, 3, 4, 4.5, 6, 7];
    const states = ts.map((t, i) => ({ ...real[i % real.length]!, t }));
    const columns = new StateColumns();
    states.forEach((s) => columns.push(s));
    expect(columns.all()).toStrictEqual(states);
    expect(Object.is(columns.at(0)!.t, -0)).toBe(true);
  });

  it('every flag and optional field survives on its own (each combination the corpus holds)', () => {
    const seen = new Set<string>();
    for (const run of corpusRuns()) {
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
      for (const step of run.steps) {
        const s = scorer.push(step).state;
        seen.add(Object.keys(s).join(','));
      }
    }
    // The corpus has states with and without file, range, scope, changesEnv and variant.
    for (const key of ['file', 'range', 'scope', 'changesEnv', 'variant']) expect([...seen].some((k) => k.split(',').includes(key))).toBe(true);
  });

  it('the scorer keeps no state object it returned beyond a few recent ones (the cycle ring), yet gives every state back', async () => {
    const gc = (): void => {
      v8.setFlagsFromString('--expose-gc');
      (vm.runInNewContext('gc') as () => void)();
    };
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const steps = corpusRuns()
      .flatMap((r) => r.steps)
      .slice(0, 200);
    const refs: Array<WeakRef<State>> = [];
    let json = '';
    for (const [t, step] of steps.entries()) {
      const state = scorer.push({ ...step, t }).state;
      refs.push(new WeakRef(state));
      json += JSON.stringify(state);
    }
    // WeakRef targets stay until the task that made them ends.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    expect(alive).toBeLessThanOrEqual(DEFAULT_POLICY.cycle.maxBlock + 3);
    expect(
      scorer
        .states()
        .map((s) => JSON.stringify(s))
        .join(''),
    ).toBe(json);
  });
});

import { describe, expect, it } from 'vitest';
import { compare, conf, DEFAULT_TAU, equivalent } from '../../src/core/equivalence.js';
import { commandState, makeState } from './state-factory.js';

describe('compare: tiers', () => {
  it('content: equal hash gives 1.0 whatever else differs', () => {
    const a = makeState({ hash: 'same', file: 'a.py', range: [1, 2] });
    const b = makeState({ hash: 'same', file: 'b.py', kind: 'edit' });
    expect(compare(a, b)).toEqual({ tier: 'content', conf: 1 });
  });

  it('scope: equal scopes give 0.90; different or one-sided scopes fall through', () => {
    const a = makeState({ scope: 'm.py::A.f', file: 'm.py', range: [1, 5] });
    const b = makeState({ scope: 'm.py::A.f', file: 'm.py', range: [100, 120] });
    expect(compare(a, b)).toEqual({ tier: 'scope', conf: 0.9 });
    const c = makeState({ scope: 'm.py::A.g', file: 'm.py', range: [1, 5] });
    expect(compare(a, c).tier).toBe('range');
    const d = makeState({ file: 'm.py', range: [200, 300] });
    expect(compare(a, d)).toEqual({ tier: 'none', conf: 0 });
  });

  it('range: overlap exactly 0.3 gives 0.80', () => {
    const a = makeState({ file: 'a.py', range: [1, 10] });
    const b = makeState({ file: 'a.py', range: [8, 20] });
    expect(compare(a, b)).toEqual({ tier: 'range', conf: 0.8 });
  });

  it('range: full overlap and containment give 0.95', () => {
    const a = makeState({ file: 'a.py', range: [1, 10] });
    expect(conf(a, makeState({ file: 'a.py', range: [1, 10] }))).toBeCloseTo(0.95, 12);
    expect(conf(makeState({ file: 'a.py', range: [5, 6] }), makeState({ file: 'a.py', range: [1, 100] }))).toBeCloseTo(0.95, 12);
  });

  it('range: overlap 0.65 is linear between the ends', () => {
    const a = makeState({ file: 'a.py', range: [1, 20] });
    const b = makeState({ file: 'a.py', range: [8, 100] });
    expect(conf(a, b)).toBeCloseTo(0.8 + (0.15 * (0.65 - 0.3)) / 0.7, 12);
  });

  it('range: a missing range is the whole file, overlapping any range fully', () => {
    const whole = makeState({ file: 'a.py' });
    expect(compare(whole, makeState({ file: 'a.py', range: [40, 80] })).tier).toBe('range');
    expect(conf(whole, makeState({ file: 'a.py', range: [40, 80] }))).toBeCloseTo(0.95, 12);
    expect(conf(whole, makeState({ file: 'a.py' }))).toBeCloseTo(0.95, 12);
    expect(conf(whole, makeState({ file: 'b.py' }))).toBe(0);
  });

  it('range: the spec example, lines 40-80 vs 50-90', () => {
    const a = makeState({ file: 'a.py', range: [40, 80] });
    const b = makeState({ file: 'a.py', range: [50, 90] });
    expect(conf(a, b)).toBeCloseTo(0.8 + (0.15 * (31 / 41 - 0.3)) / 0.7, 12);
  });

  it('range below 0.3 falls through to the token tier, then to none', () => {
    const a = commandState('sed -n 1,10p a.py', { file: 'a.py', range: [1, 10] });
    const b = commandState('sed -n 9,20p a.py', { file: 'a.py', range: [9, 20] });
    expect(compare(a, b)).toEqual({ tier: 'tokens', conf: 0.7 + (0.15 * (3 / 5 - 0.5)) / 0.5 });
    const c = makeState({ file: 'a.py', range: [9, 20] });
    expect(compare(a, c)).toEqual({ tier: 'none', conf: 0 });
  });

  it('tokens: J exactly 0.5 gives 0.70, J = 1 gives 0.85, below 0.5 gives 0', () => {
    const a = commandState('a b c');
    expect(compare(a, commandState('a b d'))).toEqual({ tier: 'tokens', conf: 0.7 });
    expect(conf(a, commandState('c b a'))).toBeCloseTo(0.85, 12);
    expect(compare(commandState('a b'), commandState('a c'))).toEqual({ tier: 'none', conf: 0 });
  });

  it('tokens: real pytest commands from the corpus (J = 0.7)', () => {
    const a = commandState('python -m pytest ./tests/unittest_brain_builtin.py -xvs -k format');
    const b = commandState('python -m pytest ./tests/unittest_brain_builtin.py -xvs -k format 2>&1 | head');
    expect(conf(a, b)).toBeCloseTo(0.76, 12);
  });

  it('tokens: needs both sides to be terminal commands', () => {
    const a = commandState('a b c');
    const b = makeState({ tokens: ['a', 'b', 'c'], command: false });
    expect(compare(a, b).tier).toBe('none');
  });

  it('is symmetric', () => {
    const a = makeState({ file: 'a.py', range: [1, 10] });
    const b = makeState({ file: 'a.py', range: [8, 40] });
    expect(conf(a, b)).toBe(conf(b, a));
  });
});

describe('equivalent', () => {
  it('never holds across stages, even with equal hashes', () => {
    const a = makeState({ hash: 'x', stage: 'E' });
    const b = makeState({ hash: 'x', stage: 'V' });
    expect(conf(a, b)).toBe(1);
    expect(equivalent(a, b, DEFAULT_TAU)).toBe(false);
    expect(equivalent(a, { ...b, stage: 'E' }, DEFAULT_TAU)).toBe(true);
  });

  it('compares conf with tau inclusively', () => {
    const a = commandState('a b c');
    const b = commandState('a b d');
    expect(equivalent(a, b, 0.7)).toBe(true);
    expect(equivalent(a, b, 0.71)).toBe(false);
  });
});

describe('command-token tier size bound', () => {
  it('pairs whose set sizes alone put J below 0.5 never reach the tier (and agree with the exact Jaccard)', () => {
    const a = commandState('pytest tests');
    const b = commandState('pytest tests -x -q --tb=short');
    expect(b.tokens.length / a.tokens.length).toBeGreaterThan(2);
    expect(compare(a, b).tier).toBe('none');
    const c = commandState('pytest tests -x');
    expect(compare(a, c)).toEqual({ tier: 'tokens', conf: 0.7 + (0.15 * (2 / 3 - 0.5)) / 0.5 });
  });
});

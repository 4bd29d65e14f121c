import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { classifyLucky, luckyReference, type LuckyInput } from '../../src/core/lucky.js';
import type { ScoreVector, State, WasteItem } from '../../src/core/types.js';
import { fromStages, st } from '../fixtures/make-state.js';

const TH = DEFAULT_CONFIG.lucky;
const score = (over: Partial<ScoreVector> = {}): ScoreVector => ({ total: 30, struct: 50, cov: 50, coh: 0.5, temp: 0.5, ...over });
const classify = (states: State[], over: Partial<LuckyInput> = {}) => classifyLucky({ states, score: score(), waste: [], reference: { medianLength: 20, implTargets: 2 }, ...over }, TH);
const wasted = (n: number): WasteItem[] => [{ category: 'blind_retry', steps: Array.from({ length: n + 1 }, (_, i) => i), tool: 'bash', wastedSteps: n, wastedTokens: 0 }];

describe('Lucky taxonomy', () => {
  it('C1: at most 8 states and no V', () => {
    expect(classify(fromStages('EEEEIIIO'))).toBe('C1');
    expect(classify(fromStages('EEEEIIIOE'))).not.toBe('C1');
    expect(classify(fromStages('EEEEIIIV'))).not.toBe('C1');
  });

  it('C2: wasted steps >= 30 % of states, or coherence < 0.4', () => {
    const states = fromStages('EEEEEIIIVV'); // 10 states
    expect(classify(states, { waste: wasted(3) })).toBe('C2');
    expect(classify(states, { waste: wasted(2) })).toBe('unclassified');
    expect(classify(states, { score: score({ coh: 0.3999 }) })).toBe('C2');
    expect(classify(states, { score: score({ coh: 0.4 }) })).toBe('unclassified');
  });

  it('C4: length >= 2 × reference median and E share >= 60 %', () => {
    const states = fromStages(`${'E'.repeat(24)}${'IV'.repeat(8)}`); // 40 states, 60 % E
    expect(classify(states)).toBe('C4');
    expect(classify(states, { reference: { medianLength: 20.5, implTargets: 2 } })).not.toBe('C4');
    const lessE = fromStages(`${'E'.repeat(23)}${'IV'.repeat(8)}V`);
    expect(classify(lessE)).not.toBe('C4');
    expect(classify(states, { reference: undefined })).not.toBe('C4');
  });

  it('C3: coverage < 30 and fewer distinct I targets than the reference', () => {
    const states = [...fromStages('EEEV'), st(4, 'I', { file: 'a.py' }), st(5, 'I', { file: 'a.py' }), st(6, 'V'), st(7, 'V'), st(8, 'E')];
    expect(classify(states, { score: score({ cov: 29.9 }) })).toBe('C3');
    expect(classify(states, { score: score({ cov: 30 }) })).toBe('unclassified');
    expect(classify(states, { score: score({ cov: 29.9 }), reference: { medianLength: 20, implTargets: 1 } })).toBe('unclassified');
  });

  it('C5: struct < 30, coherence >= 0.6 and a V after the last I', () => {
    const states = fromStages('EEEIIVEV');
    const good = score({ struct: 29.9, coh: 0.6 });
    expect(classify(states, { score: good })).toBe('C5');
    expect(classify(states, { score: { ...good, struct: 30 } })).toBe('unclassified');
    expect(classify(states, { score: { ...good, coh: 0.5999 } })).toBe('unclassified');
    expect(classify(fromStages('EEEVVIIE'), { score: good })).toBe('unclassified');
    expect(classify(states, { score: { ...good, struct: null, cov: null } })).toBe('unclassified');
  });

  it('first match wins: C1 before C2', () => {
    expect(classify(fromStages('EEII'), { score: score({ coh: 0 }) })).toBe('C1');
  });

  it('reference medians', () => {
    expect(
      luckyReference([
        { length: 10, implTargets: 1 },
        { length: 30, implTargets: 3 },
        { length: 20, implTargets: 2 },
      ]),
    ).toEqual({ medianLength: 20, implTargets: 2 });
    expect(
      luckyReference([
        { length: 10, implTargets: 1 },
        { length: 20, implTargets: 3 },
      ]),
    ).toEqual({ medianLength: 15, implTargets: 2 });
    expect(luckyReference([])).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from '../../src/core/config.js';
import { DEFAULT_POLICY, canStop, policyInputSchema, resolvePolicy, warnOnly } from '../../src/core/policy.js';

describe('resolveConfig', () => {
  it('holds the method defaults', () => {
    expect(DEFAULT_CONFIG.weights).toEqual({ struct: 0.2, cov: 0.15, coh: 0.3, temp: 0.35 });
    expect(DEFAULT_CONFIG.tiers).toEqual({ ideal: 70, solid: 47, partial: 47 });
    expect([DEFAULT_CONFIG.tau, DEFAULT_CONFIG.epsilon, DEFAULT_CONFIG.alpha, DEFAULT_CONFIG.charsPerToken]).toEqual([0.7, 1e-6, 0.01, 4]);
    expect(resolveConfig(undefined)).toEqual({ ok: true, value: DEFAULT_CONFIG });
  });

  it('merges a partial deep override', () => {
    const r = resolveConfig({ weights: { coh: 0.5 }, lucky: { c1MaxStates: 5 } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.weights).toEqual({ struct: 0.2, cov: 0.15, coh: 0.5, temp: 0.35 });
    expect(r.value.lucky.c1MaxStates).toBe(5);
    expect(r.value.lucky.c2MaxCoh).toBe(0.4);
    expect(r.value.tau).toBe(0.7);
  });

  it.each([
    [{ weights: { struct: -1 } }, 'weights.struct'],
    [{ weights: { struct: 0, cov: 0, coh: 0, temp: 0 } }, 'sum to more than 0'],
    [{ weights: { coh: 0, temp: 0 } }, 'weights.coh + weights.temp'],
    [{ tiers: { solid: 80 } }, 'tiers.solid (80) must not exceed tiers.ideal (70)'],
    [{ tau: 1.5 }, 'tau'],
    [{ waste: { cycleMinBlock: 5 } }, 'cycleMinBlock'],
    [{ bogus: 1 }, 'bogus'],
    ['weights', 'expected object'],
  ])('rejects %j naming the problem', (input, needle) => {
    const r = resolveConfig(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(needle);
  });
});

describe('resolvePolicy', () => {
  it('defaults (portable, chosen leave-one-source-out): every kind only warns, no action included; budgets off', () => {
    expect(DEFAULT_POLICY.blindRetry).toEqual({ warn: 2, stop: null });
    expect(DEFAULT_POLICY.explorationStreak).toEqual({ warn: 10, stop: null, resetOnWrite: true });
    expect(DEFAULT_POLICY.lowScore).toEqual({ floor: 50, minSteps: 30, severity: 'warn' });
    expect(DEFAULT_POLICY.regressionLoop).toEqual({ warn: 2, stop: null });
    expect(DEFAULT_POLICY.cycle).toEqual({ warn: 2, stop: null, minBlock: 2, maxBlock: 4 });
    expect(DEFAULT_POLICY.noAction).toEqual({ warn: 2, stop: null });
    expect(canStop(DEFAULT_POLICY)).toBe(false);
    expect(DEFAULT_POLICY.budget.maxSteps).toBeNull();
    expect(DEFAULT_POLICY.budget.maxTokens).toBeNull();
    expect(resolvePolicy(undefined)).toEqual({ ok: true, value: DEFAULT_POLICY });
  });

  it('warnOnly turns every stop into a warn at its level; canStop says whether any kind stops', () => {
    const stopping = resolvePolicy({ noAction: { warn: null, stop: 2 } });
    if (!stopping.ok) throw new Error(stopping.error);
    const w = warnOnly(stopping.value);
    expect(w.cycle).toEqual({ warn: 2, stop: null, minBlock: 2, maxBlock: 4 });
    expect(w.noAction).toEqual({ warn: 2, stop: null });
    expect(w.budget.severity).toBe('warn');
    expect(canStop(stopping.value)).toBe(true);
    expect(canStop(w)).toBe(false);
    expect(resolvePolicy(w).ok).toBe(true);
    expect(canStop({ ...w, budget: { maxSteps: 10, maxTokens: null, severity: 'stop' } })).toBe(true);
    expect(canStop({ ...w, lowScore: { floor: 20, minSteps: 1, severity: 'stop' } })).toBe(true);
  });

  it('overrides any threshold and severity', () => {
    const r = resolvePolicy({ blindRetry: { stop: null }, lowScore: { severity: 'stop', floor: 30 }, budget: { maxSteps: 50 } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.blindRetry).toEqual({ warn: DEFAULT_POLICY.blindRetry.warn, stop: null });
    expect(r.value.lowScore).toEqual({ floor: 30, minSteps: DEFAULT_POLICY.lowScore.minSteps, severity: 'stop' });
    expect(r.value.budget).toEqual({ maxSteps: 50, maxTokens: null, severity: 'stop' });
  });

  it.each([
    [{ blindRetry: { warn: 6, stop: 6 } }, 'blindRetry.warn (6) must be below blindRetry.stop (6)'],
    [{ regressionLoop: { warn: 0 } }, 'regressionLoop.warn'],
    [{ lowScore: { severity: 'panic' } }, 'lowScore.severity'],
    [{ cycle: { minBlock: 4, maxBlock: 3 } }, 'cycle.minBlock'],
    [{ nope: true }, 'nope'],
  ])('rejects %j naming the problem', (input, needle) => {
    const r = resolvePolicy(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(needle);
  });

  it('exports the input schema for the protocol layer', () => {
    expect(policyInputSchema.safeParse({ blindRetry: { warn: 2 } }).success).toBe(true);
    expect(policyInputSchema.safeParse({ blindRetry: { warn: 'x' } }).success).toBe(false);
  });
});

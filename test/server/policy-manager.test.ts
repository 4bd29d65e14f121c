/** The policy manager's rules on hand-made runs: share, promotion, withdrawal, freeze, pins, restore. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, resolvePolicy } from '../../src/core/policy.js';
import { PolicyManager } from '../../src/server/policy-manager.js';
import { pairKey } from '../../src/server/policy-pairs.js';
import { MemoryPolicyStateStore } from '../../src/store/policy-state.js';
import { distinct, states, type StateSpec } from '../calibrate/states.js';

const log = pino({ level: 'silent' });
const T = 'default';
/** A configured policy whose own stops (no action 3) are the `configured` candidate. */
const configured = resolvePolicy({ cycle: { stop: null }, noAction: { stop: 3 } });
if (!configured.ok) throw new Error(configured.error);
const CONFIGURED = configured.value;
const SHADOW = { share: 0.25, maxFalseStop: 0.5, confidence: 0.95, bound: 'clopper-pearson' as const };
const clean = (i: number) => states(distinct(6, `c${i}-`));
const none: StateSpec = { stage: 'O', hash: 'n', kind: 'none' };
/** Three empty turns after `lead` steps: `noAction 2` stops it at index lead + 1, `noAction 3` one later. */
const empty = (lead: number) => states([...distinct(lead, 'e'), none, none, none, ...distinct(3, 'z')]);
const record = (m: PolicyManager, s: ReturnType<typeof states>, passed: boolean) => m.record(pairKey(T, 'a', 'm'), { states: s, totals: s.map(() => 100), passed });

describe('PolicyManager', () => {
  it("draws an exact share of an enforced pair's sessions into shadow", async () => {
    const m = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, SHADOW, undefined, log);
    const m2 = PolicyManager.plain({ groups: [], fallback: DEFAULT_POLICY }, log);
    expect(m2.assign(T, 'a', 'm')).toMatchObject({ shadow: false, selected: 'fallback', policy: DEFAULT_POLICY });
    expect(m.pin('a', 'm', {}).ok).toBe(true);
    const shadow = Array.from({ length: 12 }, () => m.assign(T, 'a', 'm').shadow);
    expect(shadow).toEqual([false, false, false, true, false, false, false, true, false, false, false, true]);
  });

  it('promotes the qualifying candidate that saves most, withdraws it when a passing run it would stop comes in, unless frozen', async () => {
    const store = new MemoryPolicyStateStore();
    const m = await PolicyManager.open({ groups: [], fallback: CONFIGURED }, SHADOW, store, log);
    expect(m.assign(T, 'a', 'm')).toMatchObject({ shadow: true });
    for (let i = 0; i < 5; i++) record(m, clean(i), true);
    record(m, empty(3), false);
    const e = m.pairs.peek(pairKey(T, 'a', 'm'))!;
    expect(e.state.promoted).toBe('noAction 2');
    expect(m.assign(T, 'a', 'm').policy.noAction.stop).toBe(2);
    // A passing run with three empty turns: noAction 2 now stops 1 of 6 (upper bound 58 % > 50 %).
    record(m, empty(1), true);
    expect(e.state.promoted).not.toBe('noAction 2');
    m.freeze('a', 'm', true);
    const held = e.state.promoted;
    for (let i = 0; i < 3; i++) record(m, empty(2 + i), false);
    expect(e.state.promoted).toBe(held);
    m.freeze('a', 'm', false);
    record(m, empty(9), false);
    expect(e.state.counters.candidates.configured?.failingStopped).toBe(5);
    await m.flush();
    // Restored from the store: same counters; a changed configured policy drops its `configured` counters.
    const again = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, SHADOW, store, log);
    const r = again.pairs.peek(pairKey(T, 'a', 'm'))!;
    expect(r.state.counters.passing).toBe(6);
    expect(r.state.counters.failing).toBe(5);
    expect(r.state.counters.candidates.configured).toBeUndefined();
    const same = await PolicyManager.open({ groups: [], fallback: CONFIGURED }, SHADOW, store, log);
    expect(same.pairs.peek(pairKey(T, 'a', 'm'))!.state).toEqual(e.state);
  });

  it('a damaged state file is set aside with a warning, not fatal', async () => {
    const store = new MemoryPolicyStateStore();
    await store.save({ format: 'steplens-policy-state', version: 1, pairs: [{ agent: 'a' }] });
    const warnings: string[] = [];
    const spy = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const m = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, SHADOW, store, spy);
    expect(m.pairs.size).toBe(0);
    expect(warnings.join('')).toContain('policy state ignored');
  });

  it("counts each tenant's outcomes in its own pair: one tenant's fake outcomes never promote a stop for another's sessions", async () => {
    const m = await PolicyManager.open({ groups: [], fallback: CONFIGURED }, SHADOW, undefined, log);
    expect(m.assign('victim', 'a', 'm')).toMatchObject({ shadow: true });
    expect(m.assign('mallory', 'a', 'm')).toMatchObject({ shadow: true });
    const fake = (s: ReturnType<typeof states>, passed: boolean) => m.record(pairKey('mallory', 'a', 'm'), { states: s, totals: s.map(() => 100), passed });
    for (let i = 0; i < 5; i++) fake(clean(i), true);
    fake(empty(3), false);
    expect(m.pairs.peek(pairKey('mallory', 'a', 'm'))!.state.promoted).toBe('noAction 2');
    // Mallory's own sessions now stop at noAction 2; the victim's, same agent and model, still only warn.
    expect(m.assign('mallory', 'a', 'm').policy.noAction.stop).toBe(2);
    expect(m.pairs.peek(pairKey('victim', 'a', 'm'))!.state.promoted).toBeNull();
    const victim = m.assign('victim', 'a', 'm');
    expect(victim.shadow).toBe(true);
    expect(victim.selected).toContain('shadow (warn only)');
  });

  it("an operator's pin and freeze hold for every tenant's pair of that agent + model, and survive a restart", async () => {
    const store = new MemoryPolicyStateStore();
    const m = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, undefined, store, log);
    expect(m.pin('a', 'm', { blindRetry: { warn: 1, stop: 2 } }).ok).toBe(true);
    for (const tenant of ['t1', 't2']) expect(m.assign(tenant, 'A ', 'M')).toMatchObject({ selected: 'pinned', policy: { blindRetry: { stop: 2 } } });
    await m.flush();
    const again = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, undefined, store, log);
    expect(again.assign('t3', 'a', 'm').selected).toBe('pinned');
    expect(again.pin('a', 'm', null).ok).toBe(true);
    expect(again.pins.size).toBe(0);
  });

  it('restores a state file written before tenants: counters to the default tenant, pins and freezes for everyone', async () => {
    const store = new MemoryPolicyStateStore();
    const old = {
      agent: 'a',
      model: 'm',
      sessions: 3,
      counters: { passing: 2, failing: 1, failingSteps: 9, failingTokens: 0, candidates: {} },
      promoted: null,
      configured: 'x',
      pinned: { blindRetry: { warn: 2, stop: 3 } },
      frozen: true,
    };
    await store.save({ format: 'steplens-policy-state', version: 1, pairs: [old] });
    const m = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, SHADOW, store, log);
    expect(m.pairs.peek(pairKey('default', 'a', 'm'))!.state.counters.passing).toBe(2);
    expect([...m.pins.values()]).toEqual([{ agent: 'a', model: 'm', pinned: { blindRetry: { warn: 2, stop: 3 } }, frozen: true }]);
    expect(m.assign('someone', 'a', 'm').selected).toBe('pinned');
  });

  it("shares one policy's candidates and replay plan between its pairs, and keeps each pair's counters its own", async () => {
    const other = resolvePolicy({ noAction: { stop: 4 } });
    if (!other.ok) throw new Error(other.error);
    const set = { groups: [{ match: { agent: 'x' }, policy: other.value }], fallback: CONFIGURED };
    const m = await PolicyManager.open(set, SHADOW, undefined, log);
    const m2 = PolicyManager.plain(set, log);
    for (const [tenant, agent] of [
      [T, 'a'],
      ['t2', 'a'],
      [T, 'b'],
      [T, 'x'],
    ] as const)
      m.assign(tenant, agent, 'm');
    m2.assign(T, 'c', 'm');
    const a = m.pairs.peek(pairKey(T, 'a', 'm'))!;
    const a2 = m.pairs.peek(pairKey('t2', 'a', 'm'))!;
    const b = m.pairs.peek(pairKey(T, 'b', 'm'))!;
    const x = m.pairs.peek(pairKey(T, 'x', 'm'))!;
    const c = m2.pairs.peek(pairKey(T, 'c', 'm'))!;
    for (const e of [a2, b, c]) {
      expect(e.candidates).toBe(a.candidates);
      expect(e.plan).toBe(a.plan);
      expect(e.warnOnly).toBe(a.warnOnly);
    }
    expect(x.configured).toBe(other.value);
    expect(x.candidates).not.toBe(a.candidates);
    expect(x.candidates.find((k) => k.id === 'configured')?.settings).toMatchObject({ noAction: 4 });
    expect(a.candidates.find((k) => k.id === 'configured')?.settings).toMatchObject({ noAction: 3 });
    record(m, empty(3), false);
    expect(a.state.counters.failing).toBe(1);
    expect(a.state.counters).not.toBe(a2.state.counters);
    expect([a2, b, x].map((e) => e.state.counters.failing)).toEqual([0, 0, 0]);
  });
});

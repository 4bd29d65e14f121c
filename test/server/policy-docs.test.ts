/**
 * `GET /v1/policies`' document built once per change and shared (T39): a tenant polling it gets the same bytes
 * without a rebuild until one of its pairs or a pin changes; another tenant's changes do not rebuild it; an
 * operator's view (every tenant) follows every change; the bytes always equal the document built fresh.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { PAIRS_PER_TURN, PolicyDocs } from '../../src/server/policy-docs.js';
import { PolicyManager } from '../../src/server/policy-manager.js';
import { pairKey } from '../../src/server/policy-pairs.js';
import { DEFAULT_SHADOW } from '../../src/server/shadow-options.js';
import { policiesStatus } from '../../src/server/policy-status.js';
import type { Principal } from '../../src/server/principal.js';
import { distinct, states } from '../calibrate/states.js';
import { eachTurnDuring } from '../loop-turns.js';

const log = pino({ level: 'silent' });
const A: Principal = { tenant: 'a', role: 'agent' };
const B: Principal = { tenant: 'b', role: 'agent' };
const OPS: Principal = { tenant: 'ops', role: 'operator' };

describe('GET /v1/policies documents', () => {
  it('rebuilds a view only when what it shows changed, and always answers what a fresh build would', async () => {
    const m = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, DEFAULT_SHADOW, undefined, log);
    const docs = new PolicyDocs(m);
    const check = async (p: Principal) => {
      const bytes = await docs.bytes(p);
      expect(bytes.toString('utf8')).toBe(JSON.stringify(policiesStatus(m, p)));
      return bytes;
    };
    for (let i = 0; i < 3; i++) m.assign('a', `agent${i}`, 'model');
    const first = await check(A);
    expect(docs.built).toBe(1);
    // Polled again and again: the same bytes, nothing built.
    for (let i = 0; i < 32; i++) expect(await docs.bytes(A)).toBe(first);
    expect(docs.built).toBe(1);
    // Another tenant's sessions change its own view, not this one's; an operator's view is built once for both.
    m.assign('b', 'agent0', 'model');
    expect(await docs.bytes(A)).toBe(first);
    await check(B);
    await check(OPS);
    expect(docs.built).toBe(3);
    // A session of the tenant (its pair's count), an outcome counted, a pin: each rebuilds what it changes.
    m.assign('a', 'agent0', 'model');
    const second = await check(A);
    expect(second).not.toBe(first);
    expect(await docs.bytes(B)).toBe(await docs.bytes(B));
    expect(docs.built).toBe(4);
    const run = states(distinct(6, 'r'));
    m.record(pairKey('a', 'agent0', 'model'), { states: run, totals: run.map(() => 100), passed: true });
    const doc = JSON.parse((await check(A)).toString('utf8')) as { pairs: Array<{ agent: string; runs: unknown }> };
    expect(doc.pairs.find((p) => p.agent === 'agent0')?.runs).toEqual({ passing: 1, failing: 0, failingSteps: 0, failingTokens: 0 });
    expect(m.pin('agent9', 'model', {}).ok).toBe(true);
    const built = docs.built;
    await check(A);
    await check(B);
    await check(OPS);
    expect(docs.built).toBe(built + 3);
  });

  it('builds an operator document of many pairs a few pairs a turn, and requests meanwhile share that build', async () => {
    const m = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, DEFAULT_SHADOW, undefined, log);
    for (let t = 0; t < 4; t++) for (let i = 0; i < 40; i++) m.assign(`t${t}`, `agent${i}`, 'model');
    expect(m.pin('agent3', 'model', {}).ok).toBe(true);
    const docs = new PolicyDocs(m);
    const expected = JSON.stringify(policiesStatus(m, OPS));
    // Turns of the event loop go by while the 160 pairs are built; a request and a change meanwhile join the build.
    let joined: Promise<Buffer> | undefined;
    const { value, seen } = await eachTurnDuring(
      () => docs.bytes(OPS),
      () => {
        if (joined === undefined) {
          m.assign('t0', 'agent0', 'model');
          joined = docs.bytes(OPS);
        }
        return docs.built;
      },
    );
    expect(value.toString('utf8')).toBe(expected);
    expect(seen.filter((b) => b === 0).length).toBeGreaterThanOrEqual(160 / PAIRS_PER_TURN - 1);
    expect(await joined).toBe(value);
    expect(docs.built).toBe(1);
    // The change came during the build: the next request builds again, and shows it.
    const after = await docs.bytes(OPS);
    expect(after.toString('utf8')).toBe(JSON.stringify(policiesStatus(m, OPS)));
    expect(after.toString('utf8')).not.toBe(expected);
    expect(docs.built).toBe(2);
  });
});

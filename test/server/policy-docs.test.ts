/**
 * `GET /v1/policies`' document built once per change and shared (T39): a tenant polling it gets the same bytes
 * without a rebuild until one of its pairs or a pin changes; another tenant's changes do not rebuild it; an
 * operator's view (every tenant) follows every change; the bytes always equal the document built fresh.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { PolicyDocs } from '../../src/server/policy-docs.js';
import { DEFAULT_SHADOW, PolicyManager, pairKey } from '../../src/server/policy-manager.js';
import { policiesStatus } from '../../src/server/policy-status.js';
import type { Principal } from '../../src/server/principal.js';
import { distinct, states } from '../calibrate/states.js';

const log = pino({ level: 'silent' });
const A: Principal = { tenant: 'a', role: 'agent' };
const B: Principal = { tenant: 'b', role: 'agent' };
const OPS: Principal = { tenant: 'ops', role: 'operator' };

describe('GET /v1/policies documents', () => {
  it('rebuilds a view only when what it shows changed, and always answers what a fresh build would', async () => {
    const m = await PolicyManager.open({ groups: [], fallback: DEFAULT_POLICY }, DEFAULT_SHADOW, undefined, log);
    const docs = new PolicyDocs(m);
    const check = (p: Principal) => {
      const bytes = docs.bytes(p);
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(policiesStatus(m, p))));
      return bytes;
    };
    for (let i = 0; i < 3; i++) m.assign('a', `agent${i}`, 'model');
    const first = check(A);
    expect(docs.built).toBe(1);
    // Polled again and again: the same bytes, nothing built.
    for (let i = 0; i < 32; i++) expect(docs.bytes(A)).toBe(first);
    expect(docs.built).toBe(1);
    // Another tenant's sessions change its own view, not this one's; an operator's view is built once for both.
    m.assign('b', 'agent0', 'model');
    expect(docs.bytes(A)).toBe(first);
    check(B);
    check(OPS);
    expect(docs.built).toBe(3);
    // A session of the tenant (its pair's count), an outcome counted, a pin: each rebuilds what it changes.
    m.assign('a', 'agent0', 'model');
    const second = check(A);
    expect(second).not.toBe(first);
    expect(docs.bytes(B)).toBe(docs.bytes(B));
    expect(docs.built).toBe(4);
    const run = states(distinct(6, 'r'));
    m.record(pairKey('a', 'agent0', 'model'), { states: run, totals: run.map(() => 100), passed: true });
    const doc = JSON.parse(check(A).toString('utf8')) as { pairs: Array<{ agent: string; runs: unknown }> };
    expect(doc.pairs.find((p) => p.agent === 'agent0')?.runs).toEqual({ passing: 1, failing: 0 });
    expect(m.pin('agent9', 'model', {}).ok).toBe(true);
    const built = docs.built;
    check(A);
    check(B);
    check(OPS);
    expect(docs.built).toBe(built + 3);
  });
});

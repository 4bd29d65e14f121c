/**
 * Who added each reference (`by`) survives a PTA version being built from its Redis chain on another replica. The
 * chain kept only each added reference's states, so every replica that read the version back (another one, or
 * this one after a restart or once its cache let it go) saw the reference as nobody's: the per-task bound of a
 * tenant's references (counted in the PTA, "so replicas agree") then counted none of them, and a tenant past its 2
 * references to a shared task added a third through another replica. Real runs of pylint-dev__astroid-1196 on a
 * task without a seed.
 */
import { describe, expect, it } from 'vitest';
import { ASTROID, readDoc, type Running, bearerJson } from '../server/helpers.js';
import { freshPrefix, startReplica, useRedis } from './replicas.js';

const TASK = 'attribution-task';
const TOKENS = [
  { token: 'mallory', tenant: 'mallory' },
  { token: 'alice', tenant: 'alice' },
  { token: 'op', tenant: 'ops', role: 'operator' as const },
];
const as = bearerJson;

const fx = useRedis();

async function addRef(r: Running, token: string, file: string): Promise<{ status: number; body: { version?: number; error?: { code: string } } }> {
  const res = await fetch(`${r.url}/v1/tasks/${TASK}/references`, { method: 'POST', headers: as(token), body: JSON.stringify({ trajectory: await readDoc(file) }) });
  return { status: res.status, body: (await res.json()) as { version?: number; error?: { code: string } } };
}

describe("a reference's tenant, across replicas", () => {
  it('is kept in the chain: another replica counts it, and a tenant past its references to a task is refused there too', async () => {
    const prefix = freshPrefix('attribution');
    const options = { tokens: TOKENS, referenceScope: 'shared' as const };
    const a = await startReplica(fx.redis, prefix, 'replica-a', options);
    const b = await startReplica(fx.redis, prefix, 'replica-b', options);
    fx.running.push(a, b);
    expect((await addRef(a, 'mallory', ASTROID.passA)).body.version).toBe(1);
    expect((await addRef(a, 'mallory', ASTROID.passB)).body.version).toBe(2);
    // Its third, through the other replica (it adds no node: the novelty rule lets it through).
    const third = await addRef(b, 'mallory', ASTROID.passA);
    expect([third.status, third.body.error?.code]).toEqual([429, 'quota_exceeded']);
    // An operator on that replica sees both references as mallory's.
    const pta = (await (await fetch(`${b.url}/v1/tasks/${TASK}/pta`, { headers: as('op') })).json()) as { version: number; references: Array<{ by?: string }> };
    expect([pta.version, pta.references.map((r) => r.by)]).toEqual([2, ['mallory', 'mallory']]);
    // Another tenant's references are counted apart.
    expect((await addRef(b, 'alice', ASTROID.passA)).body.version).toBe(3);
  }, 60_000);
});

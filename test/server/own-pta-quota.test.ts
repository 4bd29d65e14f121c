/**
 * A tenant's own PTAs, every task together, hold at most `ptaBytesPerTenant` bytes of JSON (src/server/own-pta-quota.ts).
 * Before, one agent token could fill the data folder: 60 references an hour, each task's own PTA up to 16 MiB, none
 * ever removed. Past the quota a reference (POST, or a `learn` session) is refused `quota_exceeded` naming the bytes
 * and the limit, nothing is stored, the PTAs the tenant holds stay as they were, other tenants and operators go on,
 * and the count holds across a restart (it is read from the store). Real runs of pylint-dev__astroid-1196.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OwnPtaQuota } from '../../src/server/own-pta-quota.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { ownTaskKey } from '../../src/store/tenant-keys.js';
import { statesOf } from '../store/states.js';
import { ASTROID, Client, readDoc, readEvents, useApps, type Running, bearerJson } from './helpers.js';

const TOKENS = [
  { token: 'alice', tenant: 'alice' },
  { token: 'mallory', tenant: 'mallory' },
  { token: 'op', tenant: 'ops', role: 'operator' as const },
];
const as = bearerJson;
type Answer = { status: number; body: { version?: number; scope?: string; error?: { code: string; message: string } } };

const apps = useApps();

async function addRef(srv: Running, token: string, task: string): Promise<Answer> {
  const res = await fetch(`${srv.url}/v1/tasks/${task}/references`, { method: 'POST', headers: as(token), body: JSON.stringify({ trajectory: await readDoc(ASTROID.passA) }) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** The PTA files of a data folder, name -> bytes. */
async function files(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of await readdir(dir)) if (name.endsWith('.json')) out.set(name, (await stat(path.join(dir, name))).size);
  return out;
}

describe('the bytes of a tenant’s own PTAs', () => {
  it('are bounded: past the quota a reference is refused quota_exceeded, nothing stored, everything held kept, across a restart', async () => {
    // One own PTA of one run: its bytes set the quota to two and a half of them.
    const probe = await apps.start('probe', { tokens: TOKENS });
    expect((await addRef(probe, 'mallory', 'q1')).status).toBe(201);
    const [one] = [...(await files(apps.dir('probe'))).values()];
    const limit = Math.floor(2.5 * one!);
    const options = { tokens: TOKENS, limits: { ptaBytesPerTenant: limit } };

    let srv = await apps.start('quota', options);
    expect((await addRef(srv, 'mallory', 'q1')).body).toMatchObject({ version: 1, scope: 'tenant' });
    expect((await addRef(srv, 'mallory', 'q2')).body).toMatchObject({ version: 1, scope: 'tenant' });
    const held = await files(apps.dir('quota'));
    expect([...held.values()].reduce((a, b) => a + b, 0)).toBe(2 * one!);

    const refused = await addRef(srv, 'mallory', 'q3');
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('quota_exceeded');
    expect(refused.body.error?.message).toContain(`over its limit of ${limit} (ptaBytesPerTenant; they hold ${2 * one!})`);
    expect(refused.body.error?.message).toContain('task q3');
    // Nothing stored, nothing lost: the same files, the same bytes; the PTAs held still read.
    expect(await files(apps.dir('quota'))).toEqual(held);
    const q1 = await fetch(`${srv.url}/v1/tasks/q1/pta`, { headers: as('mallory') });
    expect(((await q1.json()) as { version: number }).version).toBe(1);
    // Another tenant has its own quota; an operator grows the shared PTA.
    expect((await addRef(srv, 'alice', 'q3')).body).toMatchObject({ version: 1, scope: 'tenant' });
    expect((await addRef(srv, 'op', 'q3')).body).toMatchObject({ version: 1, scope: 'shared' });

    // A learn session past the quota: its final says why nothing was learned.
    const c = await Client.connect(srv.wsUrl, as('mallory'));
    c.send({ type: 'start', session: 'learn', task: 'q4', format: 'mini-swe-agent', learn: true });
    await c.nextOf('started', 'learn');
    (await readEvents(ASTROID.passA)).forEach((step, seq) => c.send({ type: 'step', session: 'learn', seq, step }));
    c.send({ type: 'outcome', session: 'learn', passed: true });
    c.send({ type: 'end', session: 'learn' });
    const final = await c.nextOf('final', 'learn');
    c.close();
    expect(final.learned).toMatchObject({ error: { code: 'quota_exceeded' } });

    // After a restart the quota counts what the folder holds.
    await srv.app.close();
    srv = await apps.start('quota', options);
    expect((await addRef(srv, 'mallory', 'q5')).body.error?.code).toBe('quota_exceeded');
    expect((await addRef(srv, 'alice', 'q5')).status).toBe(201);
  }, 60_000);

  it('are released by removing one: a tenant at its quota removes an own PTA, then adds again', async () => {
    const probe = await apps.start('probe-release', { tokens: TOKENS });
    expect((await addRef(probe, 'mallory', 'r1')).status).toBe(201);
    const [one] = [...(await files(apps.dir('probe-release'))).values()];
    const srv = await apps.start('release', { tokens: TOKENS, limits: { ptaBytesPerTenant: Math.floor(2.5 * one!) } });
    for (const task of ['r1', 'r2']) expect((await addRef(srv, 'mallory', task)).status).toBe(201);
    expect((await addRef(srv, 'mallory', 'r3')).body.error?.code).toBe('quota_exceeded');
    const removed = await fetch(`${srv.url}/v1/tasks/r1/pta`, { method: 'DELETE', headers: { authorization: 'Bearer mallory' } });
    expect([removed.status, await removed.json()]).toEqual([200, { task: 'r1', scope: 'tenant', version: 1 }]);
    // The bytes it held are free again: the next reference is taken (and the one after is refused again).
    expect((await addRef(srv, 'mallory', 'r3')).body).toMatchObject({ version: 1, scope: 'tenant' });
    expect((await addRef(srv, 'mallory', 'r1')).body.error?.code).toBe('quota_exceeded');
  }, 60_000);
});

describe('what the store still keeps of removed PTAs (T79)', () => {
  it('counts for the keep time: a tenant adding and removing its PTA again and again stops at twice its limit, then goes on once they expire', async () => {
    const store = await ReferenceStore.open({ dataDir: apps.dir('kept') });
    const states = await statesOf(ASTROID.passA);
    const x = ownTaskKey('t', 'x');
    const one = Buffer.byteLength(JSON.stringify(await store.addReference(ownTaskKey('t', 'probe'), states, { by: 't' })));
    await store.remove(ownTaskKey('t', 'probe'));
    let clock = 0;
    // Room for one PTA; the file store frees a removed PTA at once, so it is made to answer as Redis does (35 min kept).
    const quota = new OwnPtaQuota(store, Math.floor(1.25 * one), () => clock);
    const keep = 35 * 60_000;
    const cycle = async (): Promise<string | undefined> => {
      try {
        await quota.add('t', 'x', (admit) => store.addReference(x, states, { by: 't', admit }));
      } catch (error) {
        return (error as Error).message;
      }
      await quota.remove('t', async () => {
        const removed = await store.remove(x);
        return removed && { ...removed, keptMs: keep };
      });
      return undefined;
    };
    const taken = async (): Promise<{ n: number; refused: string | undefined }> => {
      for (let n = 0; n < 20; n++) {
        const refused = await cycle();
        if (refused !== undefined) return { n, refused };
      }
      return { n: 20, refused: undefined };
    };
    // Before: 20 of 20, each one left in Redis for 35 min. Now 2: the third would make 3 PTAs, past 2 x 1.25.
    const first = await taken();
    expect(first.n).toBe(2);
    expect(first.refused).toMatch(new RegExp(`and with the \\d+ bytes of those it removed that the store still keeps \\(for 35 min at most\\) over twice its limit`));
    // Another tenant is not held by it; and once the removed PTAs have left the store, the tenant goes on.
    expect((await quota.add('u', 'x', (admit) => store.addReference(ownTaskKey('u', 'x'), states, { by: 'u', admit }))).version).toBe(1);
    clock += keep;
    expect((await taken()).n).toBe(2);
    // A removal the store frees at once (the file store's) leaves nothing counted.
    const plain = new OwnPtaQuota(store, Math.floor(1.25 * one), () => clock);
    for (let n = 0; n < 4; n++) {
      await plain.add('v', 'x', (admit) => store.addReference(ownTaskKey('v', 'x'), states, { by: 'v', admit }));
      await plain.remove('v', () => store.remove(ownTaskKey('v', 'x')));
    }
    await store.close();
  });
});

describe('the quota’s count while a tenant’s growth is under way', () => {
  it('drops a removed PTA’s bytes at once: a growth admitted after the removal fits (the store is not read again meanwhile)', async () => {
    const store = await ReferenceStore.open({ dataDir: apps.dir('tally') });
    const states = await statesOf(ASTROID.passA);
    const [x, y, z] = ['x', 'y', 'z'].map((task) => ownTaskKey('t', task)) as [string, string, string];
    const one = Buffer.byteLength(JSON.stringify(await store.addReference(x, states, { by: 't' })));
    await store.addReference(y, states, { by: 't' });
    const quota = new OwnPtaQuota(store, Math.floor(2.5 * one));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // A growth of z starts (the tally reads 2 PTAs held), waits; x is removed meanwhile; then z grows: 2 PTAs, within.
    const growing = quota.add('t', 'z', async (admit) => {
      await gate;
      return store.addReference(z, states, { by: 't', admit });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await quota.remove('t', () => store.remove(x)))?.version).toBe(1);
    open();
    expect((await growing).version).toBe(1);
    expect(await store.tasks()).toEqual([y, z].sort());
    await store.close();
  });
});

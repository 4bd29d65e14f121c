/**
 * Tenants' own PTAs (the `tenant` reference scope) with Redis: kept in the shared store, so every replica scores
 * a tenant's sessions against them; a session pins the own PTA it started with, so after its replica goes and
 * another resumes it, it is rebuilt against that very version, not the shared PTA nor a newer own one. Real
 * runs of pylint-dev__astroid-1196.
 */
import { describe, expect, it } from 'vitest';
import { ASTROID, Client, readDoc, readEvents, type Running, bearerJson, ALICE_BOB_OPS } from '../server/helpers.js';
import { freshPrefix, startReplica, useRedis } from './replicas.js';

const TASK = ASTROID.task;
const TOKENS = ALICE_BOB_OPS;
const as = bearerJson;
type Report = { score: { total: number }; reference: { kind: string; version?: number } };

const fx = useRedis();
const { running, clients } = fx;

async function post(r: Running, route: string, token: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${r.url}${route}`, { method: 'POST', headers: as(token), body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const addRef = async (r: Running, token: string, file: string) => (await post(r, `/v1/tasks/${TASK}/references`, token, { trajectory: await readDoc(file) })).body;
const score = async (r: Running, token: string) => (await post(r, '/v1/score', token, { task: TASK, trajectory: await readDoc(ASTROID.fail), passed: false })).body as unknown as Report;

describe('own PTAs across replicas', () => {
  it('a session resumed on another replica is rebuilt against the own PTA version it started with', async () => {
    const prefix = freshPrefix('tenant-refs');
    // A third reference of one's own (the quota is 2 by default), to grow the own PTA under an open session.
    const options = { tokens: TOKENS, limits: { referencesPerTenantPerTask: 3 } };
    const a = await startReplica(fx.redis, prefix, 'replica-a', options);
    const b = await startReplica(fx.redis, prefix, 'replica-b', options);
    running.push(a, b);
    // The bundled PTA of the task is the shared one; Alice's own is made of other runs than its two.
    expect(await addRef(a, 'alice', ASTROID.passA)).toMatchObject({ version: 1, scope: 'tenant' });
    expect(await addRef(b, 'alice', ASTROID.passA)).toMatchObject({ version: 2, scope: 'tenant' });
    const own = await score(b, 'alice');
    const shared = await score(a, 'bob');
    expect(own.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(own.score.total).not.toBe(shared.score.total);
    expect(await score(a, 'alice')).toEqual(own);

    const events = await readEvents(ASTROID.fail);
    const half = Math.floor(events.length / 2);
    const first = await Client.connect(a.wsUrl, as('alice'));
    clients.push(first);
    first.send({ type: 'start', session: 'mine', task: TASK, format: 'mini-swe-agent' });
    expect(await first.nextOf('started', 'mine')).toMatchObject({ reference: { kind: 'pta', version: 2 } });
    events.slice(0, half).forEach((step, seq) => first.send({ type: 'step', session: 'mine', seq, step }));
    await first.sync();
    // Alice's own PTA grows meanwhile; her new sessions get v3, this one keeps v2.
    expect(await addRef(b, 'alice', ASTROID.passB)).toMatchObject({ version: 3, scope: 'tenant' });
    expect((await score(b, 'alice')).reference).toMatchObject({ kind: 'pta', version: 3 });

    // Replica A goes away (its leases handed back); B takes the session over and rebuilds it from the journal.
    first.ws.terminate();
    await a.app.close();
    running.splice(running.indexOf(a), 1);
    const second = await Client.connect(b.wsUrl, as('alice'));
    clients.push(second);
    second.send({ type: 'resume', session: 'mine', after: half - 1 });
    expect(await second.nextOf('resumed', 'mine')).toMatchObject({ last: half - 1 });
    events.slice(half).forEach((step, i) => second.send({ type: 'step', session: 'mine', seq: half + i, step }));
    second.send({ type: 'outcome', session: 'mine', passed: false });
    second.send({ type: 'end', session: 'mine' });
    const final = await second.nextOf('final', 'mine');
    expect(final.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(final.score).toEqual(own.score);
  });

  it('an own PTA removed through one replica: no replica scores with it any more, a session started on it is still rebuilt against it', async () => {
    const prefix = freshPrefix('tenant-removal');
    const a = await startReplica(fx.redis, prefix, 'replica-a', { tokens: TOKENS });
    const b = await startReplica(fx.redis, prefix, 'replica-b', { tokens: TOKENS });
    running.push(a, b);
    await addRef(a, 'alice', ASTROID.passA);
    await addRef(b, 'alice', ASTROID.passA);
    // Both replicas score (and so cache) Alice's own v2.
    const own = await score(b, 'alice');
    expect(own.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(await score(a, 'alice')).toEqual(own);

    const events = await readEvents(ASTROID.fail);
    const half = Math.floor(events.length / 2);
    const first = await Client.connect(a.wsUrl, as('alice'));
    clients.push(first);
    first.send({ type: 'start', session: 'pinned', task: TASK, format: 'mini-swe-agent' });
    expect(await first.nextOf('started', 'pinned')).toMatchObject({ reference: { kind: 'pta', version: 2 } });
    events.slice(0, half).forEach((step, seq) => first.send({ type: 'step', session: 'pinned', seq, step }));
    await first.sync();

    const removed = await fetch(`${b.url}/v1/tasks/${TASK}/pta`, { method: 'DELETE', headers: { authorization: 'Bearer alice' } });
    expect([removed.status, await removed.json()]).toEqual([200, { task: TASK, scope: 'tenant', version: 2 }]);
    // Replica A, which cached v2, scores Alice as it scores anyone without an own PTA: against the shared one.
    const shared = await score(a, 'bob');
    expect(await score(a, 'alice')).toEqual(shared);

    // Replica A goes; B resumes the session, rebuilt against the removed v2 it pinned (its chain is kept like a replaced one).
    first.ws.terminate();
    await a.app.close();
    running.splice(running.indexOf(a), 1);
    const second = await Client.connect(b.wsUrl, as('alice'));
    clients.push(second);
    second.send({ type: 'resume', session: 'pinned', after: half - 1 });
    expect(await second.nextOf('resumed', 'pinned')).toMatchObject({ last: half - 1 });
    events.slice(half).forEach((step, i) => second.send({ type: 'step', session: 'pinned', seq: half + i, step }));
    second.send({ type: 'outcome', session: 'pinned', passed: false });
    second.send({ type: 'end', session: 'pinned' });
    const final = await second.nextOf('final', 'pinned');
    expect(final.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(final.score).toEqual(own.score);
    // Grown again, it is numbered past the removed version.
    expect(await addRef(b, 'alice', ASTROID.passB)).toMatchObject({ version: 3, scope: 'tenant' });
  });
});

/**
 * `DELETE /v1/tasks/:task/pta` (src/server/pta-removal-route.ts): a tenant removes its own PTA of a task, and nothing
 * else; an operator removes a tenant's own (`?tenant=`) or the shared one (`?scope=shared`). Sessions running
 * against the removed PTA keep scoring against it to their final, to the bit; new ones fall back to the shared PTA,
 * then to the prior. A hostile tenant can neither remove another's own PTA nor tell whether it exists. Real runs of
 * pylint-dev__astroid-1196.
 */
import { describe, expect, it } from 'vitest';
import type { RemovePtaResponse } from '../../src/protocol/http-bodies.js';
import { ASTROID, Client, readDoc, readEvents, useApps, type Running, bearerJson, ALICE_BOB_OPS } from './helpers.js';

const TASK = ASTROID.task;
const TOKENS = ALICE_BOB_OPS;
const as = bearerJson;
type Answer = { status: number; text: string; body: Partial<RemovePtaResponse> & { version?: number; scope?: string; error?: { code: string; message: string } } };

const apps = useApps();

async function call(srv: Running, method: string, route: string, token: string, body?: unknown): Promise<Answer> {
  const headers = body !== undefined ? as(token) : { authorization: `Bearer ${token}` };
  const res = await fetch(`${srv.url}${route}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Answer['body'] };
}
const addRef = async (srv: Running, token: string, file: string, task = TASK) => call(srv, 'POST', `/v1/tasks/${task}/references`, token, { trajectory: await readDoc(file) });
const remove = (srv: Running, token: string, query = '', task = TASK) => call(srv, 'DELETE', `/v1/tasks/${task}/pta${query}`, token);
const pta = (srv: Running, token: string, query = '') => call(srv, 'GET', `/v1/tasks/${TASK}/pta${query}`, token);

/** Alice's own PTA of TASK (v2: the passing run B and the failing run) beside the shared one (v3, the operator's). */
async function seeded(name: string): Promise<Running> {
  const srv = await apps.start(name, { tokens: TOKENS });
  for (const file of [ASTROID.passA, ASTROID.passB, ASTROID.fail]) expect((await addRef(srv, 'op', file)).body.scope).toBe('shared');
  for (const file of [ASTROID.passB, ASTROID.fail]) expect((await addRef(srv, 'alice', file)).body.scope).toBe('tenant');
  return srv;
}

describe('DELETE /v1/tasks/:task/pta', () => {
  it("removes the caller's own PTA: sessions running against it keep it to their final, new ones get the shared PTA, then the prior", async () => {
    const srv = await seeded('own');
    const events = await readEvents(ASTROID.passA);
    const half = Math.floor(events.length / 2);
    const c = await Client.connect(srv.wsUrl, as('alice'));
    const start = async (id: string) => {
      c.send({ type: 'start', session: id, task: TASK, format: 'mini-swe-agent' });
      return (await c.nextOf('started', id)).reference as { kind: string; version?: number };
    };
    const finish = async (id: string, from: number) => {
      events.slice(from).forEach((step, i) => c.send({ type: 'step', session: id, seq: from + i, step }));
      c.send({ type: 'end', session: id });
      return c.nextOf('final', id);
    };
    // One whole session against the own PTA (v2), and one left half-way through.
    expect(await start('whole')).toMatchObject({ kind: 'pta', version: 2 });
    const whole = await finish('whole', 0);
    expect(await start('held')).toMatchObject({ kind: 'pta', version: 2 });
    events.slice(0, half).forEach((step, seq) => c.send({ type: 'step', session: 'held', seq, step }));
    await c.sync();

    const removed = await remove(srv, 'alice');
    expect([removed.status, removed.body]).toEqual([200, { task: TASK, scope: 'tenant', version: 2 }]);
    // The held session scores the rest against the PTA it holds: the same final as the whole one, to the bit.
    const held = await finish('held', half);
    expect(held.reference).toEqual(whole.reference);
    expect(held.score).toEqual(whole.score);
    // A new session gets the shared PTA (v3); so do reads and scoring requests.
    expect(await start('after')).toMatchObject({ kind: 'pta', version: 3 });
    expect((await pta(srv, 'alice')).body).toMatchObject({ version: 3, scope: 'shared' });
    expect((await pta(srv, 'alice', '?scope=tenant')).status).toBe(404);
    const scored = await call(srv, 'POST', '/v1/score', 'alice', { task: TASK, trajectory: await readDoc(ASTROID.passA) });
    expect((scored.body as { reference?: unknown }).reference).toMatchObject({ kind: 'pta', version: 3 });
    // Nothing left of its own: 404 naming the task.
    const again = await remove(srv, 'alice');
    expect([again.status, again.body.error?.code, again.body.error?.message]).toEqual([404, 'unknown_task', `no PTA for task ${TASK}`]);

    // The operator removes the shared PTA: new sessions get the prior; the listing holds nothing of the task.
    expect((await remove(srv, 'op', '?scope=shared')).body).toEqual({ task: TASK, scope: 'shared', version: 3 });
    expect(await start('prior')).toEqual({ kind: 'prior' });
    const listed = (await call(srv, 'GET', '/v1/tasks', 'op')).body as unknown as { tasks: unknown[] };
    expect(listed.tasks).toEqual([]);
    // Grown again, the task's PTAs are numbered past what was removed.
    expect((await addRef(srv, 'alice', ASTROID.passA)).body).toMatchObject({ version: 3, scope: 'tenant' });
    expect((await addRef(srv, 'op', ASTROID.passA)).body).toMatchObject({ version: 4, scope: 'shared' });
    c.close();
  }, 60_000);

  it("a hostile tenant can neither remove another tenant's own PTA nor tell whether it exists", async () => {
    const srv = await seeded('hostile');
    const before = (await pta(srv, 'alice')).text;
    // Bob has no own PTA of TASK; alice has one. Every way bob may name it answers as for a task nobody holds.
    const never = await remove(srv, 'bob', '', 'never-held');
    for (const query of ['', '?scope=tenant', '?tenant=alice', '?tenant=alice&scope=tenant']) {
      const r = await remove(srv, 'bob', query);
      expect([r.status, r.body.error?.code], query).toEqual([404, 'unknown_task']);
      expect(r.text.replace(TASK, 'X'), query).toBe(never.text.replace('never-held', 'X'));
      expect(r.text, query).toBe((await remove(srv, 'bob', query.replace('alice', 'nobody'))).text);
    }
    // The shared PTA needs an operator: 403 forbidden whether or not anyone holds a PTA of the task.
    for (const task of [TASK, 'never-held']) {
      const r = await remove(srv, 'bob', '?scope=shared', task);
      expect([r.status, r.body.error?.code]).toEqual([403, 'forbidden']);
    }
    // Nothing changed: alice's own PTA, and the shared one.
    expect((await pta(srv, 'alice')).text).toBe(before);
    expect((await pta(srv, 'op', '?scope=shared')).body).toMatchObject({ version: 3 });
    // Bob's own is his to remove; an operator removes anyone's by name.
    expect((await addRef(srv, 'bob', ASTROID.fail)).body).toMatchObject({ version: 1, scope: 'tenant' });
    expect((await remove(srv, 'bob')).body).toEqual({ task: TASK, scope: 'tenant', version: 1 });
    expect((await remove(srv, 'op')).status).toBe(404); // the operator's own tenant holds none
    expect((await remove(srv, 'op', '?tenant=alice')).body).toEqual({ task: TASK, scope: 'tenant', version: 2 });
    expect((await pta(srv, 'alice')).body).toMatchObject({ version: 3, scope: 'shared' });
  }, 60_000);

  it('refuses a bad query with one error naming it', async () => {
    const srv = await apps.start('bad', { tokens: TOKENS });
    for (const [query, what] of [
      ['?scope=mine', 'scope: expected tenant'],
      ['?scope=shared&tenant=alice', "tenant: the shared PTA is no tenant's"],
      ['?scope=tenant&scope=shared', 'scope: expected tenant'],
    ] as const) {
      const r = await remove(srv, 'op', query);
      expect([r.status, r.body.error?.code], query).toEqual([400, 'bad_message']);
      expect(r.body.error?.message, query).toContain(what);
    }
  });

  it('in the shared reference scope only an operator removes, and only the shared PTA', async () => {
    const srv = await apps.start('shared', { tokens: TOKENS, referenceScope: 'shared' });
    for (const file of [ASTROID.passA, ASTROID.passB]) await addRef(srv, 'alice', file);
    expect((await remove(srv, 'alice')).body.error?.code).toBe('forbidden');
    expect((await remove(srv, 'op', '?tenant=alice')).body.error?.code).toBe('bad_message');
    expect((await remove(srv, 'op')).body).toEqual({ task: TASK, scope: 'shared', version: 2 });
    expect((await remove(srv, 'op')).status).toBe(404);
  });
});

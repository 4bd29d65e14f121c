/**
 * F9 across replicas: a session shared through Redis answers only to the tenant of the token it was started with
 * (a bare token is its own tenant), on every replica (`resume` and GET /v1/sessions/:id); another tenant neither
 * reads it nor moves its lease away, and may use the same id for a session of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Running } from '../server/helpers.js';
import { RedisServer } from './redis-server.js';
import { freshPrefix, startReplica } from './replicas.js';

const STEP = { tool: 'bash', action: { kind: 'shell', command: 'ls' } };
const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
let redis: RedisServer;
const running: Running[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  for (const r of running) await r.app.close();
  await redis?.destroy();
});

describe('a shared session answers only to the token that started it', () => {
  it('on the other replica: resume and GET from another token are unknown_session, the owner carries on', async () => {
    const prefix = freshPrefix('principal');
    const tokens = { tokens: ['alice-token', 'bob-token'] };
    const a = await startReplica(redis, prefix, 'replica-a', tokens);
    const b = await startReplica(redis, prefix, 'replica-b', tokens);
    running.push(a, b);

    const alice = await Client.connect(a.wsUrl, auth('alice-token'));
    alice.send({ type: 'start', task: 't' });
    const id = String((await alice.nextOf('started')).session);
    alice.send({ type: 'step', session: id, seq: 0, step: STEP });
    await alice.nextOf('score', id);

    const bob = await Client.connect(b.wsUrl, auth('bob-token'));
    bob.send({ type: 'resume', session: id, after: -1 });
    expect(await bob.nextOf('error')).toMatchObject({ code: 'unknown_session', session: id });
    expect((await fetch(`${b.url}/v1/sessions/${id}`, { headers: auth('bob-token') })).status).toBe(404);
    for (const path of ['steps', 'alignment']) {
      expect((await fetch(`${b.url}/v1/sessions/${id}/${path}`, { headers: auth('bob-token') })).status, path).toBe(404);
      // Alice's own session is found there (its alignment then says the task has no PTA, not that the session is unknown).
      const mine = (await (await fetch(`${b.url}/v1/sessions/${id}/${path}`, { headers: auth('alice-token') })).json()) as { error?: { code: string } };
      expect(mine.error?.code, path).not.toBe('unknown_session');
    }

    // The lease stayed with replica A: Alice's next step is scored there, on her connection.
    alice.send({ type: 'step', session: id, seq: 1, step: STEP });
    expect(await alice.nextOf('score', id)).toMatchObject({ seq: 1, t: 1 });

    // Alice reads it from replica B and, reconnecting there, takes it over.
    const mine = await fetch(`${b.url}/v1/sessions/${id}`, { headers: auth('alice-token') });
    expect(mine.status).toBe(200);
    alice.ws.terminate();
    const again = await Client.connect(b.wsUrl, auth('alice-token'));
    again.send({ type: 'resume', session: id, after: 1 });
    expect(await again.nextOf('resumed', id)).toMatchObject({ last: 1 });
    again.send({ type: 'step', session: id, seq: 2, step: STEP });
    expect(await again.nextOf('score', id)).toMatchObject({ seq: 2, t: 2 });
    // Ids live in each tenant's namespace, on every replica: Bob may start "Alice's" id; it is his own session.
    bob.send({ type: 'start', session: id, task: 't' });
    expect(await bob.nextOf('started', id)).toMatchObject({ session: id });
    bob.send({ type: 'step', session: id, seq: 0, step: STEP });
    expect(await bob.nextOf('score', id)).toMatchObject({ seq: 0, t: 0 });
    const alices = (await (await fetch(`${a.url}/v1/sessions/${id}`, { headers: auth('alice-token') })).json()) as { lastSeq: number };
    const bobs = (await (await fetch(`${a.url}/v1/sessions/${id}`, { headers: auth('bob-token') })).json()) as { lastSeq: number };
    expect([alices.lastSeq, bobs.lastSeq]).toEqual([2, 0]);
    for (const c of [bob, again]) c.close();
  });
});

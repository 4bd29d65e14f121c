/**
 * A session's Redis writes reach Redis in the order they were made. Step appends are batched until the next
 * turn; an outcome or a final sent at once overtook them when a burst (steps, outcome, end) was handled in
 * one turn: Redis refused the tail steps as `ended`, so the client got `unknown_session` for steps the
 * final counted, and the stored session (GET on any replica, a later resume) missed them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { RedisSessionJournal } from '../../src/store/redis/session-journal.js';
import { ASTROID, Client, readDoc, readEvents, type Running } from '../server/helpers.js';
import { RedisServer } from './redis-server.js';
import { freshPrefix, getJson, postJson, startReplica } from './replicas.js';

let redis: RedisServer;
let events: unknown[];
let failDoc: unknown;
const running: Running[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  events = await readEvents(ASTROID.fail);
  failDoc = await readDoc(ASTROID.fail);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  for (const r of running.splice(0)) await r.app.close();
});

afterAll(async () => {
  await redis?.destroy();
});

describe('the order of one session’s Redis writes', () => {
  it('sends the appends queued in a turn before an outcome, a final, a read or a release made after them', async () => {
    const link = new RedisLink({ url: redis.url, prefix: freshPrefix('order-journal') });
    try {
      const journal = new RedisSessionJournal({ link, store: await RedisReferenceStore.open({ link }), owner: 'one' });
      const pin = { kind: 'prior', prior: UNIFORM_PRIOR } as const;
      const open = async (id: string): Promise<void> => {
        expect(await journal.open(id, { task: 't', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: pin, createdAt: Date.now() })).toBe(true);
      };
      await open('t:s');
      // Not awaited: queued for the next turn, as a turn's steps are.
      const appended = [0, 1, 2].map((seq) => journal.append('t:s', seq, `step ${seq}`, pin));
      const outcome = journal.outcome('t:s', false, pin);
      const read = journal.head('t:s');
      const finished = journal.finish('t:s', { type: 'final' }, pin);
      expect(await Promise.all(appended)).toEqual(['ok', 'ok', 'ok']);
      expect([await outcome, await finished]).toEqual(['ok', 'ok']);
      expect((await read)?.length).toBe(3);
      await open('t:r');
      const more = journal.append('t:r', 0, 'step 0', pin);
      await journal.release(['t:r']);
      expect(await more).toBe('ok');
    } finally {
      await link.close();
    }
  });

  it('stores every step of a burst sent with its outcome and end, before the final', async () => {
    const prefix = freshPrefix('order');
    const a = await startReplica(redis, prefix, 'order-a');
    const b = await startReplica(redis, prefix, 'order-b');
    running.push(a, b);
    const whole = await postJson(`${a.url}/v1/score`, { task: ASTROID.task, trajectory: failDoc, passed: false });
    const c = await Client.connect(a.wsUrl);
    clients.push(c);
    c.send({ type: 'start', session: 'burst', task: ASTROID.task, format: 'mini-swe-agent' });
    await c.nextOf('started', 'burst');
    // Over a turn's worth of frames (frame-batch.ts), so the tail, the outcome and the end run in a later turn.
    events.forEach((step, seq) => c.send({ type: 'step', session: 'burst', seq, step }));
    c.send({ type: 'outcome', session: 'burst', passed: false });
    c.send({ type: 'end', session: 'burst' });
    const final = await c.nextOf('final', 'burst');
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);
    expect(final.steps).toBe(whole.body.steps);
    // Both replicas read the stored session: every step, the outcome and the final.
    for (const r of [a, b]) {
      const view = (await getJson(`${r.url}/v1/sessions/burst`)).body;
      expect(view).toMatchObject({ state: 'ended', steps: final.steps, lastSeq: events.length - 1, passed: false });
    }
  });
});

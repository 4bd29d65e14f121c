/**
 * Scripts after a Redis restart (its script cache empty): each is loaded ahead of its first EVALSHA on the new
 * connection, so none is answered NOSCRIPT. Loading on NOSCRIPT instead let a later step append overtake the
 * EVAL resent for an earlier one: Redis then saw a gap and refused the step as if an earlier write had failed
 * (client-resume-retry.test.ts failed so about one full run in two under load, CI included).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { RedisSessionJournal } from '../../src/store/redis/session-journal.js';
import type { SessionRecord } from '../../src/store/session-journal.js';
import { redisClient, RedisServer } from './redis-server.js';

let redis: RedisServer;
let link: RedisLink;

beforeAll(async () => {
  redis = await RedisServer.start('always');
  link = new RedisLink({ url: redis.url, prefix: 'scripts:' });
});

afterAll(async () => {
  await link?.close();
  await redis?.destroy();
});

const record: SessionRecord = { task: 't', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'prior', prior: UNIFORM_PRIOR }, createdAt: Date.now() };

/** Redis' count of commands it answered NOSCRIPT, since its start. */
async function noscriptErrors(): Promise<number> {
  const admin = redisClient(redis.url);
  try {
    const info = await admin.info('errorstats');
    return Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(info)?.[1] ?? 0);
  } finally {
    admin.disconnect();
  }
}

const turn = () => new Promise((r) => setImmediate(r));

it('after a restart no script is answered NOSCRIPT, and the appends of one session land in order', async () => {
  const store = await RedisReferenceStore.open({ link });
  const journal = new RedisSessionJournal({ link, store, owner: 'replica-a' });
  const pin = journal.pin({ kind: 'prior', prior: UNIFORM_PRIOR });
  expect(await journal.open('tenant:s', record)).toBe('ok');
  expect(await journal.append('tenant:s', 0, '{"seq":0}', pin)).toBe('ok');

  await redis.stop('SIGKILL');
  await redis.launch();
  expect(await link.whenReady(10_000)).toBe(true);
  expect(await noscriptErrors()).toBe(0);

  // Steps arrive over several turns of the event loop, as a client's held steps do after a resume: batches of
  // 32 go at once, the rest at the end of the turn.
  const writes: Array<Promise<string>> = [];
  for (let seq = 1; seq < 120; seq++) {
    writes.push(journal.append('tenant:s', seq, `{"seq":${seq}}`, pin));
    if (seq % 45 === 0) await turn();
  }
  expect(await Promise.all(writes)).toEqual(writes.map(() => 'ok'));
  expect(await noscriptErrors()).toBe(0);
  expect((await journal.head('tenant:s'))?.length).toBe(120);
});

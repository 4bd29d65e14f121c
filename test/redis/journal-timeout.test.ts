/**
 * Session journal writes that outlive the Redis command timeout. A start whose OPEN script outlives it: Redis may still apply it, so the
 * journal must not answer "not started" while Redis holds the session (the client's start sent again was
 * then refused `duplicate_session`, and the id held for 35 minutes). It settles the open as growths are
 * settled (grow-timeout.test.ts): by its trace, the exact record under this replica's lease. Redis holds the
 * script back with `CLIENT PAUSE ... WRITE`. A step's append needs no settling: it is fenced by its seq, so
 * one applied after its timeout is never applied twice (the server rebuilds the session from the journal
 * before the client's resend, which is then a duplicate answered again), and one not applied is sent again.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { APPEND, OPEN } from '../../src/store/redis/journal-scripts.js';
import { RedisSessionJournal } from '../../src/store/redis/session-journal.js';
import type { SessionRecord } from '../../src/store/session-journal.js';
import { killPostponedScript } from './postponed-script.js';
import { redisClient, RedisServer } from './redis-server.js';

const TIMEOUT_MS = 300;
let redis: RedisServer;
let admin: Redis;
const links: RedisLink[] = [];
let prefixes = 0;

async function journal(owner: string): Promise<{ journal: RedisSessionJournal; prefix: string; failed: string[] }> {
  const prefix = `opentimeout${++prefixes}:`;
  const failed: string[] = [];
  const link = new RedisLink({ url: redis.url, prefix, commandTimeoutMs: TIMEOUT_MS, observer: { command: (op, _s, ok) => void (ok || failed.push(op)), connection: () => undefined } });
  links.push(link);
  const store = await RedisReferenceStore.open({ link });
  return { journal: new RedisSessionJournal({ link, store, owner }), prefix, failed };
}

const record = (): SessionRecord => ({ task: 't', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'prior', prior: UNIFORM_PRIOR }, createdAt: Date.now() });

beforeAll(async () => {
  redis = await RedisServer.start();
  admin = redisClient(redis.url);
});

afterAll(async () => {
  for (const l of links) await l.close();
  admin.disconnect();
  await redis?.destroy();
});

describe('a session start that outlives the command timeout', () => {
  it('answers opened when Redis applied it (and a second start of the id is then a duplicate)', async () => {
    const { journal: j, prefix, failed } = await journal('replica-a');
    await admin.script('LOAD', OPEN.lua);
    await admin.call('CLIENT', 'PAUSE', String(TIMEOUT_MS * 3), 'WRITE');
    expect(await j.open('tenant:s1', record())).toBe('ok');
    expect(failed).toContain('session_open'); // the script did outlive the timeout
    expect(await admin.get(`${prefix}sk:tenant:s1`)).toBe('replica-a');
    expect((await j.head('tenant:s1'))?.length).toBe(0);
    expect(await j.open('tenant:s1', record())).toBe('taken');
  });

  it('answers unavailable, nothing stored, when its connection dropped with the start in flight; the start sent again opens the session', async () => {
    const { journal: j, prefix, failed } = await journal('replica-b');
    await admin.script('LOAD', OPEN.lua);
    await admin.call('CLIENT', 'PAUSE', '10000', 'WRITE');
    const opening = j.open('tenant:s2', record()).then(
      () => undefined,
      (e: unknown) => e,
    );
    await killPostponedScript(admin); // Redis drops the script: it never runs
    const error = await opening;
    expect(failed).toContain('session_open');
    expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('nothing was stored') as unknown });
    expect(await admin.exists(`${prefix}sm:tenant:s2`)).toBe(0);
    expect(await j.open('tenant:s2', record())).toBe('ok');
  });

  it('after a SCRIPT FLUSH on its live connection: refused naming NOSCRIPT, nothing stored; the start sent again loads the script and opens', async () => {
    const { journal: j, prefix } = await journal('replica-e');
    expect(await j.open('tenant:s5-before', record())).toBe('ok'); // the journal's connection has loaded OPEN
    await admin.script('FLUSH');
    const error = await j.open('tenant:s5', record()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('NOSCRIPT') as unknown });
    expect(await admin.exists(`${prefix}sm:tenant:s5`)).toBe(0);
    expect(await j.open('tenant:s5', record())).toBe('ok');
  });

  it('says Redis may have stored it when Redis stays silent past the wait', async () => {
    const { journal: j, prefix } = await journal('replica-c');
    await admin.script('LOAD', OPEN.lua);
    await admin.call('CLIENT', 'PAUSE', String(TIMEOUT_MS * 12), 'WRITE');
    const error = await j.open('tenant:s3', record()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('Redis may have stored it') as unknown });
    const deadline = Date.now() + 5000;
    while ((await admin.exists(`${prefix}sm:tenant:s3`)) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(await admin.exists(`${prefix}sm:tenant:s3`)).toBe(1); // it was: the answer did not claim otherwise
  });

  it('applies a step append that outlived its timeout once: the same seq sent again is a gap, not a second copy', async () => {
    const { journal: j, prefix, failed } = await journal('replica-d');
    expect(await j.open('tenant:s4', record())).toBe('ok');
    const pin = { kind: 'prior', prior: UNIFORM_PRIOR } as const;
    await admin.script('LOAD', APPEND.lua);
    await admin.call('CLIENT', 'PAUSE', String(TIMEOUT_MS * 3), 'WRITE');
    const error = await j.append('tenant:s4', 0, 'step-0', pin).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toContain('session_append');
    expect(error).toMatchObject({ code: 'unavailable' });
    const deadline = Date.now() + 5000;
    while ((await admin.llen(`${prefix}sl:tenant:s4`)) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(await j.append('tenant:s4', 0, 'step-0', pin)).toBe('gap');
    expect(await admin.lrange(`${prefix}sl:tenant:s4`, 0, -1)).toEqual(['step-0']);
    expect((await j.head('tenant:s4'))?.length).toBe(1);
    expect(await j.append('tenant:s4', 1, 'step-1', pin)).toBe('ok');
  });
});

/**
 * A session pinned to a PTA version whose chain was replaced keeps that chain alive while it is open: a
 * resume (the CLAIM script), every step (APPEND) and its end (FINISH, for the resume window) extend the
 * chain as far as the session's own keys, so a replica taking the session over later can still rebuild it
 * (review s41: the chain expired under a resumed session and its next takeover answered unknown_session).
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { State } from '../../src/core/types.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { ASTROID, Client, readEvents, type Running } from '../server/helpers.js';
import { statesOf } from '../store/states.js';
import { redisClient, RedisServer } from './redis-server.js';
import { freshPrefix, startReplica } from './replicas.js';

const TASK = 'pinned-chain-task';
/** Replicas' session TTL: idle timeout + resume window. */
const CLOCKS = { idleTimeoutMs: 60_000, resumeWindowMs: 10_000 };
/** How long the growing replica keeps a replaced chain: below the session TTL, as if its rollover was a while ago. */
const KEEP_MS = 20_000;

let redis: RedisServer;
let admin: Redis;
let events: unknown[];
let statesA: State[];
let statesB: State[];
const links: RedisLink[] = [];
const running: Running[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  admin = redisClient(redis.url);
  events = await readEvents(ASTROID.fail);
  statesA = await statesOf(ASTROID.passA);
  statesB = await statesOf(ASTROID.passB);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  for (const r of running.splice(0)) await r.app.close();
});

afterAll(async () => {
  for (const l of links) await l.close();
  admin.disconnect();
  await redis?.destroy();
});

/**
 * Two replicas over a fresh prefix, and a third replica's store that grows TASK to v2 (chain 1) and, on
 * `rollover()`, to v3 in a new chain (chain 1 then expires after KEEP_MS).
 */
async function setup(): Promise<{ prefix: string; a: Running; b: Running; rollover: () => Promise<unknown> }> {
  const prefix = freshPrefix('pinned');
  const link = new RedisLink({ url: redis.url, prefix });
  links.push(link);
  const grower = await RedisReferenceStore.open({ link, keepVersionsMs: KEEP_MS, maxChainVersions: 2 });
  await grower.addReference(TASK, statesA);
  await grower.addReference(TASK, statesB);
  const a = await startReplica(redis, prefix, 'pinned-a', CLOCKS);
  const b = await startReplica(redis, prefix, 'pinned-b', CLOCKS);
  running.push(a, b);
  return { prefix, a, b, rollover: () => grower.addReference(TASK, statesA) };
}

async function connect(r: Running): Promise<Client> {
  const c = await Client.connect(r.wsUrl);
  clients.push(c);
  return c;
}

/** Starts `id` on `r` pinned to v2 of chain 1 and streams `steps` steps. */
async function started(r: Running, id: string, steps: number): Promise<Client> {
  const c = await connect(r);
  c.send({ type: 'start', session: id, task: TASK, format: 'mini-swe-agent' });
  expect(await c.nextOf('started', id)).toMatchObject({ reference: { kind: 'pta', version: 2 } });
  events.slice(0, steps).forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  await c.sync();
  return c;
}

/** The remaining TTLs (ms) of the session's meta key and of its pinned chain, read at one instant. */
async function ttls(prefix: string, id: string): Promise<{ meta: number; chain: number }> {
  const results = await admin.multi().pttl(`${prefix}sm:default:${id}`).pttl(`${prefix}ptl:1:${TASK}`).exec();
  const [meta, chain] = (results ?? []).map(([, v]) => Number(v));
  return { meta: meta!, chain: chain! };
}

describe('a pinned PTA chain outlives the session that pins it', () => {
  it('a resume (CLAIM) extends the pinned chain as far as the session', async () => {
    const { prefix, a, b, rollover } = await setup();
    const first = await started(a, 'resumed', 5);
    await rollover();
    expect(await admin.hget(`${prefix}chains`, TASK)).toBe('3');
    first.ws.terminate();
    const second = await connect(b);
    second.send({ type: 'resume', session: 'resumed', after: 4 });
    expect(await second.nextOf('resumed', 'resumed')).toMatchObject({ last: 4 });
    const { meta, chain } = await ttls(prefix, 'resumed');
    expect(meta).toBeGreaterThan(KEEP_MS);
    expect(chain).toBeGreaterThanOrEqual(meta);
  });

  it('a step (APPEND) extends the pinned chain when it has less time left than the session', async () => {
    const { prefix, a, rollover } = await setup();
    const c = await started(a, 'stepping', 5);
    await rollover();
    // The session's keys were written a moment ago (not yet due for a refresh): only the chain has run down.
    expect((await ttls(prefix, 'stepping')).chain).toBeLessThanOrEqual(KEEP_MS);
    c.send({ type: 'step', session: 'stepping', seq: 5, step: events[5] });
    await c.sync();
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);
    const { meta, chain } = await ttls(prefix, 'stepping');
    expect(chain).toBeGreaterThanOrEqual(meta);
  });

  it('an end (FINISH) keeps the pinned chain through the resume window', async () => {
    const { prefix, a, rollover } = await setup();
    const c = await started(a, 'ending', 5);
    await rollover();
    // As for a session ended by its idle timeout: the chain, written with its last step, has about the resume window left.
    await admin.pexpire(`${prefix}ptl:1:${TASK}`, CLOCKS.resumeWindowMs / 2);
    c.send({ type: 'end', session: 'ending' });
    await c.nextOf('final', 'ending');
    const { meta, chain } = await ttls(prefix, 'ending');
    expect(meta).toBeGreaterThan(CLOCKS.resumeWindowMs / 2);
    expect(chain).toBeGreaterThanOrEqual(meta);
  });
});

/**
 * Redis emptied while the replicas stay connected (FLUSHALL, FLUSHDB, a failover to an empty Redis behind a
 * proxy that keeps the TCP connection): no reconnect tells them (review s41). The seeds must be imported
 * again, and a version number must name one PTA on every replica although versions count again from the
 * seeds (a replica's cache of the old versions must not answer for the new ones).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASTROID, Client, readDoc, type Running } from '../server/helpers.js';
import { redisClient, RedisServer } from './redis-server.js';
import { freshPrefix, getJson, postJson, startReplica } from './replicas.js';

const LEARNED = 'flushed-task';
let redis: RedisServer;
let admin: Redis;
let runs: unknown[];
const running: Running[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  // Its own server: FLUSHALL empties every prefix.
  redis = await RedisServer.start();
  admin = redisClient(redis.url);
  runs = await Promise.all([ASTROID.passA, ASTROID.passB, ASTROID.fail].map(readDoc));
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  for (const r of running) await r.app.close();
  admin.disconnect();
  await redis?.destroy();
});

async function replica(prefix: string, name: string): Promise<Running> {
  const r = await startReplica(redis, prefix, name);
  running.push(r);
  return r;
}

const add = async (r: Running, run: number): Promise<number> => (await postJson(`${r.url}/v1/tasks/${LEARNED}/references`, { trajectory: runs[run] })).body.version as number;

/** What `r` serves as the learned task's PTA (version and nodes). */
async function served(r: Running): Promise<{ version: unknown; nodes: unknown }> {
  const { body } = await getJson(`${r.url}/v1/tasks/${LEARNED}/pta`);
  return { version: body.version, nodes: body.nodes };
}

/** The reference a new session of the seeded task is scored against on `r`. */
async function startedAgainst(r: Running, id: string): Promise<unknown> {
  const c = await Client.connect(r.wsUrl);
  clients.push(c);
  c.send({ type: 'start', session: id, task: ASTROID.task });
  return (await c.nextOf('started', id)).reference;
}

describe('Redis emptied without a reconnect', () => {
  it('imports the seeds again, and both replicas serve the same PTA under each version number', async () => {
    const prefix = freshPrefix('flushed');
    const a = await replica(prefix, 'flushed-a');
    const b = await replica(prefix, 'flushed-b');
    const seeded = (await getJson(`${a.url}/v1/tasks`)).body.tasks as unknown[];
    expect(seeded.length).toBeGreaterThan(0);
    expect(await startedAgainst(a, 's0')).toMatchObject({ kind: 'pta' });
    expect(await add(a, 0)).toBe(1);
    expect(await add(a, 1)).toBe(2);
    const before = await served(b); // now in b's cache
    expect(before.version).toBe(2);

    expect(await admin.flushall()).toBe('OK');

    // The seeds are back at the first lookup, no reconnect needed.
    expect(((await getJson(`${a.url}/v1/tasks`)).body.tasks as unknown[]).length).toBe(seeded.length);
    expect(await startedAgainst(a, 's1')).toMatchObject({ kind: 'pta' });
    // Versions count again: v2 is now runs 2 + 2, not runs 0 + 1; b must not answer from its cache.
    expect(await add(a, 2)).toBe(1);
    expect(await add(a, 2)).toBe(2);
    const fromA = await served(a);
    expect(fromA.nodes).not.toEqual(before.nodes);
    expect(await served(b)).toEqual(fromA);
    // b grows it next: built on the new v2, as a reads it.
    expect(await add(b, 0)).toBe(3);
    expect(await served(a)).toEqual(await served(b));
  });
});

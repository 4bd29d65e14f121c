/** The Redis reference store across replicas: atomic growth, cache invalidation, kept versions, Redis going away. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from '../../src/core/types.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore, type RedisReferenceStoreOptions } from '../../src/store/redis/reference-store.js';
import { ptaToJson } from '../../src/core/pta/index.js';
import { ASTROID } from '../server/helpers.js';
import { statesOf } from '../store/states.js';
import { RedisServer } from './redis-server.js';
import { eventually } from './replicas.js';

let redis: RedisServer;
let statesA: State[];
let statesB: State[];
const links: RedisLink[] = [];
let prefixes = 0;

/** `n` replicas' stores over one fresh prefix, each with its own connections. */
async function replicas(n: number, keepVersionsMs?: number, options: Partial<RedisReferenceStoreOptions> = {}): Promise<RedisReferenceStore[]> {
  const prefix = `replicas${++prefixes}:`;
  const out: RedisReferenceStore[] = [];
  for (let i = 0; i < n; i++) {
    const link = new RedisLink({ url: redis.url, prefix, maxBackoffMs: 100 });
    links.push(link);
    out.push(await RedisReferenceStore.open({ link, ...(keepVersionsMs !== undefined ? { keepVersionsMs } : {}), ...options }));
  }
  return out;
}

/** Bytes Redis holds under `prefix` (MEMORY USAGE of every key). */
async function redisBytes(link: RedisLink, prefix: string): Promise<number> {
  const keys = await link.client.keys(`${prefix}*`);
  let bytes = 0;
  for (const key of keys) bytes += (await link.client.memory('USAGE', key)) ?? 0;
  return bytes;
}

beforeAll(async () => {
  // fsync always: with everysec a busy disk postpones Redis's AOF write past its reply, and the SIGKILL below
  // would lose acknowledged writes (bench/redis-server.ts); this file is about outages, not that trade-off.
  redis = await RedisServer.start('always');
  statesA = await statesOf(ASTROID.passA);
  statesB = await statesOf(ASTROID.passB);
});

afterAll(async () => {
  for (const l of links) await l.close();
  await redis?.destroy();
});

/** The references `store`'s pooled prior holds once it reaches `n` (it follows published growths, a few ms behind). */
async function priorReferences(store: RedisReferenceStore, n: number): Promise<number> {
  return eventually(
    async () => (await store.prior()).references,
    (k) => k === n,
  );
}

describe('Redis reference store', () => {
  it('loses no reference when two replicas grow the same task at once', async () => {
    const [a, b] = await replicas(2);
    const adds = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b)!.addReference(ASTROID.task, i % 3 === 0 ? statesA : statesB));
    const versions = (await Promise.all(adds)).map((p) => p.version).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    for (const s of [a, b]) expect((await s?.get(ASTROID.task))?.references).toHaveLength(12);
  });

  it('drops a cached version when another replica grows the task', async () => {
    const [a, b] = (await replicas(2)) as [RedisReferenceStore, RedisReferenceStore];
    await a.addReference('t', statesA);
    await a.addReference('t', statesB);
    expect(await b.reference('t')).toMatchObject({ kind: 'pta', pta: { version: 2 } });
    const before = b.cacheStats().misses;
    await a.addReference('t', statesA);
    const seen = await eventually(
      () => b.version('t'),
      (v) => v === 3,
    );
    expect(seen).toBe(3);
    expect(await b.reference('t')).toMatchObject({ kind: 'pta', pta: { version: 3 } });
    expect(b.cacheStats().misses).toBe(before + 1);
    // The prior follows too: it pools version 3's references.
    expect(await priorReferences(b, 3)).toBe(3);
  });

  it('catches up with growths it missed while its subscriber was disconnected', async () => {
    const [a, b] = (await replicas(2)) as [RedisReferenceStore, RedisReferenceStore];
    await a.addReference('t', statesA);
    // The prior follows published growths (a few ms behind).
    expect(await priorReferences(b, 1)).toBe(1);
    const sub = links.at(-1)?.subscriber();
    sub?.disconnect(true); // reconnects by itself; what was published meanwhile is lost
    await a.addReference('t', statesB);
    // The pooled prior (kept from published growths) must see version 2 all the same.
    expect(await priorReferences(b, 2)).toBe(2);
    // And growths published after the reconnection reach it: the store subscribed again by itself (ioredis'
    // own resubscription is off, link.ts).
    expect(sub?.options.autoResubscribe).toBe(false);
    await a.addReference('t', statesA);
    expect(await priorReferences(b, 3)).toBe(3);
  });

  it('warns of nothing when its subscriber is up before its command connection, and still catches up once both are', async () => {
    const warnings: string[] = [];
    const [a, b] = (await replicas(2, undefined, { warn: (m: string) => void warnings.push(m) })) as [RedisReferenceStore, RedisReferenceStore];
    // Both connections up and read (b's first re-read done) before b's command connection goes.
    await a.addReference('t', statesA);
    expect(await priorReferences(b, 1)).toBe(1);
    const link = links.at(-1)!;
    link.client.disconnect(false);
    await eventually(
      async () => link.client.status,
      (s) => s === 'end',
    );
    // The subscriber comes back first (which of two sockets does is up to the network): it re-subscribes alone.
    const sub = link.subscriber();
    sub.disconnect(true);
    await eventually(
      async () => sub.status,
      (s) => s === 'ready',
    );
    await a.addReference('t', statesB);
    await new Promise((r) => setTimeout(r, 100));
    expect(warnings).toEqual([]);
    await link.client.connect();
    expect(await priorReferences(b, 2)).toBe(2);
    expect(warnings).toEqual([]);
  });

  it('stores a growth as the states it added, not the whole PTA again, and builds the next version from the one it holds', async () => {
    const [a, b] = (await replicas(2)) as [RedisReferenceStore, RedisReferenceStore];
    const link = links.at(-1)!;
    let last = await a.addReference('t', statesA);
    expect(await b.get('t')).toEqual(last);
    let everyVersion = Buffer.byteLength(ptaToJson(last));
    let added = Buffer.byteLength(JSON.stringify(statesA));
    for (let i = 0; i < 14; i++) {
      const states = i % 2 === 0 ? statesB : statesA;
      last = await a.addReference('t', states);
      everyVersion += Buffer.byteLength(ptaToJson(last));
      added += Buffer.byteLength(JSON.stringify(states));
    }
    expect(last.version).toBe(15);
    // Every version whole (as before chains: 15 PTAs, ~ 0.8 MB here) against the chain: the first PTA and the states added since.
    const held = await redisBytes(link, link.prefix);
    expect(held).toBeLessThan(everyVersion / 1.5);
    expect(held).toBeLessThan(1.2 * added);
    // Replica b held version 1: it reads the 14 added states and builds version 15 from it, equal to a's.
    const misses = b.cacheStats().misses;
    expect(await b.get('t')).toEqual(last);
    expect(b.cacheStats().misses).toBe(misses + 1);
    // A fresh replica reads the whole chain and gets the same PTA.
    const fresh = new RedisLink({ url: redis.url, prefix: link.prefix });
    links.push(fresh);
    expect(await (await RedisReferenceStore.open({ link: fresh })).get('t')).toEqual(last);
  });

  it('keeps a replaced chain for a while (sessions pinned to its versions), then lets it expire', async () => {
    const [a] = (await replicas(1, 300, { maxChainVersions: 1 })) as [RedisReferenceStore];
    const v1 = await a.addReference('t', statesA);
    await a.addReference('t', statesB);
    expect(await a.ptaAt('t', 1)).toEqual(v1);
    const other = (await replicas(1))[0]!;
    expect(other).toBeDefined();
    await new Promise((r) => setTimeout(r, 600));
    const fresh = new RedisLink({ url: redis.url, prefix: `replicas${prefixes - 1}:` });
    links.push(fresh);
    const reader = await RedisReferenceStore.open({ link: fresh });
    expect(await reader.ptaAt('t', 2)).toMatchObject({ version: 2 });
    expect(await reader.ptaAt('t', 1)).toBeUndefined();
  });

  it('fails fast with unavailable while Redis is down, and recovers when it is back', async () => {
    const [a] = (await replicas(1)) as [RedisReferenceStore];
    await a.addReference('t', statesA);
    await redis.stop('SIGKILL');
    await eventually(
      async () => a.available(),
      (up) => !up,
    );
    expect(a.available()).toBe(false);
    const began = Date.now();
    await expect(a.addReference('t', statesB)).rejects.toMatchObject({ code: 'unavailable' });
    expect(Date.now() - began).toBeLessThan(1000);
    await redis.launch();
    expect(
      await eventually(
        async () => a.available(),
        (up) => up,
      ),
    ).toBe(true);
    expect((await a.addReference('t', statesB)).version).toBe(2);
  });
});

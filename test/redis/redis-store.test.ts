/** The Redis reference store across replicas: atomic growth, cache invalidation, kept versions, Redis going away. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from '../../src/core/types.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { ASTROID } from '../server/helpers.js';
import { statesOf } from '../store/states.js';
import { RedisServer } from './redis-server.js';

let redis: RedisServer;
let statesA: State[];
let statesB: State[];
const links: RedisLink[] = [];
let prefixes = 0;

/** `n` replicas' stores over one fresh prefix, each with its own connections. */
async function replicas(n: number, keepVersionsMs?: number): Promise<RedisReferenceStore[]> {
  const prefix = `replicas${++prefixes}:`;
  const out: RedisReferenceStore[] = [];
  for (let i = 0; i < n; i++) {
    const link = new RedisLink({ url: redis.url, prefix, maxBackoffMs: 100 });
    links.push(link);
    out.push(await RedisReferenceStore.open({ link, ...(keepVersionsMs !== undefined ? { keepVersionsMs } : {}) }));
  }
  return out;
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  redis = await RedisServer.start();
  statesA = await statesOf(ASTROID.passA);
  statesB = await statesOf(ASTROID.passB);
});

afterAll(async () => {
  for (const l of links) await l.close();
  await redis?.destroy();
});

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
    expect(
      await eventually(
        async () => (await b.prior()).references,
        (n) => n === 3,
      ),
    ).toBe(3);
  });

  it('catches up with growths it missed while its subscriber was disconnected', async () => {
    const [a, b] = (await replicas(2)) as [RedisReferenceStore, RedisReferenceStore];
    await a.addReference('t', statesA);
    // The prior follows published growths (a few ms behind).
    expect(
      await eventually(
        async () => (await b.prior()).references,
        (n) => n === 1,
      ),
    ).toBe(1);
    const sub = links.at(-1)?.subscriber();
    sub?.disconnect(true); // reconnects by itself; what was published meanwhile is lost
    await a.addReference('t', statesB);
    // The pooled prior (kept from published growths) must see version 2 all the same.
    expect(
      await eventually(
        async () => (await b.prior()).references,
        (n) => n === 2,
      ),
    ).toBe(2);
  });

  it('keeps a replaced version for a while (sessions pinned to it), then lets it expire', async () => {
    const [a] = (await replicas(1, 300)) as [RedisReferenceStore];
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

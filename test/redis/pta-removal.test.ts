/**
 * Removing a task's PTA from Redis, which several replicas share and each caches PTA versions from: after a
 * removal through one replica no replica serves it (nor pools it into the prior), the task grown again is numbered
 * past the removed version on every replica (a cached old version is never taken for a new one, a chain key never
 * reused), a session's pinned version stays readable as a replaced one does, and a removal racing growths through
 * two replicas loses nothing reported stored. Real runs of pylint-dev__astroid-1196.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from '../../src/core/types.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { priorFromPtas, UNIFORM_PRIOR } from '../../src/core/prior.js';
import { ASTROID } from '../server/helpers.js';
import { statesOf } from '../store/states.js';
import { RedisServer } from './redis-server.js';
import { ownRemovalField, ownTaskKey } from '../../src/store/tenant-keys.js';
import { KnownVersions } from '../../src/store/redis/known-versions.js';
import { eventually } from './replicas.js';

let redis: RedisServer;
let statesA: State[];
let statesB: State[];
let failing: State[];
const links: RedisLink[] = [];
let prefixes = 0;

async function replicas(n: number, keepVersionsMs = 60_000): Promise<{ stores: RedisReferenceStore[]; link: RedisLink; prefix: string }> {
  const prefix = `removal${++prefixes}:`;
  const stores: RedisReferenceStore[] = [];
  for (let i = 0; i < n; i++) {
    const link = new RedisLink({ url: redis.url, prefix, maxBackoffMs: 100 });
    links.push(link);
    stores.push(await RedisReferenceStore.open({ link, keepVersionsMs }));
  }
  return { stores, link: links.at(-1)!, prefix };
}

beforeAll(async () => {
  redis = await RedisServer.start();
  [statesA, statesB, failing] = await Promise.all([statesOf(ASTROID.passA), statesOf(ASTROID.passB), statesOf(ASTROID.fail)]);
});

afterAll(async () => {
  for (const l of links) await l.close();
  await redis?.destroy();
});

describe('removing a PTA from Redis', () => {
  it('no replica serves or pools it after; grown again, every replica sees the new PTA, never a cached old version', async () => {
    const { stores, link, prefix } = await replicas(2);
    const [a, b] = stores as [RedisReferenceStore, RedisReferenceStore];
    await a.addReference('t', statesA);
    const v2 = await a.addReference('t', statesB);
    // B caches version 2 and pools it.
    expect(await b.reference('t')).toEqual({ kind: 'pta', pta: v2 });
    expect(await b.prior()).toEqual(priorFromPtas([v2]));
    const chain = b.chainStart((await b.get('t'))!)!;

    expect((await a.remove('t'))?.version).toBe(2);
    expect(await b.get('t')).toBeUndefined();
    expect(await b.has('t')).toBe(false);
    expect(await b.tasks()).toEqual([]);
    expect(
      await eventually(
        () => b.prior(),
        (p) => p.references === 0,
      ),
    ).toEqual(UNIFORM_PRIOR);
    expect(await b.reference('t')).toEqual({ kind: 'prior', prior: UNIFORM_PRIOR });
    // Removing through B now: nothing left.
    expect(await b.remove('t')).toBeUndefined();

    // A session pinned to version 2 is still rebuilt from its chain, kept as a replaced chain is (it expires).
    expect(await b.ptaAt('t', 2, chain)).toEqual(v2);
    const ttl = await link.client.pttl(`${prefix}ptl:${chain}:t`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);

    // Grown again through B: version 3, one reference; A (which wrote 1 and 2) answers the same.
    const v3 = await b.addReference('t', failing);
    expect([v3.version, v3.references.length]).toEqual([3, 1]);
    expect(await a.get('t')).toEqual(v3);
    expect(
      await eventually(
        () => a.prior(),
        (p) => p.references === 1,
      ),
    ).toEqual(priorFromPtas([v3]));
    // A new chain, not the pinned one rewritten.
    expect(await a.ptaAt('t', 2, chain)).toEqual(v2);
  });

  it('a removal racing growths through two replicas loses nothing reported stored and brings nothing back', async () => {
    const { stores } = await replicas(2);
    const [a, b] = stores as [RedisReferenceStore, RedisReferenceStore];
    await a.addReference('race', statesA);
    const adds = [statesB, failing, statesA, statesB, failing, statesA].map((s, i) => (i % 2 === 0 ? a : b).addReference('race', s));
    const removal = b.remove('race');
    const versions = (await Promise.all(adds)).map((p) => p.version);
    const cut = (await removal)!.version;
    expect(new Set(versions).size).toBe(versions.length);
    const after = versions.filter((v) => v > cut);
    expect(versions.filter((v) => v <= cut)).toHaveLength(cut - 1);
    for (const s of [a, b]) {
      const now = await s.get('race');
      if (after.length === 0) expect(now).toBeUndefined();
      else expect([now?.version, now?.references.length]).toEqual([Math.max(...after), after.length]);
    }
  });

  it("a tenant's own PTAs removed leave one entry in the removed hash, not one per task, and are never numbered back (T80)", async () => {
    const { stores, link, prefix } = await replicas(2);
    const [a, b] = stores as [RedisReferenceStore, RedisReferenceStore];
    const own = (i: number): string => ownTaskKey('tenant-b', `task-${i}`);
    for (let i = 0; i < 6; i++) {
      await (i % 2 === 0 ? a : b).addReference(own(i), statesA);
      expect((await (i % 2 === 0 ? b : a).remove(own(i)))?.version).toBeGreaterThan(0);
    }
    await a.addReference('shared', statesA);
    await a.remove('shared');
    // One field for the tenant's six removals, one for the shared task (was one per task: 7).
    expect(await link.client.hlen(`${prefix}removed`)).toBe(2);
    const floor = Number(await link.client.hget(`${prefix}removed`, ownRemovalField('tenant-b')));
    // Any own PTA of the tenant grown again (or new) is numbered past every version it removed, on either replica.
    const again = await b.addReference(own(0), statesB);
    const fresh = await a.addReference(own(9), statesB);
    expect(again.version).toBeGreaterThan(floor);
    expect(fresh.version).toBeGreaterThan(floor);
    // Another tenant's numbering does not move with it (nothing of B's activity shows in its versions).
    expect((await a.addReference(ownTaskKey('tenant-a', 'task-0'), statesA)).version).toBe(1);

    // A task's own field written by an older server still holds: grown past it, and dropped at its next removal.
    const old = own(20);
    await link.client.hset(`${prefix}removed`, old, '40');
    const past = await a.addReference(old, statesA);
    expect(past.version).toBe(41);
    await b.remove(old);
    expect(await link.client.hget(`${prefix}removed`, old)).toBeNull();
    expect(Number(await link.client.hget(`${prefix}removed`, ownRemovalField('tenant-b')))).toBe(41);
  });

  it('a replica remembers a bounded number of removals (every replica hears every removal)', () => {
    const known = new KnownVersions();
    const bound = 4096; // known-versions.ts: the removals remembered
    for (let i = 0; i <= bound; i++) known.removed(`t${i}`, 1);
    // The oldest is forgotten: its version may be seen again; the latest still blocks a late message.
    known.see('t0', 1);
    known.see(`t${bound}`, 1);
    expect([known.current.get('t0'), known.current.get(`t${bound}`)]).toEqual([1, undefined]);
  });
});

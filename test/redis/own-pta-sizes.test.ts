/**
 * T92: the own-PTA quota reads the bytes of every own PTA of a tenant at the first change of each burst, and a
 * change the per-task quota refuses (its hourly budget slot given back) or a real removal is one: each own PTA's
 * version was looked up in Redis (a round trip each) and, once out of the version cache, its chain read, parsed
 * and measured again: with 400 own PTAs ~160-230 ms of CPU for a 1-step addition refused `quota_exceeded`, at any
 * pace. Now their versions come in one `HMGET` and a version this replica measured is not read again. MONITOR
 * shows what a second read of the bytes sends, with a version cache of 2 entries and 6 own PTAs. Real runs of
 * pylint-dev__astroid-1196.
 */
import { describe, expect, it } from 'vitest';
import { OwnPtaQuota } from '../../src/server/own-pta-quota.js';
import { ScopedReferences } from '../../src/server/reference-scope.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { ptaToJson } from '../../src/core/pta/index.js';
import { ASTROID } from '../server/helpers.js';
import { statesOf } from '../store/states.js';
import { freshPrefix, useRedis } from './replicas.js';
import { commandsDuring } from './store-replicas.js';

const fx = useRedis();

describe("the quota's read of a tenant's own PTAs' bytes (T92)", () => {
  it('reads their versions in one command and no PTA again, however small the version cache', async () => {
    const prefix = freshPrefix('own-sizes');
    const link = new RedisLink({ url: fx.redis.url, prefix, maxBackoffMs: 100 });
    fx.links.push(link);
    await link.whenReady(5000);
    const store = await RedisReferenceStore.open({ link, maxEntries: 2 });
    const [passA, passB] = await Promise.all([statesOf(ASTROID.passA), statesOf(ASTROID.passB)]);
    const quota = new OwnPtaQuota(store, 1 << 30);
    const scoped = new ScopedReferences(store, 'tenant', quota);
    const bob = { tenant: 'bob', role: 'agent' as const };
    for (let i = 0; i < 6; i++) await scoped.add(bob, `own-${i}`, passA);
    await scoped.add(bob, 'own-0', passB);

    const first = await quota.held('bob');
    let again = 0;
    const commands = await commandsDuring(fx, async () => (again = await quota.held('bob')));
    expect(again).toBe(first);
    expect(commands.filter((c) => c.includes('ptl:') || c.includes('pta:'))).toEqual([]);
    expect(commands.filter((c) => /^"?hget"? /i.test(c))).toEqual([]);
    expect(commands.filter((c) => /^"?hmget"? /i.test(c))).toHaveLength(1);

    // The figure is each current PTA's JSON bytes, a growth and a removal of another replica's included.
    const otherLink = new RedisLink({ url: fx.redis.url, prefix, maxBackoffMs: 100 });
    fx.links.push(otherLink);
    await otherLink.whenReady(5000);
    const other = await RedisReferenceStore.open({ link: otherLink });
    await new ScopedReferences(other, 'tenant').add(bob, 'own-1', passB);
    await new ScopedReferences(other, 'tenant').remove(bob, 'own-2');
    const json = async (task: string): Promise<number> => Buffer.byteLength(ptaToJson((await other.get(task))!));
    const tasks = await other.ownTasks('bob');
    expect(tasks).toHaveLength(5);
    let want = 0;
    for (const task of tasks) want += await json(task);
    expect(await quota.held('bob')).toBe(want);
  });
});

/**
 * T82: a tenant's listing of tasks (`GET /v1/tasks`) and its own-PTA quota's read take the shared tasks and its own
 * PTAs from Redis' index sets, not every tenant's own-PTA keys (the tasks hash's `HKEYS`: another tenant's 50,000
 * own PTAs made a listing 202 ms). What a listing reads is watched with MONITOR: no command names the other
 * tenant's keys nor reads the whole tasks hash. Tasks a server older than the index wrote (no index sets, no `ix`)
 * are listed from the hash until a replica starting indexes them. Real runs of pylint-dev__astroid-1196.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { State } from '../../src/core/types.js';
import { OwnPtaQuota } from '../../src/server/own-pta-quota.js';
import { ScopedReferences } from '../../src/server/reference-scope.js';
import { ownTaskKey } from '../../src/store/tenant-keys.js';
import { ASTROID } from '../server/helpers.js';
import { statesOf } from '../store/states.js';
import { freshPrefix, useRedis } from './replicas.js';
import { commandsDuring, storeReplica } from './store-replicas.js';

const fx = useRedis();
let states: State[];

beforeAll(async () => {
  states = await statesOf(ASTROID.passA);
});

describe("a tenant's listing reads the shared tasks and its own, not another tenant's (T82)", () => {
  it("neither the listing nor the quota's read of its bytes sends a command naming bob's keys, nor reads the whole tasks hash", async () => {
    const prefix = freshPrefix('task-index');
    const store = await storeReplica(fx, prefix);
    const scoped = new ScopedReferences(store, 'tenant', new OwnPtaQuota(store, 1 << 30));
    await store.addReference(ASTROID.task, states);
    for (let i = 0; i < 5; i++) await scoped.add({ tenant: 'bob', role: 'agent' }, `bob-task-${i}`, states);
    await scoped.add({ tenant: 'alice', role: 'agent' }, 'alice-task', states);

    let listed: unknown;
    const listing = await commandsDuring(fx, async () => (listed = await scoped.list('alice')));
    expect(listed).toMatchObject([
      { task: 'alice-task', scope: 'tenant' },
      { task: ASTROID.task, scope: 'shared' },
    ]);
    const held = await commandsDuring(fx, () => new OwnPtaQuota(store, 1 << 30).held('alice'));
    for (const commands of [listing, held]) {
      expect(commands.length).toBeGreaterThan(0);
      expect(commands.filter((c) => c.includes('bob'))).toEqual([]);
      expect(commands.filter((c) => /^(hkeys|hgetall|hscan|hvals) /i.test(c) && c.includes(`${prefix}tasks`))).toEqual([]);
    }
    // An operator's listing of every tenant still shows bob's.
    expect((await scoped.list(undefined, true)).filter((t) => t.tenant === 'bob')).toHaveLength(5);
  });

  it('lists tasks an older server wrote (no index) from the tasks hash, and a replica starting indexes them', async () => {
    const prefix = freshPrefix('task-index-old');
    const first = await storeReplica(fx, prefix);
    await first.addReference('shared-task', states);
    for (const tenant of ['alice', 'bob']) await first.addReference(ownTaskKey(tenant, 'own'), states);
    // As an older server leaves Redis: the tasks hash and chains, no index.
    await fx.admin.del(`${prefix}st`, `${prefix}ot:alice`, `${prefix}ot:bob`, `${prefix}ix`);
    expect(await first.sharedTasks()).toEqual(['shared-task']);
    expect(await first.ownTasks('alice')).toEqual([ownTaskKey('alice', 'own')]);

    const second = await storeReplica(fx, prefix);
    expect(await fx.admin.get(`${prefix}ix`)).toBe('1');
    expect(await fx.admin.smembers(`${prefix}st`)).toEqual(['shared-task']);
    expect(await fx.admin.smembers(`${prefix}ot:bob`)).toEqual([ownTaskKey('bob', 'own')]);
    expect(await second.ownTasks('alice')).toEqual([ownTaskKey('alice', 'own')]);
    // Removed through either replica: out of the index too.
    await first.remove(ownTaskKey('bob', 'own'));
    expect(await second.ownTasks('bob')).toEqual([]);
    expect(await fx.admin.exists(`${prefix}ot:bob`)).toBe(0);
  });
});

/**
 * T83: a replica re-reads every shared task's version when it starts and each time its subscriber reconnects (the
 * pooled prior's), and read every tenant's own PTAs with them (`HGETALL` of the tasks hash: at 50,000 own PTAs
 * 1.0-1.3 s, the event loop held 0.8-0.9 s parsing the reply). It reads the shared tasks' index set and their
 * versions now; MONITOR shows no command reading the whole hash nor naming a tenant's keys. A task seen while a
 * re-read runs is kept though the re-read's reads missed it. Real runs of pylint-dev__astroid-1196.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { priorFromPtas } from '../../src/core/prior.js';
import type { State } from '../../src/core/types.js';
import { KnownVersions } from '../../src/store/redis/known-versions.js';
import type { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
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

describe("a replica's re-read of the shared tasks' versions (T83)", () => {
  it("reads no tenant's own PTAs when it starts, and pools the shared ones", async () => {
    const prefix = freshPrefix('shared-versions');
    const first = await storeReplica(fx, prefix);
    const shared = await first.addReference('shared-task', states);
    for (let i = 0; i < 5; i++) await first.addReference(ownTaskKey('bob', `own-${i}`), states);

    let second: RedisReferenceStore | undefined;
    const opening = await commandsDuring(fx, async () => (second = await storeReplica(fx, prefix)));
    expect(opening.some((c) => /^hmget /i.test(c))).toBe(true);
    expect(opening.filter((c) => c.includes('bob'))).toEqual([]);
    expect(opening.filter((c) => /^(hkeys|hgetall|hscan|hvals) /i.test(c) && c.includes(`${prefix}tasks`))).toEqual([]);
    expect(await second!.prior()).toEqual(priorFromPtas([shared]));
  });

  it('keeps a task seen while the re-read ran, though its reads missed it', () => {
    const known = new KnownVersions();
    known.see('old', 1);
    known.startReread();
    known.see('grown-meanwhile', 1);
    known.reread({ kept: '2' });
    expect([...known.current].sort()).toEqual([
      ['grown-meanwhile', 1],
      ['kept', 2],
    ]);
  });
});

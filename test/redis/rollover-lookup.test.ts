/**
 * A lookup racing a chain rollover (review s41): another replica's growth starts a new chain right after
 * this replica read the task's version. The version read is still kept (in the replaced chain), so the
 * lookup must answer a PTA, not "no PTA" (a session started then was pinned to the prior). The interleavings
 * are forced: the growth runs before the lookup's read of the chain goes out, or right after its first
 * Redis call returns.
 */
import type { RedisKey } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore, type RedisReferenceStoreOptions } from '../../src/store/redis/reference-store.js';
import { usePassingStates } from '../store/states.js';
import { freshPrefix, useRedis } from './replicas.js';

const TASK = 'rollover-task';
const fx = useRedis();
const passing = usePassingStates();

async function replica(prefix: string, options: Partial<RedisReferenceStoreOptions> = {}): Promise<{ store: RedisReferenceStore; link: RedisLink }> {
  const link = new RedisLink({ url: fx.redis.url, prefix });
  fx.links.push(link);
  return { store: await RedisReferenceStore.open({ link, ...options }), link };
}

/** Runs `between` once, right after the next command `link` sends has been answered. */
function afterNextCommand(link: RedisLink, between: () => Promise<unknown>): void {
  const run = link.run.bind(link);
  let pending: (() => Promise<unknown>) | undefined = between;
  vi.spyOn(link, 'run').mockImplementation(async (op, command) => {
    const result = await run(op, command);
    const now = pending;
    pending = undefined;
    if (now) await now();
    return result;
  });
}

/** Holds `link`'s next read of the task's chain start until `between` has run (the version was read before). */
function beforeChainRead(link: RedisLink, prefix: string, between: () => Promise<unknown>): void {
  const hget = link.client.hget.bind(link.client);
  let pending: (() => Promise<unknown>) | undefined = between;
  const held = async (key: RedisKey, field: string | Buffer): Promise<string | null> => {
    const now = String(key) === `${prefix}chains` ? pending : undefined;
    if (now) {
      pending = undefined;
      await now();
    }
    return hget(key, field);
  };
  vi.spyOn(link.client, 'hget').mockImplementation(held);
}

type Lookup = (s: RedisReferenceStore) => Promise<number | string | undefined>;
const LOOKUPS: Array<[string, Lookup]> = [
  ['reference', (s) => s.reference(TASK).then((r) => (r.kind === 'pta' ? r.pta.version : r.kind))],
  ['get', (s) => s.get(TASK).then((p) => p?.version)],
];

/** A task at v2 in the chain starting at 1, a replica `reader` that holds none of it, and `rollover()`: v3 in a new chain. */
async function setup(): Promise<{ prefix: string; reader: { store: RedisReferenceStore; link: RedisLink }; rollover: () => Promise<unknown> }> {
  const prefix = freshPrefix('rollover');
  const grower = await replica(prefix, { maxChainVersions: 2 });
  const reader = await replica(prefix);
  await grower.store.addReference(TASK, passing.a);
  await grower.store.addReference(TASK, passing.b);
  expect(await fx.admin.hget(`${prefix}chains`, TASK)).toBe('1');
  return { prefix, reader, rollover: () => grower.store.addReference(TASK, passing.a) };
}

describe('a lookup racing a chain rollover', () => {
  it.each(LOOKUPS)('%s answers a PTA when the rollover lands between its reads of the version and of the chain', async (_, lookup) => {
    const { prefix, reader, rollover } = await setup();
    beforeChainRead(reader.link, prefix, rollover);
    const answer = await lookup(reader.store);
    expect(await fx.admin.hget(`${prefix}chains`, TASK)).toBe('3');
    expect(answer).toBe(3); // read again: v2's chain start is not known then
  });

  it.each(LOOKUPS)('%s answers the version it read, from the replaced chain, when the rollover lands right after its first read', async (_, lookup) => {
    const { prefix, reader, rollover } = await setup();
    afterNextCommand(reader.link, rollover);
    const answer = await lookup(reader.store);
    expect(await fx.admin.hget(`${prefix}chains`, TASK)).toBe('3');
    expect(answer).toBe(2);
    // A moment later the lookup answers the new version.
    expect(await lookup(reader.store)).toBe(3);
  });
});

/**
 * A replica reading a big PTA from Redis (another replica's growth, a restart, a version its cache let go) gets each
 * chain element and version key as bytes and decodes them a slice a turn (src/store/redis/value-text.ts). Read as
 * strings, ioredis decoded each reply in one `toString` once its last byte was in: a 10 MB own PTA's chain held the
 * reading replica's other clients 80-190 ms. The PTA read back is the one stored (head, added states with `by`, a
 * version key from before chains, text that is not ASCII cut across slices), and a chain that expires while it is
 * read answers undefined, as before.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { loopTurnsDuring } from '../loop-turns.js';
import { ptaToJson } from '../../src/core/pta/index.js';
import type { State } from '../../src/core/types.js';
import { RedisKeys } from '../../src/store/redis/keys.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { readChain, readVersionKey } from '../../src/store/redis/pta-chains.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { DECODE_SLICE_BYTES, textInSlices } from '../../src/store/redis/value-text.js';
import { stateArb } from '../pta/arbitraries.js';
import { freshPrefix, useRedis } from './replicas.js';

const TASK = 'big-values';
/** `n` states of `words` distinct words each, some of them not ASCII (1.2 KB a state: a 2,500-step reference is 3 MB). */
const wordy = (n: number, words: number, r: number): State[] =>
  fc
    .sample(stateArb, { numRuns: n, seed: 11 + r })
    .map((st, t) => ({ ...st, t, hash: `r${r}h${t}`, tokens: Array.from({ length: words }, (_, w) => `r${r}s${t}w${w}${w % 7 === 0 ? 'é😀' : ''}`).sort() }));

const fx = useRedis();

async function replica(prefix: string): Promise<{ store: RedisReferenceStore; link: RedisLink }> {
  const link = new RedisLink({ url: fx.redis.url, prefix, commandTimeoutMs: 10_000 });
  fx.links.push(link);
  return { store: await RedisReferenceStore.open({ link }), link };
}

/** While `work` runs: the most bytes any `Buffer#toString` decoded at once (ioredis decodes a string reply so). */
async function longestDecode<T>(work: () => Promise<T>): Promise<{ value: T; longest: number }> {
  const spy = vi.spyOn(Buffer.prototype as Buffer, 'toString');
  try {
    const value = await work();
    const sizes = spy.mock.contexts.map((context, i) => {
      const bytes = context as Buffer;
      const [, from, to] = spy.mock.calls[i]!;
      return (to ?? bytes.length) - (from ?? 0);
    });
    return { value, longest: Math.max(0, ...sizes) };
  } finally {
    spy.mockRestore();
  }
}

describe('textInSlices', () => {
  it('decodes as Buffer#toString does, characters cut between slices included, the loop turning between slices', async () => {
    const text = `${'aé😀'.repeat(5)}${'x'.repeat(3)}`;
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 5, 7, bytes.length, bytes.length + 1]) expect(await textInSlices(bytes, size), `slices of ${size}`).toBe(text);
    const big = Buffer.from('{"k":"é😀"},'.repeat(600_000));
    const { value, turns } = await loopTurnsDuring(() => textInSlices(big));
    expect(value).toBe(big.toString());
    expect(turns).toBeGreaterThanOrEqual(Math.floor(big.length / DECODE_SLICE_BYTES));
    expect(await textInSlices(Buffer.alloc(0))).toBe('');
  });
});

describe('a big PTA read from Redis by another replica', () => {
  it('comes back as stored, its chain head and added states decoded a slice a turn, never a whole reply at once', async () => {
    const prefix = freshPrefix('bigv');
    const a = await replica(prefix);
    await a.store.addReference(TASK, wordy(2500, 60, 1));
    const grown = await a.store.addReference(TASK, wordy(2500, 60, 2), { by: 'tenant-b' });
    expect(grown.references.at(-1)?.by).toBe('tenant-b');
    // One chain: the first version's PTA and the second reference's states, each over a few slices.
    const start = Number(await fx.admin.hget(`${prefix}chains`, TASK));
    const sizes = (await fx.admin.eval("local out = {} for i, v in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do out[i] = #v end return out", 1, `${prefix}ptl:${start}:${TASK}`)) as number[];
    expect(sizes).toHaveLength(2);
    for (const size of sizes) expect(size).toBeGreaterThan(2 * DECODE_SLICE_BYTES);

    const b = await replica(prefix);
    const { value: read, longest } = await longestDecode(() => loopTurnsDuring(() => b.store.get(TASK)));
    expect(read.value).toEqual(grown);
    expect(ptaToJson(read.value!)).toBe(ptaToJson(grown));
    // Before: ioredis decoded each element whole (3 MB and more at once).
    expect(longest).toBeLessThanOrEqual(DECODE_SLICE_BYTES);
    expect(read.turns).toBeGreaterThanOrEqual(Math.floor((sizes[0]! + sizes[1]!) / DECODE_SLICE_BYTES));
  }, 120_000);

  it('reads a version stored whole under its own key (before chains) the same way; a key gone answers undefined', async () => {
    const prefix = freshPrefix('bigk');
    const a = await replica(prefix);
    const pta = await a.store.addReference(TASK, wordy(2500, 60, 3));
    const keys = new RedisKeys(prefix);
    await fx.admin.set(keys.pta(TASK, 7), ptaToJson({ ...pta, version: 7 }));
    const b = await replica(prefix);
    const { value: entry, longest } = await longestDecode(() => readVersionKey(b.link, keys, TASK, 7));
    expect(entry?.pta).toEqual({ ...pta, version: 7 });
    expect(entry?.bytes).toBe(Buffer.byteLength(ptaToJson({ ...pta, version: 7 })));
    expect(longest).toBeLessThanOrEqual(DECODE_SLICE_BYTES);
    expect(await readVersionKey(b.link, keys, TASK, 8)).toBeUndefined();
  }, 120_000);

  it('answers undefined, not a PTA missing versions, when the chain expires between its head and its added states', async () => {
    const prefix = freshPrefix('bige');
    const a = await replica(prefix);
    await a.store.addReference(TASK, wordy(1500, 60, 4));
    await a.store.addReference(TASK, wordy(300, 60, 5));
    const start = Number(await fx.admin.hget(`${prefix}chains`, TASK));
    const keys = new RedisKeys(prefix);
    const list = keys.chain(TASK, start);
    expect(await fx.admin.llen(list)).toBe(2);

    const b = await replica(prefix);
    const run = b.link.run.bind(b.link);
    let reads = 0;
    // The chain expires right after the head's reply arrives (a replaced chain's PEXPIRE running out).
    vi.spyOn(b.link, 'run').mockImplementation(async (op, command) => {
      const result = await run(op, command);
      if (op === 'get_pta' && ++reads === 1) await fx.admin.del(list);
      return result;
    });
    try {
      expect(await readChain(b.link, keys, () => undefined, TASK, start, start + 1)).toBeUndefined();
      expect(reads).toBe(2);
      // Gone before its head is read: undefined too.
      expect(await readChain(b.link, keys, () => undefined, TASK, start, start)).toBeUndefined();
    } finally {
      vi.restoreAllMocks();
    }
  }, 120_000);
});

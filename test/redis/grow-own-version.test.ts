/**
 * The Redis growth stall of the PTA-growth drill (issue 25: another client's ping waited 358-618 ms):
 * a replica that grows a task serves the PTA it built, never reading back and parsing its own write while
 * the growth's answer is on its way (a session start saw the new version in Redis first: 600 ms for 16 MB),
 * and a new chain's PTA JSON goes to Redis in pieces (one 16 MB argument held the thread half a second),
 * which every other replica reads back as the same PTA.
 */
import { describe, expect, it, vi } from 'vitest';
import { ptaToJson } from '../../src/core/pta/index.js';
import { pieces } from '../../src/store/redis/chain-stage.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { ASTROID } from '../server/helpers.js';
import { usePassingStates } from '../store/states.js';
import { freshPrefix, useRedis } from './replicas.js';

const fx = useRedis();
const passing = usePassingStates();

/** A replica's store; `ops` collects the op of every command it sends. */
async function replica(prefix: string, options: { pieceChars?: number } = {}): Promise<{ store: RedisReferenceStore; link: RedisLink; ops: string[] }> {
  const ops: string[] = [];
  const link = new RedisLink({ url: fx.redis.url, prefix, observer: { command: (op) => void ops.push(op), connection: () => undefined } });
  fx.links.push(link);
  return { store: await RedisReferenceStore.open({ link, ...options }), link, ops };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('a growing replica and its own new version', () => {
  it('serves the PTA its growth built when a lookup sees the version in Redis before the growth is answered (a new chain, then a delta)', async () => {
    const prefix = freshPrefix('ownversion');
    const { store, link, ops } = await replica(prefix);
    // Each growth's answer reaches the store 300 ms after Redis applied it.
    const run = link.run.bind(link);
    vi.spyOn(link, 'run').mockImplementation(async (op, command) => {
      const result = await run(op, command);
      if (op === 'grow') await sleep(300);
      return result;
    });
    for (const [states, version] of [
      [passing.a, 1],
      [passing.b, 2],
    ] as const) {
      ops.splice(0);
      const growing = store.addReference(ASTROID.task, states);
      while ((await fx.admin.hget(`${prefix}tasks`, ASTROID.task)) !== String(version)) await sleep(5);
      const seen = await store.get(ASTROID.task);
      const grown = await growing;
      expect(grown.version).toBe(version);
      expect(seen).toBe(grown); // the very object, not a copy read back
      expect(ops).not.toContain('get_pta');
    }
  });

  it('sends a new chain larger than a piece in pieces; another replica reads back the same PTA, and no stage is left', async () => {
    const prefix = freshPrefix('ownversion');
    const pieceChars = 4096;
    const a = await replica(prefix, { pieceChars });
    const b = await replica(prefix);
    const set = vi.spyOn(a.link.client, 'set');
    const append = vi.spyOn(a.link.client, 'append');
    const evalsha = vi.spyOn(a.link.client, 'evalsha');
    const grown = await a.store.addReference(ASTROID.task, passing.a);
    const json = ptaToJson(grown);
    expect(json.length).toBeGreaterThan(4 * pieceChars);
    const sent = [...set.mock.calls.map((c) => String(c[1])), ...append.mock.calls.map((c) => String(c[1]))];
    expect(sent.length).toBeGreaterThanOrEqual(Math.ceil(json.length / pieceChars));
    expect(Math.max(...sent.map((p) => p.length))).toBeLessThanOrEqual(pieceChars);
    expect(sent.join('')).toBe(json);
    // The growth script carries no PTA: only keys, names and numbers.
    expect(Math.max(...evalsha.mock.calls.flat().map((x) => String(x).length))).toBeLessThan(200);
    expect(await b.store.get(ASTROID.task)).toEqual(grown);
    expect(await fx.admin.keys(`${prefix}stg:*`)).toEqual([]);
    // A delta on top, read by the other replica from the staged chain.
    const next = await a.store.addReference(ASTROID.task, passing.b);
    expect(await b.store.get(ASTROID.task)).toEqual(next);
  });

  it('cuts text into pieces of at most the size, never between the halves of a surrogate pair', () => {
    const text = 'ab😀cd😀😀e'.repeat(7);
    for (const size of [1, 2, 3, 4, 5, 64]) {
      const cut = [...pieces(text, size)];
      expect(cut.join('')).toBe(text);
      for (const p of cut) {
        expect(p.length).toBeLessThanOrEqual(Math.max(size, 2));
        expect(Buffer.from(p, 'utf8').toString('utf8')).toBe(p); // each piece encodes on its own
      }
    }
  });
});

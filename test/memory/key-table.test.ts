/**
 * The variant keys in an open-addressing table instead of a `Map` (src/core/memory/key-table.ts, bench/README.md
 * "Memory per session, ninth pass"): it answers as a `Map` on generated keys, on colliding and many keys, and on the
 * state hashes of every real run, and its sizing (its heap bytes against the `Map`'s: the memory bench).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../src/core/memory/key-table.js';
import { exactKey, createVariantTracker } from '../../src/core/state/variant.js';
import { corpusRuns, statesOf } from '../fixtures/corpus-runs.js';

/** The tracker as it was: the most recent key per hash in a `Map`. */
function mapTracker(): (hash: string, key: number | undefined) => boolean {
  const last = new Map<string, number>();
  return (hash, key) => {
    if (key === undefined) return false;
    const prev = last.get(hash);
    last.set(hash, key);
    return prev !== undefined && prev !== key;
  };
}

describe('the variant keys in a key table', () => {
  it('swaps as a Map gets and sets, on few keys (many updates) and on many (the table grows)', () => {
    const value = fc.constantFrom(0, 1, 2 ** 31, 2 ** 52 - 1, 123_456_789_012_345);
    const key = (n: number): fc.Arbitrary<string> =>
      fc.oneof(
        fc.integer({ min: 0, max: n }).map((i) => `k${i}`),
        fc.string({ maxLength: 40 }),
      );
    for (const n of [4, 400]) {
      fc.assert(
        fc.property(fc.array(fc.tuple(key(n), value), { minLength: n, maxLength: 2 * n }), (ops) => {
          const table = new KeyTable();
          const map = new Map<string, number>();
          for (const [k, v] of ops) {
            expect(table.swap(k, v)).toBe(map.get(k));
            map.set(k, v);
          }
          expect(table.size).toBe(map.size);
          const seen = new Map<string, number>();
          table.forEach((k, v) => seen.set(k, v));
          expect(seen).toEqual(map);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('answers every state of every real run as the Map did, compacted between steps or not', () => {
    let states = 0;
    let variants = 0;
    let repeats = 0;
    for (const run of corpusRuns()) {
      const old = mapTracker();
      const plain = createVariantTracker();
      const compacted = createVariantTracker();
      const seen = new Set<string>();
      statesOf(run.steps).forEach((state, t) => {
        // Any 52-bit number per distinct action stands for its exact key; shell and code states keep theirs.
        const step = run.steps[t]!;
        const key = state.kind === 'read' ? undefined : exactKey(JSON.stringify(step.action));
        if (key !== undefined && seen.has(state.hash)) repeats++;
        if (key !== undefined) seen.add(state.hash);
        const want = old(state.hash, key);
        if (t % 7 === 3) compacted.compact();
        expect([plain.isVariant(state.hash, key), compacted.isVariant(state.hash, key)]).toEqual([want, want]);
        states++;
        if (want) variants++;
      });
    }
    expect(states).toBeGreaterThan(1000);
    // Hashes met again (the table's update path), of which some with another action (variants: 6 on this corpus).
    expect(repeats).toBeGreaterThan(100);
    expect(variants).toBeGreaterThan(3);
  });

  // Its heap bytes against the Map's are the memory bench's to measure (bench/README.md, "Memory per session, ninth
  // pass"): measured here, the Map's own size read 2,391 bytes in one run on Node 24 and over 3,000 in others.
  it('sizes a table of ~76 keys at 128 slots, three quarters full at most (72 keys at 96: mem20)', () => {
    expect(KeyTable.slotsFor(72)).toBe(96);
    expect(KeyTable.slotsFor(76)).toBe(128);
    expect(KeyTable.slotsFor(96)).toBe(128);
    expect(KeyTable.slotsFor(97)).toBe(192);
    const table = new KeyTable(KeyTable.slotsFor(76));
    for (let i = 0; i < 76; i++) expect(table.swap(`${(i * 2654435761).toString(16).padStart(32, '0')}`, 2 ** 40 + i)).toBeUndefined();
    expect(table.size).toBe(76);
  });
});

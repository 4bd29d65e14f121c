/**
 * The compact string-to-number table (memory/hash-table.ts) answers as a Map does, over random sequences of
 * swaps, gets and clears, across the index widths (bytes up to 204 keys, two bytes up to 52,428, then four).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashTable } from '../../src/core/memory/hash-table.js';

type Op = { op: 'swap'; key: string; value: number } | { op: 'get'; key: string } | { op: 'clear' };

const key = fc.oneof(fc.stringMatching(/^[0-9a-f]{0,4}$/), fc.string({ maxLength: 3 }));
const value = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 2 ** 52 }), fc.constantFrom(0.5, -0, Number.MAX_SAFE_INTEGER));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('swap' as const), key, value }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('get' as const), key }) },
  { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
);

describe('HashTable', () => {
  it('answers every swap and get as a Map', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const table = new HashTable();
        const map = new Map<string, number>();
        for (const o of ops) {
          if (o.op === 'clear') {
            table.clear();
            map.clear();
          } else if (o.op === 'get') expect(table.get(o.key)).toBe(map.get(o.key));
          else {
            expect(table.swap(o.key, o.value)).toBe(map.get(o.key));
            map.set(o.key, o.value);
          }
          expect(table.size).toBe(map.size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every key through the index widths (past 204 and 52,428 keys)', () => {
    const table = new HashTable();
    const n = 60_000;
    for (let i = 0; i < n; i++) expect(table.swap(`k${i}`, i * 2 ** 21)).toBeUndefined();
    expect(table.size).toBe(n);
    for (let i = 0; i < n; i++) expect(table.get(`k${i}`)).toBe(i * 2 ** 21);
    expect(table.get('k-1')).toBeUndefined();
    expect(table.swap('k7', 1)).toBe(7 * 2 ** 21);
    expect(table.get('k7')).toBe(1);
  });
});

/**
 * `nestedDeeperThan` runs on every frame and body: the limit is exact (a value nesting `max` levels passes,
 * one more is refused), objects and arrays count alike, and a value nesting 100,000 levels is answered
 * without overflowing the stack (the check stops at the limit).
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/formats/json-helpers.js';

/** A value nesting `n` levels: arrays and objects alternating, with scalars beside each level. */
function nested(n: number): unknown {
  let v: unknown = { leaf: 1, s: 'x', z: null };
  for (let i = 1; i < n; i++) v = i % 2 === 0 ? { a: 1, b: v, c: 'y' } : [1, 'two', null, v];
  return v;
}

describe('nestedDeeperThan', () => {
  it('passes a value of exactly the limit and refuses one level more', () => {
    for (const max of [1, 2, 3, 10, MAX_JSON_DEPTH]) {
      expect(nestedDeeperThan(nested(max), max)).toBe(false);
      expect(nestedDeeperThan(nested(max + 1), max)).toBe(true);
    }
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('finds the deep branch whichever child holds it, and ignores scalars', () => {
    const deep = nested(5);
    expect(nestedDeeperThan({ first: [1, 2], second: 'text', third: { deep } }, 6)).toBe(true);
    expect(nestedDeeperThan([[], {}, [deep]], 6)).toBe(true);
    expect(nestedDeeperThan([[], {}, [deep]], 7)).toBe(false);
    for (const scalar of [null, 0, 'text', true, undefined]) expect(nestedDeeperThan(scalar, 1)).toBe(false);
  });

  it('answers for 100,000 levels without overflowing', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(nestedDeeperThan(JSON.parse(text))).toBe(true);
  });

  it('counts only own properties', () => {
    const proto = { inherited: nested(10) };
    const v: Record<string, unknown> = Object.create(proto) as Record<string, unknown>;
    v.own = 1;
    expect(nestedDeeperThan(v, 3)).toBe(false);
  });
});

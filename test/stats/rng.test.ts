import { describe, expect, it } from 'vitest';
import { seededRandom, shuffleInPlace } from '../../src/core/stats/rng.js';

describe('shuffleInPlace', () => {
  it('permutes in place, the same way for the same seed, another way for another seed', () => {
    const xs = Array.from({ length: 50 }, (_, i) => i);
    const a = shuffleInPlace([...xs], seededRandom(1));
    expect([...a].sort((x, y) => x - y)).toEqual(xs);
    expect(a).toEqual(shuffleInPlace([...xs], seededRandom(1)));
    expect(a).not.toEqual(xs);
    expect(a).not.toEqual(shuffleInPlace([...xs], seededRandom(2)));
    const same = [...xs];
    expect(shuffleInPlace(same, seededRandom(3))).toBe(same);
  });

  it('moves every position about evenly (Fisher-Yates, not the biased swap-with-any)', () => {
    const random = seededRandom(7);
    const firsts = new Array<number>(4).fill(0);
    for (let r = 0; r < 8000; r++) firsts[shuffleInPlace([0, 1, 2, 3], random)[0]!]!++;
    for (const n of firsts) expect(n).toBeGreaterThan(1800);
  });
});

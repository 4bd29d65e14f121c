/** The A B B A order of a two-variant bench's passes (bench/pass-schedule.ts), which forecast.ts times its push passes in. */
import { describe, expect, it } from 'vitest';
import { splitPasses, variantOfPass } from '../../bench/pass-schedule.js';

describe('variantOfPass', () => {
  it('runs blocks of A B B A: each variant once after its own kind and once after the other, a block', () => {
    const order = Array.from({ length: 12 }, (_, i) => variantOfPass(i));
    expect(order).toEqual([0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0]);
    for (let b = 1; b < 3; b++) {
      const after = [0, 1, 2, 3].map((p) => [order[4 * b + p], order[4 * b + p - 1]]);
      expect(after.filter(([v, prev]) => v === prev).map(([v]) => v)).toEqual([0, 1]);
      expect(after.filter(([v, prev]) => v !== prev).map(([v]) => v)).toEqual([1, 0]);
    }
  });
});

describe('splitPasses', () => {
  // A pass costs 1 (A) or 1.2 (B), and 0.1 more after a pass of B: what the model's pass leaves to the next one.
  const costs = Array.from({ length: 4 * 6 }, (_, i) => (variantOfPass(i) === 0 ? 1 : 1.2) + (i > 0 && variantOfPass(i - 1) === 1 ? 0.1 : 0));
  const ratio = ([a, b]: [number[], number[]]) => b.reduce((s, x) => s + x, 0) / a.reduce((s, x) => s + x, 0);

  it('reads each variant after its own kind for the steady ratio, and strict alternation beside it', () => {
    const { steady, alternated } = splitPasses(costs, 1);
    expect(steady[0]).toEqual(Array(5).fill(1));
    expect(steady[1]).toEqual(Array(5).fill(1.3));
    // Strict alternation charges A with what B leaves: the ratio reads lower than either variant's own.
    expect(alternated[0]).toEqual(Array(5).fill(1.1));
    expect(alternated[1]).toEqual(Array(5).fill(1.2));
    expect(ratio(steady)).toBeCloseTo(1.3, 12);
    expect(ratio(alternated)).toBeCloseTo(1.2 / 1.1, 12);
  });

  it('pairs by block, skips the warm-up blocks and an unfinished last block', () => {
    const values = Array.from({ length: 4 * 3 + 2 }, (_, i) => i);
    expect(splitPasses(values)).toEqual({
      steady: [
        [0, 4, 8],
        [2, 6, 10],
      ],
      alternated: [
        [3, 7, 11],
        [1, 5, 9],
      ],
    });
    expect(splitPasses(values, 2)).toEqual({ steady: [[8], [10]], alternated: [[11], [9]] });
    expect(splitPasses([0, 1, 2])).toEqual({ steady: [[], []], alternated: [[], []] });
  });
});

/**
 * bench/step-tail's numbers: the tail of a distribution, the steps named slowest by their median over repeats (a
 * pause landing on a step once does not name it), the samples over a limit and where.
 */
import { describe, expect, it } from 'vitest';
import { overThreshold, slowestSteps, tailOf } from '../../bench/step-tail-stats.js';

describe('step-tail stats', () => {
  it('reads p50, p90, p99, p99.9 and the max of 1..1000', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    const t = tailOf(xs);
    expect(t.n).toBe(1000);
    expect(t.p50).toBeCloseTo(500.5, 6);
    expect(t.p90).toBeCloseTo(900.1, 6);
    expect(t.p99).toBeCloseTo(990.01, 6);
    expect(t.p999).toBeCloseTo(999.001, 6);
    expect(t.max).toBe(1000);
  });

  it('gives NaN for no samples', () => {
    const t = tailOf([]);
    expect(t.n).toBe(0);
    expect(t.p99).toBeNaN();
    expect(t.max).toBeNaN();
  });

  it('names steps by their median, not by one outlier', () => {
    const steps = [
      { key: 'a', samples: [10, 10, 5000] },
      { key: 'b', samples: [300, 310, 290] },
      { key: 'c', samples: [50, 60, 55] },
    ];
    expect(slowestSteps(steps, 2)).toEqual([
      { key: 'b', median: 300 },
      { key: 'c', median: 55 },
    ]);
    expect(slowestSteps(steps, 0)).toEqual([]);
  });

  it('counts the samples over a limit and the seqs they were at', () => {
    expect(overThreshold([[1, 2000], [3], [1500, 1200, 4]], 1000)).toEqual({ count: 3, seqs: [0, 2] });
    expect(overThreshold([[1], [2]], 1000)).toEqual({ count: 0, seqs: [] });
  });
});

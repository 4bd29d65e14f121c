import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/core/stats/interval.js';
import { rankWithTies } from '../../src/core/stats/ranking.js';

const rate = (k: number, n: number) => ({ estimate: k / n, interval: wilsonInterval(k, n), n });

describe('rankWithTies', () => {
  it('ranks by the entries clearly above, ties overlapping intervals, and skips entries below the minimum', () => {
    // 46/58 (79 %) and 3/4 overlap (both rank 1, tied); both lie wholly above 10/100 (rank 3); 1/1 is not ranked on one run.
    const r = rankWithTies([rate(1, 1), rate(46, 58), rate(10, 100), rate(3, 4)], 3);
    expect(r[0]).toEqual({ rank: null, tied: false, unranked: 'n 1 < 3' });
    expect(r[1]).toEqual({ rank: 1, tied: true });
    expect(r[3]).toEqual({ rank: 1, tied: true });
    expect(r[2]).toEqual({ rank: 3, tied: false });
    // Alone, the two are told apart.
    expect(rankWithTies([rate(46, 58), rate(10, 100)], 3)).toEqual([
      { rank: 1, tied: false },
      { rank: 2, tied: false },
    ]);
    expect(rankWithTies([{ estimate: null, interval: null, n: 20 }], 1)[0]).toEqual({ rank: null, tied: false, unranked: 'no estimate' });
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { auroc, averageRanks, chiSquareIndependence, chiSquareSf, fleissKappa, gammaQ, kolmogorovQ, ksTwoSample, logGamma, mean, median, quantile } from '../../src/core/stats/index.js';

/** AUROC by brute-force pair counting: the second method. */
function pairAuroc(pos: number[], neg: number[]): number {
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

describe('descriptive statistics', () => {
  it('mean, median and type-7 quantiles', () => {
    expect(mean([1, 2, 3, 10])).toBe(4);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([10, 20], 0.9)).toBeCloseTo(19);
    expect(mean([])).toBeNull();
    expect(median([])).toBeNull();
  });
  it('average ranks share tied positions', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
    expect(averageRanks([0.5, 0.9, 0.9], true)).toEqual([3, 1.5, 1.5]);
  });
  it('ranks always sum to n(n+1)/2', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 30 }), (xs) => {
        const r = averageRanks(xs);
        expect(r.reduce((s, v) => s + v, 0)).toBeCloseTo((xs.length * (xs.length + 1)) / 2, 9);
      }),
    );
  });
});

describe('AUROC (Mann-Whitney U)', () => {
  it('matches brute-force pair counting, ties counting one half', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 25 }), fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 25 }), (pos, neg) => {
        expect(auroc(pos, neg)!.auroc).toBeCloseTo(pairAuroc(pos, neg), 12);
      }),
    );
  });
  it('U equals scipy mannwhitneyu on a small sample (6.5)', () => {
    const r = auroc([3, 1, 4, 1, 5], [9, 2, 6, 5, 3, 5])!;
    expect(r.u).toBe(6.5);
    expect(r.auroc).toBeCloseTo(6.5 / 30, 12);
  });
  it('is 1 for perfect separation and null for an empty side', () => {
    expect(auroc([5, 6], [1, 2])!.auroc).toBe(1);
    expect(auroc([], [1])).toBeNull();
  });
});

describe('Kolmogorov-Smirnov two-sample test', () => {
  const a = [0.61, 0.29, 0.06, 0.59, -1.73, -0.74, 0.51, -0.56, 0.39, 1.64, 0.05, -0.06, 0.64, -0.82, 0.37, 1.77, 1.09, -1.28, 2.36, 1.31, 1.05, -0.32, -0.4, 1.06, -2.47];
  const b = [2.2, 1.66, 1.38, 0.2, 0.36, 0, 0.96, 1.56, 0.44, 1.5, -0.3, 0.66, 2.31, 3.29, -0.27, -0.37, 0.38, 0.7, 0.52, -0.71];
  it('D matches scipy; the p of 25 x 20 runs is exact (scipy ks_2samp exact), the corrected asymptotic one kstwobign.sf at the corrected λ', () => {
    const r = ksTwoSample(a, b)!;
    expect(r.d).toBeCloseTo(0.23, 12);
    expect(r.method).toBe('exact');
    expect(r.p).toBeCloseTo(0.5286364448145011, 9);
    const ne = Math.sqrt((25 * 20) / 45);
    expect(kolmogorovQ((ne + 0.12 + 0.11 / ne) * r.d)).toBeCloseTo(0.5411245537216747, 9);
  });
  it('Kolmogorov survival function table values', () => {
    expect(kolmogorovQ(1.358)).toBeCloseTo(0.05, 3);
    expect(kolmogorovQ(1.628)).toBeCloseTo(0.01, 3);
    expect(kolmogorovQ(0)).toBe(1);
  });
  it('D is 1 for disjoint samples and 0 for equal ones', () => {
    expect(ksTwoSample([1, 2, 3], [4, 5])!.d).toBe(1);
    expect(ksTwoSample([1, 2, 3], [1, 2, 3])!.d).toBe(0);
    expect(ksTwoSample([1, 2, 3], [1, 2, 3])!.p).toBe(1);
  });
});

describe('χ² test of independence', () => {
  it('survival function matches table values', () => {
    expect(chiSquareSf(3.841, 1)).toBeCloseTo(0.05, 3);
    expect(chiSquareSf(3.841, 1)).toBeCloseTo(0.050013683763956804, 9);
    expect(chiSquareSf(10, 4)).toBeCloseTo(0.04042768199451279, 9);
    expect(chiSquareSf(0.5, 3)).toBeCloseTo(0.9188914116546758, 9);
    expect(chiSquareSf(100, 50)).toBeCloseTo(3.454931382984871e-5, 12);
  });
  it('special functions match scipy', () => {
    expect(gammaQ(2.5, 1.3)).toBeCloseTo(0.761365267845014, 10);
    expect(gammaQ(0.5, 0.01)).toBeCloseTo(0.887537083981715, 10);
    expect(logGamma(10.5)).toBeCloseTo(13.940625219403763, 10);
  });
  it('statistic, dof and p match scipy chi2_contingency (no correction)', () => {
    const r = chiSquareIndependence([
      [10, 20, 30],
      [6, 9, 17],
    ])!;
    expect(r.statistic).toBeCloseTo(0.27157465150403504, 10);
    expect(r.dof).toBe(2);
    expect(r.p).toBeCloseTo(0.873028283380073, 9);
  });
  it('drops empty rows and columns; null when too small or ragged', () => {
    const r = chiSquareIndependence([
      [10, 0, 20, 30],
      [0, 0, 0, 0],
      [6, 0, 9, 17],
    ])!;
    expect(r.dof).toBe(2);
    expect(chiSquareIndependence([[1, 2]])).toBeNull();
    expect(chiSquareIndependence([[1, 2], [3]])).toBeNull();
  });
});

describe("Fleiss' κ", () => {
  it('Wikipedia example: κ = 0.210', () => {
    const counts = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(counts)!).toBeCloseTo(0.21, 3);
  });
  it('perfect agreement is 1; malformed input is null', () => {
    expect(
      fleissKappa([
        [3, 0],
        [0, 3],
        [3, 0],
      ]),
    ).toBe(1);
    expect(
      fleissKappa([
        [3, 0],
        [1, 1],
      ]),
    ).toBeNull();
  });
});

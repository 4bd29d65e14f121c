import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wilsonInterval as intervalWilson } from '../../src/core/stats/interval.js';
import { binomialCdf, clopperPearsonUpper, normalQuantile, trialsForBound, upperBound, wilsonInterval, wilsonUpper } from '../../src/core/stats/binomial.js';

describe('one-sided upper bounds of a binomial rate', () => {
  it('Clopper-Pearson matches known values (R: binom.test(k, n, alternative = "less")$conf.int[2])', () => {
    expect(clopperPearsonUpper(2, 20)).toBeCloseTo(0.2826, 4);
    expect(clopperPearsonUpper(0, 20)).toBeCloseTo(1 - 0.05 ** (1 / 20), 10);
    expect(clopperPearsonUpper(1, 190)).toBeCloseTo(0.0247, 4);
    expect(clopperPearsonUpper(5, 5)).toBe(1);
    expect(clopperPearsonUpper(0, 0)).toBe(1);
  });

  it('Clopper-Pearson is exact: P(X <= k) at the bound is 1 - confidence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), fc.constantFrom(0.8, 0.9, 0.95, 0.99), (n, k0, conf) => {
        const k = k0 % n;
        expect(binomialCdf(k, n, clopperPearsonUpper(k, n, conf))).toBeCloseTo(1 - conf, 6);
      }),
    );
  });

  it('both bounds lie above the point estimate and rise with k and confidence; Wilson is the looser', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.nat(), (n, k0) => {
        const k = k0 % n;
        const cp = clopperPearsonUpper(k, n);
        const w = wilsonUpper(k, n);
        expect(cp).toBeGreaterThan(k / n);
        expect(w).toBeGreaterThan(k / n);
        expect(w).toBeLessThanOrEqual(cp + 1e-9);
        expect(clopperPearsonUpper(k + 1, n)).toBeGreaterThan(cp);
        expect(clopperPearsonUpper(k, n, 0.99)).toBeGreaterThan(cp);
      }),
    );
  });

  it('Wilson and the normal quantile match known values', () => {
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5);
    // z = 1.6449: (0 + z^2/2n + z sqrt(z^2/4n^2)) / (1 + z^2/n) = z^2 / (n + z^2)
    expect(wilsonUpper(0, 59)).toBeCloseTo(1.644854 ** 2 / (59 + 1.644854 ** 2), 6);
    expect(upperBound('wilson', 3, 40, 0.95)).toBe(wilsonUpper(3, 40, 0.95));
  });

  it('the two-sided Wilson interval: its bounds at z = 1.96, symmetric in successes and failures', () => {
    const z2 = 1.959964 ** 2;
    // k = 0: [0, z^2 / (n + z^2)]; k = n: [n / (n + z^2), 1].
    expect(wilsonInterval(0, 3)[0]).toBe(0);
    expect(wilsonInterval(0, 3)[1]).toBeCloseTo(z2 / (3 + z2), 6);
    expect(wilsonInterval(3, 3)[0]).toBeCloseTo(3 / (3 + z2), 6);
    expect(wilsonInterval(3, 3)[1]).toBe(1);
    // 54 of 55: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n) = 0.9039-0.9968 (worked by hand).
    const [lo, hi] = wilsonInterval(54, 55);
    expect(lo).toBeCloseTo(0.90394, 4);
    expect(hi).toBeCloseTo(0.99678, 4);
    const [a, b] = wilsonInterval(7, 20);
    const [c, d] = wilsonInterval(13, 20);
    expect(a).toBeCloseTo(1 - d, 12);
    expect(b).toBeCloseTo(1 - c, 12);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    // The one-sided upper bound at 95 % is the two-sided interval's at 90 %.
    expect(wilsonInterval(3, 40, 0.9)[1]).toBeCloseTo(wilsonUpper(3, 40, 0.95), 12);
  });

  it('trialsForBound: the fewest passing runs that can show a rate within the bound', () => {
    expect(trialsForBound('clopper-pearson', 0.05, 0.95)).toBe(59);
    expect(trialsForBound('clopper-pearson', 0.02, 0.95)).toBe(149);
    expect(trialsForBound('clopper-pearson', 0.25, 0.95)).toBe(11);
    expect(trialsForBound('clopper-pearson', 0, 0.95)).toBe(Infinity);
    expect(clopperPearsonUpper(0, 59)).toBeLessThanOrEqual(0.05);
    expect(clopperPearsonUpper(0, 58)).toBeGreaterThan(0.05);
  });
});

describe('Wilson bounds at the ends', () => {
  it('are exactly 0 at k = 0 and 1 at k = n, so an interval always holds its estimate (the formula is 1e-17 off)', () => {
    for (const n of [1, 6, 21, 200, 1999]) {
      for (const level of [0.9, 0.95, 0.99]) {
        expect(wilsonInterval(0, n, level)[0]).toBe(0);
        expect(wilsonInterval(n, n, level)[1]).toBe(1);
        expect(wilsonUpper(n, n, level)).toBe(1);
        expect(intervalWilson(0, n, level).lo).toBe(0);
        expect(intervalWilson(n, n, level).hi).toBe(1);
      }
    }
  });
});

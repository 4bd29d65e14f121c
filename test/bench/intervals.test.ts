/** The benches' intervals (bench/intervals.ts) and how a target reads one (bench/report.ts `target`). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIN_PAIRS, pairedGroupRatioInterval, pairedPooledRatioInterval, pairedRatioInterval } from '../../bench/intervals.js';
import { target } from '../../bench/report.js';

describe('pairedRatioInterval', () => {
  it('is given from MIN_PAIRS pairs of equal length, and is the same for the same measurements (seeded)', () => {
    const a = [10, 11, 12, 13];
    expect(pairedRatioInterval(a, a, 'median')).toBeUndefined();
    expect(pairedRatioInterval([...a, 14], a, 'median')).toBeUndefined();
    const b = [20, 21, 22, 23, 24];
    const iv = pairedRatioInterval([...a, 14], b, 'mean');
    expect(MIN_PAIRS).toBe(5);
    expect(iv).toEqual(pairedRatioInterval([...a, 14], b, 'mean'));
  });

  it('keeps pairs together: a machine that drifts in both variants alike gives a narrow interval', () => {
    // Each pass of either variant slowed by the same drift; variant a costs exactly 0.8 of b in every pass.
    const drift = [1, 3, 1.5, 4, 2, 6, 1.2, 5, 2.5, 3.5];
    const b = drift.map((d) => 100 * d);
    const a = b.map((x) => 0.8 * x);
    const [lo, hi] = pairedRatioInterval(a, b, 'mean')!;
    expect(lo).toBeCloseTo(0.8, 12);
    expect(hi).toBeCloseTo(0.8, 12);
    // Unpaired (b in another order), the same numbers spread widely.
    const shuffled = [...b].reverse();
    const [ulo, uhi] = pairedRatioInterval(a, shuffled, 'median')!;
    expect(uhi - ulo).toBeGreaterThan(0.3);
  });

  it('holds the ratio of medians it brackets', () => {
    const a = [5, 6, 7, 8, 9, 10, 11];
    const b = [10, 10, 10, 10, 10, 10, 10];
    const [lo, hi] = pairedRatioInterval(a, b, 'median')!;
    expect(lo).toBeLessThanOrEqual(0.8);
    expect(hi).toBeGreaterThanOrEqual(0.8);
    expect(lo).toBeGreaterThanOrEqual(0.5);
    expect(hi).toBeLessThanOrEqual(1.1);
  });
});

describe('pairedGroupRatioInterval', () => {
  // Five runs of a 4-push window at two positions; each run slowed alike at both (its moment of the machine).
  const drift = [1, 2.5, 1.2, 4, 1.7];
  const window = [8, 9, 30, 10];
  const at10 = drift.map((d) => window.map((x) => x * d));

  it('is given from MIN_PAIRS groups of equal count, the same for the same measurements (seeded)', () => {
    expect(pairedGroupRatioInterval(at10.slice(0, 4), at10.slice(0, 4), 'median')).toBeUndefined();
    expect(pairedGroupRatioInterval(at10, at10.slice(0, 4), 'median')).toBeUndefined();
    const later = at10.map((w) => w.map((x) => x + 1));
    expect(pairedGroupRatioInterval(later, at10, 'median')).toEqual(pairedGroupRatioInterval(later, at10, 'median'));
  });

  it('draws runs whole and in pairs: a drift shared by both windows of a run leaves no spread', () => {
    const at2000 = at10.map((w) => w.map((x) => 1.3 * x));
    const [lo, hi] = pairedGroupRatioInterval(at2000, at10, 'median')!;
    expect(lo).toBeCloseTo(1.3, 12);
    expect(hi).toBeCloseTo(1.3, 12);
    // Runs unpaired (the later windows in another order), the same numbers spread widely.
    const [ulo, uhi] = pairedGroupRatioInterval([...at2000].reverse(), at10, 'median')!;
    expect(uhi - ulo).toBeGreaterThan(0.3);
  });

  it('brackets the ratio of the pooled medians, not the median of per-run ratios', () => {
    // Run 0's later window is slow in its two fastest pushes only: the pooled median moves little.
    const at2000 = at10.map((w, r) => (r === 0 ? [w[0]! * 3, w[1]! * 3, w[2]!, w[3]!] : w));
    const pooled = (g: number[][]) => [...g.flat()].sort((x, y) => x - y);
    const p10 = pooled(at10);
    const p2000 = pooled(at2000);
    const mid = (xs: number[]) => (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2;
    const ratio = mid(p2000) / mid(p10);
    const [lo, hi] = pairedGroupRatioInterval(at2000, at10, 'median')!;
    expect(lo).toBeLessThanOrEqual(ratio);
    expect(hi).toBeGreaterThanOrEqual(ratio);
    expect(lo).toBeGreaterThanOrEqual(1);
  });
});

describe('pairedPooledRatioInterval (ws-load: the echo CPU a message over steplens CPU a step)', () => {
  it('brackets the pooled ratio, keeps pairs together, and is given from MIN_PAIRS pairs', () => {
    // Rounds of different lengths and a machine slowing both targets alike: the echo costs 0.5 of steplens a step.
    const drift = [1, 1.8, 1.2, 2.5, 1.1, 3, 1.4];
    const steps = [9000, 5000, 8000, 4000, 8500, 3000, 7000];
    const steplens = drift.map((d, i) => ({ cost: 80e-6 * d * steps[i]!, count: steps[i]! }));
    const echo = drift.map((d, i) => ({ cost: 40e-6 * d * 2 * steps[i]!, count: 2 * steps[i]! }));
    const [lo, hi] = pairedPooledRatioInterval(echo, steplens)!;
    expect(lo).toBeCloseTo(0.5, 12);
    expect(hi).toBeCloseTo(0.5, 12);
    // Pooled: a round weighs by its steps. One round of a single step (a ratio of 1,000 alone) moves it to 1.25,
    // where the mean of the rounds' own ratios would be ~200.
    const skew = [{ cost: 1, count: 1 }, ...Array.from({ length: 4 }, () => ({ cost: 1, count: 1000 }))];
    const flat = Array.from({ length: 5 }, () => ({ cost: 1, count: 1000 }));
    const [slo, shi] = pairedPooledRatioInterval(skew, flat)!;
    expect(slo).toBeGreaterThanOrEqual(1);
    expect(shi).toBeLessThan(5);
    expect(pairedPooledRatioInterval(echo.slice(0, 4), steplens.slice(0, 4))).toBeUndefined();
    expect(pairedPooledRatioInterval(echo, steplens.slice(1))).toBeUndefined();
  });
});

describe('target with an interval', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is settled only when the whole interval is on the side of the bound the value is on', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(target('x', 1.1, '<=', 1.2, '', [1.05, 1.15])).toMatchObject({ met: true, settled: true, interval: [1.05, 1.15] });
    expect(target('x', 1.22, '<=', 1.2, '', [1.19, 1.25])).toMatchObject({ met: false, settled: false });
    expect(target('x', 1.25, '<=', 1.2, '', [1.22, 1.28])).toMatchObject({ met: false, settled: true });
    expect(target('x', 0.61, '>=', 0.6, '', [0.58, 0.64])).toMatchObject({ met: true, settled: false });
    const plain = target('x', 0.5, '>=', 0.6);
    expect(plain.met).toBe(false);
    expect('settled' in plain || 'interval' in plain).toBe(false);
    expect(log.mock.calls.map((c) => String(c[0]))).toEqual([
      'TARGET x: 1.1 [1.05, 1.15] (target <= 1.2) MET',
      'TARGET x: 1.22 [1.19, 1.25] (target <= 1.2) MISSED, interval holds the bound',
      'TARGET x: 1.25 [1.22, 1.28] (target <= 1.2) MISSED',
      'TARGET x: 0.61 [0.58, 0.64] (target >= 0.6) MET, interval holds the bound',
      'TARGET x: 0.5 (target >= 0.6) MISSED',
    ]);
  });
});

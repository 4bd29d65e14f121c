import { describe, expect, it } from 'vitest';
import { composite, tierFor } from '../../src/core/composite.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';

const W = DEFAULT_CONFIG.weights;
const SUM = W.struct + W.cov + W.coh + W.temp;

describe('composite', () => {
  it('is the weighted sum of the paper with the default weights', () => {
    const v = composite({ struct: 50, cov: 40, coh: 0.5, temp: 0.8 }, W);
    // 0.20·50 + 0.15·40 + 0.30·50 + 0.35·80 = 10 + 6 + 15 + 28 = 59
    expect(v.total).toBeCloseTo(59, 12);
    expect(v).toMatchObject({ struct: 50, cov: 40, coh: 0.5, temp: 0.8 });
    expect(v.total).toBe((0.2 * 50 + 0.15 * 40 + 0.3 * 100 * 0.5 + 0.35 * 100 * 0.8) / SUM);
  });

  it('reference-free: leaves struct and cov out and renormalises coh and temp', () => {
    const v = composite({ struct: null, cov: null, coh: 0.5, temp: 0.8 }, W);
    // (0.30·50 + 0.35·80) / 0.65 = 43 / 0.65
    expect(v.total).toBeCloseTo(43 / 0.65, 12);
    expect(v.struct).toBeNull();
    expect(v.cov).toBeNull();
  });

  it('perfect signals score 100 (clamped), nothing scores 0', () => {
    expect(composite({ struct: 100, cov: 100, coh: 1, temp: 1 }, W).total).toBe(100);
    expect(composite({ struct: 0, cov: 0, coh: 0, temp: 0 }, W).total).toBe(0);
  });

  it('normalises non-unit weights', () => {
    expect(composite({ struct: 10, cov: 20, coh: 0.3, temp: 0.4 }, { struct: 1, cov: 1, coh: 1, temp: 1 }).total).toBeCloseTo(25, 12);
  });
});

describe('tierFor', () => {
  it.each([
    [70, true, 'Ideal'],
    [69.999, true, 'Solid'],
    [47, true, 'Solid'],
    [46.999, true, 'Lucky'],
    [47, false, 'Partial-fail'],
    [46.999, false, 'Off-track'],
    [90, false, 'Partial-fail'],
    [70, undefined, 'Ideal'],
    [50, undefined, 'Solid'],
    [10, undefined, 'Lucky'],
  ] as const)('%d passed=%s → %s', (total, passed, tier) => {
    expect(tierFor(total, passed, DEFAULT_CONFIG)).toBe(tier);
  });
});

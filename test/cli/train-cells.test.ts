import { describe, expect, it } from 'vitest';
import { est, iv } from '../../src/cli/train-cells.js';

const ci = (lo: number, hi: number) => ({ lo, hi, level: 0.95 });

describe("train's number cells", () => {
  it('an interval printed to two decimals holds its point printed to three (audit28: ECE 0.017 [0.02, 0.05])', () => {
    expect(est(0.0169, ci(0.0153, 0.0501))).toBe('0.017 [0.01, 0.05]');
    expect(est(0.9981, ci(0.9712, 0.9984))).toBe('0.998 [0.97, 1.00]');
  });
  it('bounds that rounding keeps on their side of the point print as rounded', () => {
    expect(est(0.169, ci(0.114, 0.236))).toBe('0.169 [0.11, 0.24]');
    expect(iv(ci(0.114, 0.236))).toBe(' [0.11, 0.24]');
    expect(est(0.5, null)).toBe('0.500 [-]');
  });
});

/**
 * audit29: run-all's summary printed four significant digits of a value and of its interval whatever the interval's
 * width (stop 73: `0.8623 [0.6415, 1.182]`, `3.327 [2.42, 4.221]`). Rows of that run, as printed now.
 */
import { describe, expect, it } from 'vitest';
import { intervalDigits, withInterval } from '../../bench/interval-digits.js';

describe('run-all prints a value to the digits its interval supports', () => {
  it("stop 73's rows: two significant digits of the interval's width", () => {
    expect(withInterval(0.8623, [0.6415, 1.182])).toEqual(['0.86', '[0.64, 1.18]']);
    expect(withInterval(3.327, [2.42, 4.221])).toEqual(['3.3', '[2.4, 4.2]']);
    expect(withInterval(1.277, [1.241, 1.31])).toEqual(['1.277', '[1.241, 1.310]']);
    expect(withInterval(0.6288, [0.5498, 0.6606])).toEqual(['0.63', '[0.55, 0.66]']);
  });
  it('no interval: four significant digits, as before; a zero-width interval the same', () => {
    expect(withInterval(6.181)).toEqual(['6.181', '']);
    expect(withInterval(263.04)).toEqual(['263', '']);
    expect(intervalDigits(0)).toBe(4);
    expect(intervalDigits(12)).toBe(0);
  });
});

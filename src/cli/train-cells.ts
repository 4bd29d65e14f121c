/** train's number cells: three decimals, intervals to two, `-` for a figure that could not be computed. */
import type { Interval } from '../core/stats/interval.js';

export const f3 = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : x.toFixed(3));
export const iv = (i: Interval | null | undefined): string => (i === null || i === undefined ? '' : ` [${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`);
/** An estimate with its bootstrap interval; `[-]` when there is none (a side of one run, one task: no spread to draw). */
export const est = (x: number | null | undefined, i: Interval | null | undefined): string => (x === null || x === undefined ? '-' : `${f3(x)}${i ? iv(i) : ' [-]'}`);
export const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${(100 * x).toFixed(1)} %`);

/** 1 − an AUROC with its interval flipped: the same ranking read the other way (longer runs win). */
export const flipped = (x: number | null | undefined, i: Interval | null | undefined): string =>
  x === null || x === undefined ? '-' : est(1 - x, i ? { lo: 1 - i.hi, hi: 1 - i.lo, level: i.level } : null);

/** train's number cells: three decimals, intervals to two, `-` for a figure that could not be computed. */
import type { Interval } from '../core/stats/interval.js';

export const f3 = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : x.toFixed(3));
/**
 * An interval to two decimals. Given its point (printed to three), a bound that rounding would carry past the point is
 * rounded outward (0.0169 [0.0153, 0.0501] prints 0.017 [0.01, 0.05], not [0.02, 0.05]): the printed interval holds
 * the printed point, as the computed one holds the computed point.
 */
export const iv = (i: Interval | null | undefined, point?: number | null): string => {
  if (i === null || i === undefined) return '';
  const p = point === null || point === undefined ? undefined : Number(point.toFixed(3));
  const lo = p !== undefined && Number(i.lo.toFixed(2)) > p ? Math.floor(i.lo * 100) / 100 : i.lo;
  const hi = p !== undefined && Number(i.hi.toFixed(2)) < p ? Math.ceil(i.hi * 100) / 100 : i.hi;
  return ` [${lo.toFixed(2)}, ${hi.toFixed(2)}]`;
};
/** An estimate with its bootstrap interval; `[-]` when there is none (a side of one run, one task: no spread to draw). */
export const est = (x: number | null | undefined, i: Interval | null | undefined): string => (x === null || x === undefined ? '-' : `${f3(x)}${i ? iv(i, x) : ' [-]'}`);
export const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${(100 * x).toFixed(1)} %`);

/** 1 − an AUROC with its interval flipped: the same ranking read the other way (longer runs win). */
export const flipped = (x: number | null | undefined, i: Interval | null | undefined): string =>
  x === null || x === undefined ? '-' : est(1 - x, i ? { lo: 1 - i.hi, hi: 1 - i.lo, level: i.level } : null);

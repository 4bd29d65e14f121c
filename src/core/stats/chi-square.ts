/** Pearson χ² test of independence on a contingency table. */
import { gammaQ } from './special.js';

export interface ChiSquareResult {
  statistic: number;
  dof: number;
  p: number;
  /** Expected counts under independence (rows/columns that are all zero removed). */
  expected: number[][];
  rows: number;
  cols: number;
}

/** P(X >= x) for X ~ χ²(dof). */
export function chiSquareSf(x: number, dof: number): number {
  return gammaQ(dof / 2, x / 2);
}

/**
 * χ² test of independence (no continuity correction). All-zero rows and
 * columns are dropped first; null when fewer than 2 rows or 2 columns remain
 * or the table is ragged / has negative counts.
 */
export function chiSquareIndependence(table: ReadonlyArray<readonly number[]>): ChiSquareResult | null {
  const width = table[0]?.length ?? 0;
  if (table.some((r) => r.length !== width || r.some((v) => !(v >= 0)))) return null;
  const colSum = (c: number) => table.reduce((s, r) => s + r[c]!, 0);
  const keepCols = [...Array(width).keys()].filter((c) => colSum(c) > 0);
  const rows = table.map((r) => keepCols.map((c) => r[c]!)).filter((r) => r.some((v) => v > 0));
  if (rows.length < 2 || keepCols.length < 2) return null;
  const rowTotals = rows.map((r) => r.reduce((s, v) => s + v, 0));
  const colTotals = keepCols.map((_, c) => rows.reduce((s, r) => s + r[c]!, 0));
  const total = rowTotals.reduce((s, v) => s + v, 0);
  let statistic = 0;
  const expected = rows.map((r, i) =>
    r.map((obs, c) => {
      const e = (rowTotals[i]! * colTotals[c]!) / total;
      statistic += ((obs - e) * (obs - e)) / e;
      return e;
    }),
  );
  const dof = (rows.length - 1) * (keepCols.length - 1);
  return { statistic, dof, p: chiSquareSf(statistic, dof), expected, rows: rows.length, cols: keepCols.length };
}

/** A report table as plain data (what the terminal, Markdown, HTML and CSV writers render) and its cells' rounding. */
import type { Interval } from '../../core/stats/interval.js';

export type Cell = string | number | null;

export interface Table {
  /** File stem of the CSV (`models` → models.csv). */
  name: string;
  title: string;
  headers: string[];
  rows: Cell[][];
  /** report.html: its cells may wrap, so that it fits the page's width (a compact display table). */
  fit?: boolean;
  /** report.html and report.md: how to read the columns, under the title. */
  legend?: string;
}

/** Rounded to 3 and 1 decimals (null stays an empty cell). */
export const r3 = (x: number | null | undefined): Cell => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);
export const r1 = (x: number | null | undefined): Cell => (x === null || x === undefined ? null : Math.round(x * 10) / 10);

/** An interval's bounds, rounded to 3 decimals. */
export const lo = (i: Interval | null | undefined): Cell => r3(i?.lo);
export const hi = (i: Interval | null | undefined): Cell => r3(i?.hi);
/** A rank cell: `2` alone, `2=` when tied with another ranked row, null when not ranked. */
export const rankCell = (rank: number | null, tied: boolean): Cell => (rank === null ? null : tied ? `${rank}=` : rank);

/** A metric's column and its interval's bounds (`X_lo`, `X_hi`: empty without an interval). */
export const withBounds = (name: string): string[] => [name, `${name}_lo`, `${name}_hi`];
/** A metric's value and its interval's bounds, rounded as the columns of `withBounds`. */
export const bounded = (x: number | null | undefined, i: Interval | null | undefined): Cell[] => [r3(x), lo(i), hi(i)];

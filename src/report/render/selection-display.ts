/**
 * The best-of-N table of report.html and report.md: each rate with its interval in one cell, the groups per kind of
 * reference in one, and cells that may wrap, so that it fits the page (the CSV's 24 columns needed scrolling sideways
 * at 1280 px to reach gap_closed, and on GitHub's Markdown view). The CSV and report.json keep one figure a column.
 */
import type { CorpusReport, SelectionRow } from '../types.js';
import type { Cell, Table } from './table-cells.js';
import { withInterval } from './with-interval.js';

/** A rate and its interval; a no-break space inside the brackets, so a narrow cell breaks only before the interval. */
const rate = (p: { rate: number | null; interval: SelectionRow['gapInterval'] }): Cell => withInterval(p.rate, p.interval).replace(', ', ',\u00a0');

/** `in-sample runs`: how many of the row's runs the forecaster was trained on (pPass rows only). */
const inSample = (s: SelectionRow): Cell => (s.inSampleRuns === undefined ? null : (s.inSampleRuns ?? 'not checked'));

export function selectionDisplay(r: CorpusReport, rows: readonly SelectionRow[] = r.selection, suffix = ''): Table {
  const forecast = rows.some((s) => s.inSampleRuns !== undefined);
  return {
    name: `selection${suffix ? `-${suffix}` : ''}`,
    title: `Best-of-N${suffix ? `, scored ${suffix}` : ''}: top-scored run vs. random pick vs. oracle (groups: one source, one task, >= 2 runs)`,
    legend:
      `Rates resolved with their 95 % interval (selection.csv: one figure a column); informative = groups with a pass and a fail (the n of gap closed); ` +
      `groups by reference = in-folder / external / reference-free${forecast ? '; in-sample runs = runs the forecaster was trained on (pPass only: those picks are optimistic)' : ''}.`,
    headers: ['score', 'source', 'groups', 'runs', 'informative', 'top pick', 'random pick', 'oracle', 'gap closed', 'groups by reference', ...(forecast ? ['in-sample runs'] : [])],
    rows: rows.map((s) => [
      s.score === 'total' ? 'composite' : s.score,
      s.source,
      s.groups,
      s.runs,
      s.informative,
      rate(s.top),
      rate(s.random),
      rate(s.oracle),
      rate({ rate: s.gapClosed, interval: s.gapInterval }),
      `${s.groupsByReference['in-folder']} / ${s.groupsByReference.external} / ${s.groupsByReference['reference-free']}`,
      ...(forecast ? [inSample(s)] : []),
    ]),
    fit: true,
  };
}

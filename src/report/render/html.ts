/**
 * `report.html`: the corpus report as one self-contained page (styles and the
 * SVG charts inline, nothing fetched), to open from disk, mail or attach to CI.
 * Same content as report.md: headline, charts, every table, the χ² line, notes.
 */
import type { CorpusReport } from '../types.js';
import type { Chart } from './charts.js';
import { PALETTE } from './palette.js';
import { chiLine, headline, passTiers, reportNotes, tableCautions } from './summary.js';
import { allTables } from './all-tables.js';
import type { Cell, Table } from './table-cells.js';
import { luckyTable } from './tables.js';

/** Escapes text for HTML content and attribute values. */
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
:root { color: ${PALETTE.text}; background: ${PALETTE.background}; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
body { margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 28px; }
a { color: #005a9c; }
:focus-visible { outline: 3px solid #0072b2; outline-offset: 2px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; border: 1px solid #cfcfcf; border-radius: 8px; padding: 8px; background: #fff; max-width: 100%; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #555; font-size: 0.85rem; margin-top: 4px; }
.wrap { overflow-x: auto; border: 1px solid #cfcfcf; border-radius: 8px; }
table { border-collapse: collapse; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid #e4e4e4; text-align: left; white-space: nowrap; }
thead th { background: #f0f0ee; position: sticky; top: 0; }
td.num, th.num { text-align: right; }
tbody tr:nth-child(even) { background: #fafaf8; }
.fit th, .fit td { white-space: normal; }
.none { color: #555; font-style: italic; }
footer { color: #555; font-size: 0.85rem; margin-top: 32px; }
`;

const slug = (name: string): string => `t-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const isNum = (t: Table, j: number): boolean => t.rows.length > 0 && t.rows.every((r) => r[j] === null || typeof r[j] === 'number');
const cell = (c: Cell): string => (c === null ? '–' : esc(String(c)));

/** One table as HTML (numbers right-aligned, missing values as a dash), labelled by the element `labelId`. */
export function htmlTable(t: Table, labelId: string): string {
  if (t.rows.length === 0) return '<p class="none">none</p>';
  const nums = t.headers.map((_, j) => isNum(t, j));
  const cls = (j: number): string => (nums[j] ? ' class="num"' : '');
  return [
    `<div class="wrap" tabindex="0" role="region" aria-labelledby="${labelId}"><table${t.fit === true ? ' class="fit"' : ''} aria-labelledby="${labelId}">`,
    `<thead><tr>${t.headers.map((h, j) => `<th scope="col"${cls(j)}>${esc(h)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
    ...t.rows.map((r) => `<tr>${r.map((c, j) => `<td${cls(j)}>${cell(c)}</td>`).join('')}</tr>`),
    '</tbody></table></div>',
  ].join('\n');
}

/** The SVG title of a chart (its first `<title>`), for the figure caption. */
function chartTitle(c: Chart): string {
  const m = /<title>([^<]*)<\/title>/.exec(c.svg);
  return m?.[1] ?? c.file;
}

/** The whole report page. `charts` are inlined as they are (the SVG chart functions escape their text). */
export function htmlReport(r: CorpusReport, charts: readonly Chart[]): string {
  const tables = allTables(r, { display: true });
  const lucky = luckyTable(r).name;
  const toc = [['charts', 'Charts'], ...tables.map((t) => [slug(t.name), t.title]), ['notes', 'Notes']];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>steplens corpus report</title>',
    `<style>${STYLE}</style>`,
    '</head>',
    '<body><main>',
    '<h1>steplens corpus report</h1>',
    `<ul>${[...headline(r), passTiers(r)].map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`,
    `<nav aria-label="Contents"><ol>${toc.map(([id, title]) => `<li><a href="#${id}">${esc(title ?? '')}</a></li>`).join('')}</ol></nav>`,
    '<section id="charts" aria-labelledby="charts-title"><h2 id="charts-title">Charts</h2><div class="charts">',
    ...charts.map((c) => `<figure>${c.svg.trim()}<figcaption>${esc(chartTitle(c))} (${esc(c.file)})</figcaption></figure>`),
    '</div></section>',
    ...tables.flatMap((t) => [
      `<section id="${slug(t.name)}" aria-labelledby="${slug(t.name)}-title"><h2 id="${slug(t.name)}-title">${esc(t.title)}</h2>`,
      ...(t.legend !== undefined ? [`<p>${esc(t.legend)}</p>`] : []),
      htmlTable(t, `${slug(t.name)}-title`),
      ...(t.name === lucky ? [`<p>${esc(chiLine(r))}</p>`] : []),
      ...tableCautions(r, t.name).map((c) => `<p>${esc(c)}</p>`),
      '</section>',
    ]),
    `<section id="notes" aria-labelledby="notes-title"><h2 id="notes-title">Notes</h2><ul>${r.warnings.map((w) => `<li><strong>Caution:</strong> ${esc(w)}</li>`).join('')}${reportNotes(r)
      .map((n) => `<li>${esc(n)}</li>`)
      .join('')}</ul></section>`,
    '<footer>Generated by steplens report. The same tables are in report.md, report.json and one CSV per table.</footer>',
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
}

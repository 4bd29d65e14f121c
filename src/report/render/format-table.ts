/** Table writers: aligned text, Markdown, CSV. */
import { escapeControl } from '../../printable.js';
import type { Cell, Table } from './table-cells.js';

/** A cell as shown: control characters escaped before widths are measured (the terminal escapes them anyway). */
const text = (c: Cell): string => (c === null ? '-' : escapeControl(String(c)));

/** Fixed-width text; numbers right-aligned. `columns` selects a subset of headers. */
export function textTable(t: Table, columns?: readonly string[]): string {
  const idx = columns ? columns.map((c) => t.headers.indexOf(c)).filter((i) => i >= 0) : t.headers.map((_, i) => i);
  const head = idx.map((i) => t.headers[i]!);
  const body = t.rows.map((r) => idx.map((i) => r[i] ?? null));
  const widths = head.map((h, j) => Math.max(h.length, ...body.map((r) => text(r[j]!).length)));
  const line = (cells: string[], nums: boolean[]) =>
    cells
      .map((c, j) => (nums[j] ? c.padStart(widths[j]!) : c.padEnd(widths[j]!)))
      .join('  ')
      .trimEnd();
  return [
    line(
      head,
      head.map(() => false),
    ),
    ...body.map((r) =>
      line(
        r.map(text),
        r.map((c) => typeof c === 'number'),
      ),
    ),
  ].join('\n');
}

/**
 * Text a Markdown renderer must show as text: many keep raw HTML, so `<` (a tag, a comment, an autolink) and `&` (an
 * entity) become entities, and a newline a space (it would end the list item or table row). `>` cannot open a tag and
 * stays, so the report's own `>=` reads as written. `](` becomes `]\(`: an inline link or image (`![](url)`, which
 * a renderer fetches when the report is opened) needs the two together; the text reads the same, intervals
 * (`[0.1, 0.2]`) untouched.
 */
export const markdownText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\r?\n/g, ' ').replace(/\]\(/g, ']\\(');

/** A table cell: {@link markdownText}, `>` as an entity too (as HTML escapes a cell), `|` escaped. */
const mdEscape = (s: string) => markdownText(s).replace(/>/g, '&gt;').replace(/\|/g, '\\|');

/** A GitHub-flavoured Markdown table. */
export function markdownTable(t: Table): string {
  if (t.rows.length === 0) return '_none_';
  const align = t.headers.map((_, j) => (t.rows.every((r) => r[j] === null || typeof r[j] === 'number') ? '---:' : '---'));
  return [`| ${t.headers.map(mdEscape).join(' | ')} |`, `| ${align.join(' | ')} |`, ...t.rows.map((r) => `| ${r.map((c) => mdEscape(text(c))).join(' | ')} |`)].join('\n');
}

/** The first characters that make a spreadsheet read a cell as a formula (OWASP CSV injection: = + - @ tab CR; NUL per ASVS 1.2.10). */
const FORMULA_START = /^[=+\-@\t\r\0]/;

/**
 * The one CSV cell writer (every CSV steplens writes goes through it): RFC 4180 quoting, and a text
 * cell that a spreadsheet would run as a formula (`=HYPERLINK(...)` as a task name) gets a leading
 * `'`, per OWASP. Numbers are written as numbers (`-0.5` is no formula).
 */
export function csvCell(c: Cell): string {
  if (c === null) return '';
  const s = typeof c === 'number' ? String(c) : FORMULA_START.test(c) ? `'${c}` : c;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with a header line; empty cells for missing values. */
export function csvTable(t: Table): string {
  return [t.headers, ...t.rows].map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

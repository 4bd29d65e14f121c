/** report.html: self-contained (nothing fetched), every table and chart, text escaped. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCharts } from '../../src/report/render/charts.js';
import { htmlReport } from '../../src/report/render/html.js';
import { allTables } from '../../src/report/render/all-tables.js';
import { CORPUS, corpusReport } from './corpus-fixture.js';

describe('htmlReport', () => {
  const report = corpusReport([join(CORPUS, 'multi-swe-bench__experiments')]);

  it('holds every table row and every chart, and references nothing outside itself', () => {
    const charts = reportCharts(report);
    const html = htmlReport(report, charts);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    for (const c of charts) expect(html).toContain(c.svg.trim());
    const rows = allTables(report).reduce((n, t) => n + t.rows.length + (t.rows.length > 0 ? 1 : 0), 0);
    expect(html.match(/<tr>/g)).toHaveLength(rows);
    expect(html).not.toMatch(/<(?:script|link|img|iframe)\b|(?:src|href)="(?!#)|url\(/);
  });

  it('escapes what the logs say (a model named like markup stays text)', () => {
    const evil = structuredClone(report);
    const first = evil.models[0];
    if (first === undefined) throw new Error('no model in the fixture report');
    first.model = '<script>alert(1)</script>&"';
    const html = htmlReport(evil, reportCharts(evil));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;');
  });
});

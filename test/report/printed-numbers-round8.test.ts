/**
 * audit28 (round 7 left them), on the shared corpus (22 sources): the report printed the source-only AUROC bare
 * beside the pooled AUROC's interval (summary line, separation.csv); reliability.csv carried pcr_median, a median
 * over attempts with no interval, under a title promising each metric its interval; the quality-vs-pass-rate chart
 * numbered its sources by mean quality, 1 the highest, a ranking of sources of 1 to 12 runs that the models table
 * declines to rank. Each now carries its interval, is left to report.json, or follows the table's order.
 */
import { describe, expect, it } from 'vitest';
import { separationTable } from '../../src/report/render/tables.js';
import { reliabilityTable } from '../../src/report/render/run-tables.js';
import { separationLine } from '../../src/report/render/summary.js';
import { badgeLetters, qualityVsPassRate } from '../../src/report/render/quality-chart.js';
import { tierShares } from '../../src/report/render/tier-chart.js';
import { csvTable } from '../../src/report/render/format-table.js';
import { modelLabel } from '../../src/report/identity.js';
import { corpusReport } from './corpus-fixture.js';

const report = corpusReport();
const total = report.separation.find((s) => s.signal === 'total')!;

describe('the report: source-only AUROC with its interval, no bare median, a chart key that ranks nothing', () => {
  it('the source-only AUROC has an interval, printed in the summary line and in separation.csv', () => {
    const iv = total.pooled.sourceOnlyInterval!;
    expect(total.withinSource.sources.length).toBeGreaterThan(1);
    expect(iv.lo).toBeLessThanOrEqual(total.pooled.sourceOnly!);
    expect(iv.hi).toBeGreaterThanOrEqual(total.pooled.sourceOnly!);
    expect(iv.hi).toBeGreaterThan(iv.lo);
    const f = (x: number) => x.toFixed(3);
    expect(separationLine(total)).toContain(`beside ${f(total.pooled.sourceOnly!)} [${f(iv.lo)}, ${f(iv.hi)}] for the source alone`);
    const t = separationTable(report);
    const col = (h: string) => t.rows[report.separation.indexOf(total)]![t.headers.indexOf(h)];
    expect(t.headers.slice(t.headers.indexOf('source_only'), t.headers.indexOf('source_only') + 3)).toEqual(['source_only', 'source_only_lo', 'source_only_hi']);
    expect([col('source_only_lo'), col('source_only_hi')]).toEqual([Number(f(iv.lo)), Number(f(iv.hi))]);
  });

  it('reliability.csv holds no figure without its interval (pcr_median stays in report.json only)', () => {
    const t = reliabilityTable(report);
    expect(t.headers).not.toContain('pcr_median');
    expect(csvTable(t)).not.toContain('pcr_median');
    const figures = ['p_attempt', 'allpass_conditional', 'allpass_conservative', 'pass_at_k', 'cr', 'jcr', 'pcr', 'atfr'];
    for (const h of figures) expect(t.headers, h).toEqual(expect.arrayContaining([h, `${h}_lo`, `${h}_hi`]));
    const counts = ['configuration', 'tasks', 'k', 'planned', 'completed', 'passes', 'pareto_front'];
    expect(t.headers.filter((h) => !counts.includes(h) && !/_(lo|hi)$/.test(h)).sort()).toEqual([...figures].sort());
  });

  it("the quality chart's key follows the models table's order, not mean quality", () => {
    const shown = report.models.filter((m) => m.passRate !== null && m.meanQuality !== null);
    // The shared corpus's table order is not its quality order, so the two keys differ.
    const byQuality = [...shown].sort((a, b) => b.meanQuality! - a.meanQuality!);
    expect(byQuality.map((m) => m.source)).not.toEqual(shown.map((m) => m.source));
    const svg = qualityVsPassRate(report).svg;
    // The badges (r 9) in the order they are drawn, lettered A, B, ... (audit30; numbered before): each one's tooltip names its source.
    const badges = [...svg.matchAll(/<circle [^>]*r="9"[^>]*><title>([^<]*)<\/title><\/circle>\s*<text [^>]*>([A-Z]+)<\/text>/g)].map((m) => [m[2], m[1]!.slice(0, m[1]!.indexOf(': pass rate'))]);
    const unescape = (s: string) =>
      s
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"');
    expect(badges.map(([n, name]) => [n, unescape(name!)])).toEqual(shown.map((m, i) => [badgeLetters(i), `${m.agent} + ${modelLabel(m)}`]));
    // A tip without an interval says so, as the tables do (3 scored runs: no bootstrap interval).
    expect(svg).toMatch(/mean quality \d+\.\d \[-\] of 3 /);
  });

  it('the tier chart says its bars draw no interval, and each bar tip gives it', () => {
    const svg = tierShares(report).svg;
    expect(svg).toContain('no interval drawn: each tip and the models table give its 95 % interval');
    const m = report.models.find((x) => x.tierShareIntervals?.Solid)!;
    const iv = m.tierShareIntervals!.Solid!;
    expect(svg).toContain(`(n=${m.scoredPassing}): Solid ${(100 * m.tierShares!.Solid).toFixed(1)} % [${(100 * iv.lo).toFixed(1)}, ${(100 * iv.hi).toFixed(1)}]`);
    expect(svg).toMatch(/all models, pooled \(n=\d+\): Ideal \d+\.\d % \[\d+\.\d, \d+\.\d\]/);
  });
});

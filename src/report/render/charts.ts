/** The report's SVG charts: score distribution, quality vs. pass rate, tier shares (each an SVG string). */
import type { CorpusReport, TrajectoryRow } from '../types.js';
import { niceTicks, textWidth } from './layout.js';
import { PALETTE } from './palette.js';
import { qualityVsPassRate } from './quality-chart.js';
import { reliabilityDiagram } from './reliability-chart.js';
import { pooledLabel } from './chart-scope.js';
import { legend, legendWidth, line, rect, subtitle, svgDoc, text, TITLE_Y, type Chart } from './svg-kit.js';
import { tierShares } from './tier-chart.js';

export type { Chart };

export { qualityVsPassRate, tierShares };

/** Histogram of composite scores (bins of 10) for passing vs. failing trajectories (`rows`: all, or one reference kind's). */
export function scoreDistribution(r: CorpusReport, rows: readonly TrajectoryRow[] = r.trajectories, suffix = ''): Chart {
  const bins = (o: 'pass' | 'fail') => {
    const c = new Array<number>(10).fill(0);
    for (const t of rows) if (t.outcome === o && t.score) c[Math.min(9, Math.floor(t.score.total / 10))]!++;
    return c;
  };
  const pass = bins('pass');
  const fail = bins('fail');
  const yt = niceTicks(Math.max(1, ...pass, ...fail), 5, true);
  const ymax = yt[yt.length - 1]!;
  const items = [
    { label: `passing (n=${pass.reduce((a, b) => a + b, 0)})`, color: PALETTE.pass },
    { label: `failing (n=${fail.reduce((a, b) => a + b, 0)})`, color: PALETTE.fail },
  ];
  const tickW = Math.max(...yt.map((v) => textWidth(String(v), 12)));
  const W = 660;
  // Runs of several sources in one histogram: said so under the title (each source's own separation: the AUROC per source table).
  const pooled = pooledLabel(rows.filter((t) => (t.outcome === 'pass' || t.outcome === 'fail') && t.score));
  const sub = pooled === null ? null : subtitle("every source's runs in one histogram; each source's own separation: the AUROC per source table", W, TITLE_Y + 20, `fill="${PALETTE.axis}"`);
  const S = sub?.height ?? 0;
  const L = Math.ceil(16 + 12 + 10 + tickW + 8),
    R = 24,
    T = TITLE_Y + 42 + S,
    B = 54,
    H = T + 280 + B;
  const pw = W - L - R,
    ph = H - T - B,
    bw = pw / 10;
  const y = (v: number) => T + ph - (ph * v) / ymax;
  const body: string[] = [];
  for (const v of yt) body.push(line(L, y(v), W - R, y(v), PALETTE.grid), text(L - 8, y(v) + 4, String(v), 'end'));
  for (let i = 0; i < 10; i++) {
    const x = L + i * bw;
    body.push(rect(x + 4, y(pass[i]!), bw / 2 - 4, T + ph - y(pass[i]!), PALETTE.pass, `passing, score ${i * 10}-${i * 10 + 10}: ${pass[i]}`));
    body.push(rect(x + bw / 2, y(fail[i]!), bw / 2 - 4, T + ph - y(fail[i]!), PALETTE.fail, `failing, score ${i * 10}-${i * 10 + 10}: ${fail[i]}`));
    body.push(text(x, T + ph + 18, String(i * 10), 'middle'));
  }
  body.push(text(W - R, T + ph + 18, '100', 'middle'), line(L, T + ph, W - R, T + ph), line(L, T, L, T + ph));
  for (const cut of [47, 70]) body.push(line(L + (pw * cut) / 100, T, L + (pw * cut) / 100, T + ph, PALETTE.axis, true));
  body.push(...(sub?.body ?? []), ...legend((W - legendWidth(items)) / 2, TITLE_Y + 24 + S, items));
  body.push(text(L + pw / 2, H - 14, 'composite score f (dashed: tier cuts at 47 and 70)', 'middle'));
  body.push(text(16 + 10, T + ph / 2, 'trajectories', 'middle', `transform="rotate(-90 ${16 + 10} ${T + ph / 2})"`));
  const file = suffix ? `score-distribution-${suffix}.svg` : 'score-distribution.svg';
  const title = `Score distribution: passing vs. failing${suffix ? ` (scored ${suffix})` : ''}${pooled ? `, ${pooled}` : ''}`;
  return { file, svg: svgDoc(W, H, title, body) };
}

/** All charts of a report: the three over every run (and with a forecaster the reliability diagram of pPass), then (with `--by-reference`) the first two per reference kind. */
export function reportCharts(r: CorpusReport): Chart[] {
  const split = (r.byReference ?? []).flatMap((b) => [
    scoreDistribution(
      r,
      r.trajectories.filter((t) => t.reference?.kind === b.reference),
      b.reference,
    ),
    qualityVsPassRate(
      r,
      b.models,
      b.reference,
      r.trajectories.filter((t) => t.reference?.kind === b.reference),
    ),
  ]);
  const reliability = reliabilityDiagram(r);
  return [scoreDistribution(r), qualityVsPassRate(r), tierShares(r), ...(reliability ? [reliability] : []), ...split];
}

/** The report's SVG charts: score distribution, quality vs. pass rate, tier shares. */
import { modelLabel } from '../identity.js';
import type { CorpusReport } from '../types.js';
import { circle, legend, line, rect, svgDoc, text, ticks } from './svg-kit.js';

export interface Chart {
  file: string;
  svg: string;
}

const PASS = '#2e7d32';
const FAIL = '#c62828';
const TIER_COLORS: Record<'Ideal' | 'Solid' | 'Lucky', string> = { Ideal: '#2e7d32', Solid: '#1565c0', Lucky: '#f9a825' };
/** Approximate width of one character of 10-11 px sans-serif text, for layout. */
const CHAR_W = 6.9;
const MAX_LABEL = 36;

/** A chart label for a model: its last path segment (`org/models/name` → `name`), at most 36 characters. */
export function shortLabel(name: string): string {
  const last = name.split('/').filter(Boolean).pop() ?? name;
  return last.length > MAX_LABEL ? `${last.slice(0, MAX_LABEL - 1)}…` : last;
}

/** Histogram of composite scores (bins of 10) for passing vs. failing trajectories. */
export function scoreDistribution(r: CorpusReport): Chart {
  const W = 640, H = 360, L = 50, R = 20, T = 50, B = 50;
  const bins = (o: 'pass' | 'fail') => {
    const c = new Array<number>(10).fill(0);
    for (const t of r.trajectories) if (t.outcome === o && t.score) c[Math.min(9, Math.floor(t.score.total / 10))]!++;
    return c;
  };
  const pass = bins('pass');
  const fail = bins('fail');
  const yt = ticks(Math.max(1, ...pass, ...fail));
  const ymax = yt[yt.length - 1]!;
  const pw = W - L - R, ph = H - T - B, bw = pw / 10;
  const y = (v: number) => T + ph - (ph * v) / ymax;
  const body: string[] = [];
  for (const v of yt) body.push(line(L, y(v), W - R, y(v), '#ddd'), text(L - 6, y(v) + 4, String(v), 'end'));
  for (let i = 0; i < 10; i++) {
    const x = L + i * bw;
    body.push(rect(x + 4, y(pass[i]!), bw / 2 - 4, T + ph - y(pass[i]!), PASS, `passing, score ${i * 10}-${i * 10 + 10}: ${pass[i]}`));
    body.push(rect(x + bw / 2, y(fail[i]!), bw / 2 - 4, T + ph - y(fail[i]!), FAIL, `failing, score ${i * 10}-${i * 10 + 10}: ${fail[i]}`));
    body.push(text(x, H - B + 16, String(i * 10), 'middle'));
  }
  body.push(text(W - R, H - B + 16, '100', 'middle'), line(L, T + ph, W - R, T + ph));
  for (const cut of [47, 70]) body.push(line(L + (pw * cut) / 100, T, L + (pw * cut) / 100, T + ph, '#777', true));
  body.push(text(L + pw / 2, H - 12, 'composite score f (tier cuts at 47 and 70)', 'middle'), text(14, T + ph / 2, 'trajectories', 'middle', `transform="rotate(-90 14 ${T + ph / 2})"`));
  body.push(...legend(W - R - 220, T - 10, [['passing', PASS], ['failing', FAIL]]));
  return { file: 'score-distribution.svg', svg: svgDoc(W, H, 'Score distribution: passing vs. failing', body) };
}

/** Scatter of per-model mean quality score against pass rate. */
export function qualityVsPassRate(r: CorpusReport): Chart {
  const points = r.models
    .filter((m) => m.passRate !== null && m.meanQuality !== null)
    .sort((a, b) => (b.meanQuality ?? 0) - (a.meanQuality ?? 0));
  const key = points.map((m, i) => `${i + 1}  ${shortLabel(modelLabel(m))}`);
  const keyW = Math.ceil(Math.max(10, ...key.map((k) => k.length)) * CHAR_W) + 30;
  const L = 60, R = 30 + keyW, T = 50, B = 50, W = 620 + keyW, H = Math.max(420, T + 20 + 16 * key.length);
  const pw = W - L - R, ph = H - T - B;
  const x = (v: number) => L + pw * v;
  const y = (v: number) => T + ph - (ph * v) / 100;
  const body: string[] = [];
  for (let v = 0; v <= 100; v += 20) body.push(line(L, y(v), W - R, y(v), '#ddd'), text(L - 6, y(v) + 4, String(v), 'end'));
  for (let v = 0; v <= 1.0001; v += 0.2) body.push(line(x(v), T, x(v), T + ph, '#eee'), text(x(v), T + ph + 16, `${Math.round(v * 100)} %`, 'middle'));
  body.push(line(L, T + ph, W - R, T + ph), line(L, T, L, T + ph));
  points.forEach((m, i) => {
    const px = x(m.passRate!), py = y(m.meanQuality!);
    const tip = `${m.model}: pass rate ${(100 * m.passRate!).toFixed(1)} %, mean quality ${m.meanQuality!.toFixed(1)} (rank shift ${m.rankShift})`;
    body.push(circle(px, py, 8, '#1565c0', tip), text(px, py + 4, String(i + 1), 'middle', 'font-size="10" fill="#ffffff"'));
  });
  key.forEach((k, i) => body.push(text(W - keyW, T + 10 + 16 * i, k, 'start', 'font-size="11"')));
  body.push(text(L + pw / 2, H - 12, 'pass rate', 'middle'), text(16, T + ph / 2, 'mean quality score', 'middle', `transform="rotate(-90 16 ${T + ph / 2})"`));
  return { file: 'quality-vs-pass-rate.svg', svg: svgDoc(W, H, 'Per-model quality vs. pass rate', body) };
}

/** Stacked bars of Ideal / Solid / Lucky shares among scored passing trajectories, per model and overall. */
export function tierShares(r: CorpusReport): Chart {
  const rows = r.models.filter((m) => m.tierShares).map((m) => ({ label: shortLabel(modelLabel(m)), n: m.scoredPassing, s: m.tierShares! }));
  const all = r.trajectories.filter((t) => t.outcome === 'pass' && t.tier);
  if (all.length) {
    const share = (tier: string) => all.filter((t) => t.tier === tier).length / all.length;
    rows.push({ label: 'all models', n: all.length, s: { Ideal: share('Ideal'), Solid: share('Solid'), Lucky: share('Lucky') } });
  }
  const longest = Math.max(10, ...rows.map((row) => `${row.label} (n=${row.n})`.length));
  const L = Math.ceil(longest * CHAR_W) + 20, R = 30, T = 60, rowH = 26, W = L + 480;
  const H = T + Math.max(1, rows.length) * rowH + 40;
  const pw = W - L - R;
  const body: string[] = [...legend(L, T - 18, [['Ideal', TIER_COLORS.Ideal], ['Solid', TIER_COLORS.Solid], ['Lucky', TIER_COLORS.Lucky]])];
  rows.forEach((row, i) => {
    const yy = T + i * rowH;
    let xx = L;
    body.push(text(L - 8, yy + 15, `${row.label} (n=${row.n})`, 'end', 'font-size="11"'));
    for (const tier of ['Ideal', 'Solid', 'Lucky'] as const) {
      const w = pw * row.s[tier];
      body.push(rect(xx, yy + 2, w, rowH - 6, TIER_COLORS[tier], `${row.label}: ${tier} ${(100 * row.s[tier]).toFixed(1)} %`));
      xx += w;
    }
  });
  if (rows.length === 0) body.push(text(W / 2, T + 20, 'no scored passing trajectory', 'middle'));
  for (let v = 0; v <= 1.0001; v += 0.25) body.push(text(L + pw * v, H - 20, `${Math.round(v * 100)} %`, 'middle'));
  return { file: 'tier-shares.svg', svg: svgDoc(W, H, 'Tier shares of scored passing trajectories', body) };
}

/** All charts of a report. */
export function reportCharts(r: CorpusReport): Chart[] {
  return [scoreDistribution(r), qualityVsPassRate(r), tierShares(r)];
}

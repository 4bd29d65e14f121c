/** Stacked bars of Ideal / Solid / Lucky shares per model; long model names wrap onto more lines. */
import { modelLabel } from '../identity.js';
import type { Interval } from '../../core/stats/interval.js';
import { passTierShares } from '../models.js';
import type { CorpusReport } from '../types.js';
import { textWidth, wrapText } from './layout.js';
import { PALETTE, TIER_COLORS } from './palette.js';
import { legend, legendWidth, rect, subtitle, svgDoc, text, TITLE_Y, type Chart } from './svg-kit.js';

const SIZE = 11;
const LINE = 13;
const MAX_LABEL_W = 330;

/** Stacked bars of Ideal / Solid / Lucky shares among scored passing trajectories, per model and overall. */
export function tierShares(r: CorpusReport): Chart {
  type Intervals = Record<'Ideal' | 'Solid' | 'Lucky', Interval | null> | null;
  const rows: Array<{ label: string; s: { Ideal: number; Solid: number; Lucky: number }; iv: Intervals }> = r.models
    .filter((m) => m.tierShares)
    .map((m) => ({ label: `${m.agent} + ${modelLabel(m)} (n=${m.scoredPassing})`, s: m.tierShares!, iv: m.tierShareIntervals }));
  const all = r.trajectories.filter((t) => t.outcome === 'pass' && t.tier);
  const pooled = passTierShares(all, r.statistics.level);
  if (all.length && pooled) {
    const iv = { Ideal: pooled.Ideal.interval, Solid: pooled.Solid.interval, Lucky: pooled.Lucky.interval };
    rows.push({ label: `all models, pooled (n=${all.length})`, s: { Ideal: pooled.Ideal.share, Solid: pooled.Solid.share, Lucky: pooled.Lucky.share }, iv });
  }
  const labelW = Math.min(MAX_LABEL_W, Math.max(80, ...rows.map((row) => textWidth(row.label, SIZE))));
  const wrapped = rows.map((row) => ({ ...row, lines: wrapText(row.label, labelW, SIZE) }));
  const items = (['Ideal', 'Solid', 'Lucky'] as const).map((t) => ({ label: t, color: TIER_COLORS[t] }));
  const L = Math.ceil(labelW) + 24,
    R = 30,
    W = L + 480;
  // The bars draw shares without their intervals (a source of 1 passing run fills a bar): said under the title, and
  // each bar's tip gives its interval, as the models table does (audit28).
  const sub = subtitle("shares of each row's n scored passing runs, no interval drawn: each tip and the models table give its 95 % interval", W, TITLE_Y + 20, `fill="${PALETTE.axis}"`);
  const T = TITLE_Y + 44 + sub.height;
  const heights = wrapped.map((row) => Math.max(26, row.lines.length * LINE + 10));
  const H =
    T +
    Math.max(
      26,
      heights.reduce((a, b) => a + b, 0),
    ) +
    40;
  const pw = W - L - R;
  const body: string[] = [...sub.body, ...legend(Math.max(L, (W - legendWidth(items)) / 2), TITLE_Y + 24 + sub.height, items)];
  let yy = T;
  wrapped.forEach((row, i) => {
    const h = heights[i]!;
    const first = yy + h / 2 - ((row.lines.length - 1) * LINE) / 2 + 4;
    row.lines.forEach((l, j) => body.push(text(L - 10, first + j * LINE, l, 'end', '', SIZE)));
    let xx = L;
    for (const tier of ['Ideal', 'Solid', 'Lucky'] as const) {
      const w = pw * row.s[tier];
      const iv = row.iv?.[tier] ?? null;
      const ci = iv ? ` [${(100 * iv.lo).toFixed(1)}, ${(100 * iv.hi).toFixed(1)}]` : ' [-]';
      body.push(rect(xx, yy + 3, w, h - 6, TIER_COLORS[tier], `${row.label}: ${tier} ${(100 * row.s[tier]).toFixed(1)} %${ci}`));
      xx += w;
    }
    yy += h;
  });
  if (rows.length === 0) body.push(text(L + pw / 2, T + 20, 'no scored passing trajectory', 'middle'));
  for (let v = 0; v <= 1.0001; v += 0.25) body.push(text(L + pw * v, H - 20, `${Math.round(v * 100)} %`, 'middle'));
  return { file: 'tier-shares.svg', svg: svgDoc(W, H, 'Tier shares of scored passing trajectories', body) };
}

/**
 * The calibration's trade-off chart: per reference mode, the Pareto front of
 * combined stop policies (share of passing runs stopped against share of
 * failing-run tokens saved), the baseline (default) policy and the chosen one
 * marked, and the false-stop bound as a dashed line.
 */
import type { ModeName, TradeoffPoint, TradeoffResult } from '../core/calibrate/tradeoff-types.js';
import { describeSettings } from '../core/calibrate/stop-settings.js';
import type { Chart } from './render/charts.js';
import { circle, esc, legend, line, rect, svgDoc, text } from './render/svg-kit.js';

const COLORS: Record<ModeName, string> = { referenceFree: '#1565c0', reference: '#2e7d32' };
const LABEL: Record<ModeName, string> = { referenceFree: 'reference-free', reference: 'with references' };

const pct = (x: number | null) => `${(100 * (x ?? 0)).toFixed(1)} %`;

/** The SVG of a trade-off calibration (`tradeoff.svg`). */
export function tradeoffChart(r: TradeoffResult): Chart {
  const W = 720, H = 440, L = 60, R = 30, T = 50, B = 60;
  const pw = W - L - R, ph = H - T - B;
  const points = (['referenceFree', 'reference'] as const).flatMap((m) => r.front[m].map((p) => p.modes[m]));
  const xmax = Math.max(0.1, r.choice.maxFalseStop * 1.5, ...points.map((p) => p.passingRate ?? 0)) * 1.05;
  const ymax = Math.min(1, Math.max(0.1, ...points.map((p) => p.failingTokenShare ?? 0)) * 1.1);
  const x = (v: number | null) => L + (pw * (v ?? 0)) / xmax;
  const y = (v: number | null) => T + ph - (ph * (v ?? 0)) / ymax;
  const body: string[] = [];
  for (let i = 0; i <= 5; i++) {
    const vx = (xmax * i) / 5, vy = (ymax * i) / 5;
    body.push(line(x(vx), T, x(vx), T + ph, '#eee'), text(x(vx), T + ph + 16, pct(vx), 'middle'));
    body.push(line(L, y(vy), W - R, y(vy), '#eee'), text(L - 6, y(vy) + 4, pct(vy), 'end'));
  }
  body.push(line(L, T + ph, W - R, T + ph), line(L, T, L, T + ph));
  body.push(line(x(r.choice.maxFalseStop), T, x(r.choice.maxFalseStop), T + ph, '#c62828', true));
  body.push(text(x(r.choice.maxFalseStop) + 4, T + 12, `bound ${pct(r.choice.maxFalseStop)}`, 'start', 'fill="#c62828"'));
  const tip = (m: ModeName, p: TradeoffPoint, what: string) =>
    `${LABEL[m]}, ${what}: stops ${p.passingStopped}/${p.passing} passing (${pct(p.passingRate)}), saves ${pct(p.failingTokenShare)} of failing-run tokens`;
  for (const m of ['referenceFree', 'reference'] as const) {
    const front = r.front[m];
    for (let i = 1; i < front.length; i++) {
      const a = front[i - 1]!.modes[m], b = front[i]!.modes[m];
      body.push(line(x(a.passingRate), y(a.failingTokenShare), x(b.passingRate), y(a.failingTokenShare), COLORS[m]));
      body.push(line(x(b.passingRate), y(a.failingTokenShare), x(b.passingRate), y(b.failingTokenShare), COLORS[m]));
    }
    for (const p of front) body.push(circle(x(p.modes[m].passingRate), y(p.modes[m].failingTokenShare), 4, COLORS[m], tip(m, p.modes[m], describeSettings(p.settings))));
    const d = r.baseline.modes[m];
    body.push(rect(x(d.passingRate) - 6, y(d.failingTokenShare) - 6, 12, 12, '#f9a825', tip(m, d, `default policy (${describeSettings(r.baseline.settings)})`)));
    const c = r.chosen.modes[m];
    body.push(`<circle cx="${x(c.passingRate).toFixed(2)}" cy="${y(c.failingTokenShare).toFixed(2)}" r="9" fill="none" stroke="${COLORS[m]}" stroke-width="2.5"><title>${esc(tip(m, c, `chosen (${describeSettings(r.chosen.settings)})`))}</title></circle>`);
  }
  body.push(...legend(L + 10, T + 4, [[LABEL.referenceFree, COLORS.referenceFree], [LABEL.reference, COLORS.reference], ['default policy', '#f9a825']]));
  body.push(text(L + 10, T + 24, 'ring = chosen policy; steps = Pareto front of the grid', 'start', 'font-size="11" fill="#555"'));
  body.push(text(L + pw / 2, H - 20, 'share of passing runs stopped (false stops)', 'middle'));
  body.push(text(16, T + ph / 2, 'share of failing-run tokens saved', 'middle', `transform="rotate(-90 16 ${T + ph / 2})"`));
  return { file: 'tradeoff.svg', svg: svgDoc(W, H, `Early-stop trade-off (${r.runs.passing} passing, ${r.runs.failing} failing runs)`, body) };
}

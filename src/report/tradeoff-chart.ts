/**
 * The calibration's trade-off chart: per reference mode, the Pareto front of
 * combined stop policies (share of passing runs stopped against share of
 * failing-run tokens saved), the baseline (default) policy and the chosen one
 * marked, and the false-stop bound as a dashed line. The two fronts often
 * coincide: one is a thick solid line with filled circles, the other a dashed
 * line with hollow diamonds on top, so both stay visible.
 */
import type { ModeName, TradeoffPoint, TradeoffResult } from '../core/calibrate/tradeoff-types.js';
import { describeSettings } from '../core/calibrate/stop-settings.js';
import type { Chart } from './render/charts.js';
import { niceTicks, textWidth } from './render/layout.js';
import { PALETTE } from './render/palette.js';
import { esc, legend, legendWidth, line, marker, polyline, svgDoc, text, TITLE_Y, type LegendItem } from './render/svg-kit.js';

const COLORS: Record<ModeName, string> = { referenceFree: PALETTE.referenceFree, reference: PALETTE.reference };
const LABEL: Record<ModeName, string> = { referenceFree: 'reference-free', reference: 'with references' };

const pct = (x: number | null) => `${(100 * (x ?? 0)).toFixed(1)} %`;
/** A tick value in percent units, as printed: `20 %`, `2.5 %`. */
const tickPct = (v: number) => `${Number(v.toFixed(2))} %`;

const FONT = 12;

/** The SVG of a trade-off calibration (`tradeoff.svg`). */
export function tradeoffChart(r: TradeoffResult): Chart {
  const W = 760;
  const points = (['referenceFree', 'reference'] as const).flatMap((m) => r.front[m].map((p) => p.modes[m]));
  const xt = niceTicks(100 * Math.max(0.1, r.choice.maxFalseStop * 1.5, ...points.map((p) => p.passingRate ?? 0)));
  const yt = niceTicks(Math.min(100, 100 * Math.max(0.1, ...points.map((p) => p.failingTokenShare ?? 0))));
  const xmax = xt[xt.length - 1]! / 100,
    ymax = yt[yt.length - 1]! / 100;

  const items: LegendItem[] = [
    { label: LABEL.referenceFree, color: COLORS.referenceFree, shape: 'circle', line: 'solid' },
    { label: LABEL.reference, color: COLORS.reference, shape: 'diamond', hollow: true, line: 'dashed' },
    { label: 'default policy', color: PALETTE.baseline, shape: 'square' },
  ];
  const note = `ring = written policy (${r.choice.warnOnly ? 'warn only' : describeSettings(r.chosen.settings)}); steps = Pareto front of the policy grid up to 3 × the bound`;
  // Every point is measured on the runs the grid was chosen on, every source's runs together: said on the chart.
  const sources = r.chosen.bySource?.length;
  const scope =
    `in-sample: each point measured on the runs it was chosen on (held out: calibrate --split); ` +
    (sources === undefined ? 'runs pooled, their sources not named' : sources === 1 ? 'one source' : `pooled over ${sources} sources`);
  const legendY = TITLE_Y + 26,
    noteY = legendY + 18,
    scopeY = noteY + 15;
  const tickW = Math.max(...yt.map((v) => textWidth(tickPct(v), FONT)));
  const L = Math.ceil(16 + FONT + 10 + tickW + 8),
    R = 24,
    T = scopeY + 22,
    B = 58,
    H = T + 300 + B;
  const pw = W - L - R,
    ph = H - T - B;
  const x = (v: number | null) => L + (pw * (v ?? 0)) / xmax;
  const y = (v: number | null) => T + ph - (ph * (v ?? 0)) / ymax;

  const body: string[] = [];
  for (const v of xt) body.push(line(x(v / 100), T, x(v / 100), T + ph, PALETTE.grid), text(x(v / 100), T + ph + 18, tickPct(v), 'middle'));
  for (const v of yt) body.push(line(L, y(v / 100), W - R, y(v / 100), PALETTE.grid), text(L - 8, y(v / 100) + 4, tickPct(v), 'end'));
  body.push(line(L, T + ph, W - R, T + ph), line(L, T, L, T + ph));
  const bx = x(r.choice.maxFalseStop);
  body.push(line(bx, T, bx, T + ph, PALETTE.bound, true));
  body.push(text(bx + 5, T + 14, `bound ${pct(r.choice.maxFalseStop)}`, 'start', 'font-style="italic"'));

  const tip = (m: ModeName, p: TradeoffPoint, what: string) =>
    `${LABEL[m]}, ${what}: stops ${p.passingStopped}/${p.passing} passing (${pct(p.passingRate)}), saves ${pct(p.failingTokenShare)} of failing-run tokens`;
  for (const m of ['referenceFree', 'reference'] as const) {
    const front = r.front[m];
    const steps: Array<[number, number]> = [];
    front.forEach((p, i) => {
      const q = p.modes[m];
      if (i > 0) steps.push([x(q.passingRate), y(front[i - 1]!.modes[m].failingTokenShare)]);
      steps.push([x(q.passingRate), y(q.failingTokenShare)]);
    });
    body.push(m === 'referenceFree' ? polyline(steps, COLORS[m], 3.5) : polyline(steps, COLORS[m], 1.8, true));
    for (const p of front) {
      const q = p.modes[m];
      const shape =
        m === 'referenceFree'
          ? marker('circle', x(q.passingRate), y(q.failingTokenShare), 4, COLORS[m], tip(m, q, describeSettings(p.settings)))
          : marker('diamond', x(q.passingRate), y(q.failingTokenShare), 4, '#ffffff', tip(m, q, describeSettings(p.settings)), `stroke="${COLORS[m]}" stroke-width="1.8"`);
      body.push(shape);
    }
  }
  for (const m of ['referenceFree', 'reference'] as const) {
    const d = r.baseline.modes[m];
    body.push(
      marker(
        'square',
        x(d.passingRate),
        y(d.failingTokenShare),
        5,
        PALETTE.baseline,
        tip(m, d, `default policy (${describeSettings(r.baseline.settings)})`),
        `stroke="${PALETTE.bound}" stroke-width="1"`,
      ),
    );
    const c = r.chosen.modes[m];
    body.push(
      `<circle cx="${x(c.passingRate).toFixed(2)}" cy="${y(c.failingTokenShare).toFixed(2)}" r="${m === 'referenceFree' ? 10 : 13}" fill="none" stroke="${COLORS[m]}" stroke-width="2.5"><title>${esc(tip(m, c, `chosen (${describeSettings(r.chosen.settings)})`))}</title></circle>`,
    );
  }
  const lx = (W - legendWidth(items)) / 2;
  body.push(...legend(lx, legendY, items));
  body.push(text(W / 2, noteY, note, 'middle', `fill="${PALETTE.axis}"`, 11), text(W / 2, scopeY, scope, 'middle', `fill="${PALETTE.axis}"`, 11));
  body.push(text(L + pw / 2, H - 16, 'share of passing runs stopped (false stops)', 'middle'));
  body.push(text(16 + FONT * 0.8, T + ph / 2, 'share of failing-run tokens saved', 'middle', `transform="rotate(-90 ${16 + FONT * 0.8} ${T + ph / 2})"`));
  return { file: 'tradeoff.svg', svg: svgDoc(W, H, `Early-stop trade-off, in-sample${sources === 1 ? '' : ', pooled'} (${r.runs.passing} passing, ${r.runs.failing} failing runs)`, body) };
}

/**
 * Per-source mean quality against pass rate, each with its 95 % interval as an error bar (pass rate:
 * Wilson, horizontal; quality: bootstrap, vertical) and its n in the key. Each point is a small dot at its
 * true place with its lettered badge set beside it (a leader line joins them), never on it: on the point the
 * badge hid a short interval (audit29). The key wraps long names, never cuts them.
 */
import { modelLabel } from '../identity.js';
import type { CorpusReport, ModelRow } from '../types.js';
import { niceSpan, placeLabels, wrapText } from './layout.js';
import { PALETTE, SERIES } from './palette.js';
import { differentTasksCaution } from './chart-scope.js';
import { circle, line, subtitle, svgDoc, text, TITLE_Y, type Chart } from './svg-kit.js';

const KEY_W = 300;
const KEY_SIZE = 11;
const KEY_LINE = 14;
const BADGE = 9;
const CAP = 4;
/** Where a badge is first tried: up and right of its point, clear of both of its error bars. */
const OFFSET = BADGE + 6;

/** A, B, ..., Z, AA, AB, ...: a badge's name. Numbers 1, 2, 3 read as ranks in a report that ranks none (audit30). */
export function badgeLetters(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Scatter of per-model mean quality score against pass rate. */
export function qualityVsPassRate(r: CorpusReport, models: readonly ModelRow[] = r.models, suffix = '', rows = r.trajectories): Chart {
  // Lettered in the models table's order (ranked rows by rank, the rest by runs, then name), never by mean quality:
  // a key 1 to 12 by quality read as a ranking of sources of 1 to 12 runs that the table does not rank (audit28);
  // so did 1 to 3 by runs where no source is ranked (audit30), hence letters.
  const points = models.filter((m) => m.passRate !== null && m.meanQuality !== null);
  const none = (m: ModelRow) => [m.passRateInterval ? '' : 'pass rate', m.meanQualityInterval ? '' : 'quality'].filter(Boolean).join(' or ');
  const keyText = (m: ModelRow) => `${m.agent} + ${modelLabel(m)} (n=${m.evaluated} evaluated, ${m.scored} scored${none(m) ? `; no ${none(m)} interval` : ''})`;
  const keys = points.map((m, i) => ({ n: badgeLetters(i), lines: wrapText(keyText(m), KEY_W - 28, KEY_SIZE) }));
  const keyH = keys.reduce((h, k) => h + k.lines.length * KEY_LINE + 4, 0);
  const L = 62,
    B = 54,
    plotW = 520;
  const W = L + plotW + 30 + KEY_W;
  const caution = differentTasksCaution(points, rows);
  const sub = caution === null ? null : subtitle(caution, W, TITLE_Y + 20, `fill="${PALETTE.axis}"`);
  const T = TITLE_Y + 28 + (sub?.height ?? 0);
  const ph = Math.max(360, keyH);
  const H = T + ph + B;
  const x = (v: number) => L + plotW * v;
  // The quality axis spans the points' intervals (at least 10 points, within 0-100), not 0-100: on 0-100 a
  // ±2-point interval was 16 px, under its 9-px badge, and read as none (audit29). Its ticks say where it starts.
  const ends = points.flatMap((m) => [m.meanQuality!, m.meanQualityInterval?.lo ?? m.meanQuality!, m.meanQualityInterval?.hi ?? m.meanQuality!]);
  const [qlo, qhi] = ends.length > 0 ? [Math.min(...ends), Math.max(...ends)] : [0, 100];
  const pad = Math.max(1, (qhi - qlo) * 0.08);
  const yTicks = niceSpan(qlo - pad, qhi + pad, { minSpan: 10, floor: 0, ceil: 100 });
  const [y0, y1] = [yTicks[0]!, yTicks[yTicks.length - 1]!];
  const y = (v: number) => T + ph - (ph * (v - y0)) / (y1 - y0);
  const body: string[] = [...(sub?.body ?? [])];
  for (const v of yTicks) body.push(line(L, y(v), L + plotW, y(v), PALETTE.grid), text(L - 8, y(v) + 4, String(v), 'end'));
  for (let v = 0; v <= 100; v += 20) body.push(line(x(v / 100), T, x(v / 100), T + ph, PALETTE.grid), text(x(v / 100), T + ph + 18, `${v} %`, 'middle'));
  body.push(line(L, T + ph, L + plotW, T + ph, PALETTE.axis), line(L, T, L, T + ph, PALETTE.axis));
  const at = points.map((m) => [x(m.passRate!), y(m.meanQuality!)] as [number, number]);
  // Error bars first, under everything else: the 95 % intervals of both figures.
  points.forEach((m, i) => {
    const [px, py] = at[i]!;
    const pr = m.passRateInterval;
    const q = m.meanQualityInterval;
    // Capped at both ends, so that a short bar still reads as an interval.
    if (pr) body.push(line(x(pr.lo), py, x(pr.hi), py, SERIES[0], false, 1.5), ...[pr.lo, pr.hi].map((v) => line(x(v), py - CAP, x(v), py + CAP, SERIES[0], false, 1.5)));
    if (q) body.push(line(px, y(q.lo), px, y(q.hi), SERIES[0], false, 1.5), ...[q.lo, q.hi].map((v) => line(px - CAP, y(v), px + CAP, y(v), SERIES[0], false, 1.5)));
  });
  // Badges may stand out past the top and right of the frame by their radius (a point at 100 % keeps
  // its badge on it), never over the tick labels on the left and bottom nor into the key.
  // Off every error bar and true point, so that no badge hides an interval (audit29).
  const bars = points.flatMap((m, i) => {
    const [px, py] = at[i]!;
    const [pr, q] = [m.passRateInterval ?? { lo: m.passRate!, hi: m.passRate! }, m.meanQualityInterval ?? { lo: m.meanQuality!, hi: m.meanQuality! }];
    return [
      { x: x(pr.lo) - 1, y: py - CAP, w: x(pr.hi) - x(pr.lo) + 2, h: 2 * CAP },
      { x: px - CAP, y: y(q.hi) - 1, w: 2 * CAP, h: y(q.lo) - y(q.hi) + 2 },
    ];
  });
  const badges = placeLabels(
    at.map(([px, py]) => [px + OFFSET, py - OFFSET]),
    BADGE,
    { x: L, y: T - BADGE - 2, w: plotW + BADGE + 2, h: ph + BADGE + 2 },
    bars,
  );
  // `[-]` where there is no interval (under 5 runs), as the tables print it: the tip read as a bare figure (audit28).
  const ci = (iv: { lo: number; hi: number } | null, k: number, d: number) => (iv ? ` [${(k * iv.lo).toFixed(d)}, ${(k * iv.hi).toFixed(d)}]` : ' [-]');
  const tips = points.map(
    (m) =>
      `${m.agent} + ${modelLabel(m)}: pass rate ${(100 * m.passRate!).toFixed(1)} %${ci(m.passRateInterval, 100, 1)} of ${m.evaluated}, mean quality ${m.meanQuality!.toFixed(1)}${ci(m.meanQualityInterval, 1, 1)} of ${m.scored} (rank shift ${m.rankShift ?? 'not ranked'})`,
  );
  // Leader lines and true positions first, so no line crosses a badge.
  points.forEach((_, i) => body.push(line(...at[i]!, ...badges[i]!, PALETTE.axis)));
  points.forEach((_, i) => body.push(circle(...at[i]!, 2.5, PALETTE.text, tips[i], '')));
  points.forEach((_, i) => {
    const [bx, by] = badges[i]!;
    body.push(circle(bx, by, BADGE, SERIES[0], tips[i], 'stroke="#ffffff" stroke-width="1"'), text(bx, by + 3.5, keys[i]!.n, 'middle', 'fill="#ffffff"', 10));
  });
  let ky = T + 10;
  for (const k of keys) {
    const kx = L + plotW + 30;
    body.push(text(kx + 18, ky, k.n, 'end', 'font-weight="bold"', KEY_SIZE));
    k.lines.forEach((l, j) => body.push(text(kx + 28, ky + j * KEY_LINE, l, 'start', '', KEY_SIZE)));
    ky += k.lines.length * KEY_LINE + 4;
  }
  if (points.length === 0) body.push(text(L + plotW / 2, T + ph / 2, 'no model with both a pass rate and a scored trajectory', 'middle'));
  body.push(text(L + plotW / 2, H - 14, 'pass rate (bars: 95 % intervals)', 'middle'));
  body.push(text(22, T + ph / 2, 'mean quality score (bars: 95 % intervals)', 'middle', `transform="rotate(-90 22 ${T + ph / 2})"`));
  const file = suffix ? `quality-vs-pass-rate-${suffix}.svg` : 'quality-vs-pass-rate.svg';
  return { file, svg: svgDoc(W, H, `Per-source quality vs. pass rate${suffix ? ` (scored ${suffix})` : ''}`, body) };
}

/**
 * The reliability diagram of pPass (with `--forecast`): per source, each bin of runs as a point at (mean pPass,
 * pass rate) with the rate's Wilson interval as a vertical bar and the point's area growing with the bin's
 * runs; the diagonal is perfect calibration. The key names each source with its n, its ECE and the ECE a
 * perfectly calibrated forecaster shows at that n (report.calibration), so a small source's scatter is read
 * against what its n allows. One colour a source: at most SERIES.length sources are drawn (those with the most
 * runs); the key names the others, which are in the table only (with 15 sources the colours repeated, and a
 * point could not be told from another source's). Points of runs the forecaster was trained on are in-sample: the
 * chart says so under its title and in each source's key (the chart travels alone, in report.html's header, far
 * from the tables' caution lines), and names what a dot's area means.
 */
import type { CorpusReport, ForecastInSample } from '../types.js';
import { wrapText } from './layout.js';
import { PALETTE, SERIES } from './palette.js';
import { circle, line, svgDoc, text, TITLE_Y, type Chart } from './svg-kit.js';

const KEY_W = 320;
const KEY_SIZE = 11;
const KEY_LINE = 14;

/** The chart, or undefined without a forecaster. */
export function reliabilityDiagram(r: CorpusReport): Chart | undefined {
  const all = (r.calibration ?? []).filter((c) => c.source !== 'all' && c.n > 0);
  if (all.length === 0) return undefined;
  const { rows, left } = drawnSources(all);
  const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
  // Numbers on lines of their own: wrapping breaks after a '.', which would split them.
  const fit = r.inputs?.forecastInSample;
  const inSample = (source: string) => fit?.bySource.find((b) => b.source === source)?.inSample ?? 0;
  const keys = rows.map((c) => [
    ...wrapText(c.source, KEY_W - 24, KEY_SIZE),
    `n=${c.n}, ECE ${f3(c.ece)}${c.interval ? ` [${f3(c.interval.lo)}, ${f3(c.interval.hi)}]` : ''}`,
    `perfectly calibrated at this n: ${f3(c.perfect?.mean)}`,
    `(95th percentile ${f3(c.perfect?.hi)})`,
    `debiased ${f3(c.debiased?.ece)}${c.debiased?.interval ? ` [${f3(c.debiased.interval.lo)}, ${f3(c.debiased.interval.hi)}]` : ''}`,
    ...(inSample(c.source) > 0 ? [`in-sample: trained on ${inSample(c.source)} of its runs`] : []),
  ]);
  const notDrawn =
    left.length === 0 ? [] : [`not drawn (${left.length} with fewer runs;`, `one colour a source; in the table):`, ...left.flatMap((c) => wrapText(`${c.source} (n=${c.n})`, KEY_W - 12, KEY_SIZE))];
  notDrawn.push("a dot's area: the bin's runs; bars: Wilson 95 %");
  const keyH = keys.reduce((h, k) => h + k.length * KEY_LINE + 6, 0) + notDrawn.length * KEY_LINE;
  const L = 62,
    T = TITLE_Y + 28,
    B = 54,
    side = Math.max(400, keyH);
  const W = L + side + 30 + KEY_W,
    H = T + side + B;
  const x = (v: number) => L + side * v;
  const y = (v: number) => T + side - side * v;
  const body: string[] = [];
  for (let v = 0; v <= 10; v += 2) {
    body.push(line(L, y(v / 10), L + side, y(v / 10), PALETTE.grid), text(L - 8, y(v / 10) + 4, (v / 10).toFixed(1), 'end'));
    body.push(line(x(v / 10), T, x(v / 10), T + side, PALETTE.grid), text(x(v / 10), T + side + 18, (v / 10).toFixed(1), 'middle'));
  }
  body.push(line(L, T + side, L + side, T + side, PALETTE.axis), line(L, T, L, T + side, PALETTE.axis), line(x(0), y(0), x(1), y(1), PALETTE.axis, true));
  const maxN = Math.max(...rows.flatMap((c) => c.bins.map((b) => b.n)));
  rows.forEach((c, s) => {
    const color = SERIES[s % SERIES.length]!;
    for (const b of c.bins) {
      if (b.n === 0 || b.predicted === null || b.observed === null) continue;
      if (b.interval) body.push(line(x(b.predicted), y(b.interval.lo), x(b.predicted), y(b.interval.hi), color, false, 1.5));
      const radius = 3 + 9 * Math.sqrt(b.n / maxN);
      body.push(circle(x(b.predicted), y(b.observed), radius, color, `${c.source}, pPass ${b.lo.toFixed(1)}-${b.hi.toFixed(1)}: ${b.n} runs, mean pPass ${f3(b.predicted)}, passed ${f3(b.observed)}`));
    }
  });
  let ky = T + 4;
  rows.forEach((_, s) => {
    body.push(circle(L + side + 38, ky + 4, 5, SERIES[s % SERIES.length]!));
    keys[s]!.forEach((l, i) => body.push(text(L + side + 50, ky + 8 + i * KEY_LINE, l, 'start', '', KEY_SIZE)));
    ky += keys[s]!.length * KEY_LINE + 6;
  });
  notDrawn.forEach((l, i) => body.push(text(L + side + 38, ky + 8 + i * KEY_LINE, l, 'start', '', KEY_SIZE)));
  const caution = inSampleCaution(fit);
  if (caution !== null) body.push(text(L + side / 2, TITLE_Y + 17, caution, 'middle', 'font-weight="bold"', KEY_SIZE));
  body.push(text(L + side / 2, H - 14, 'mean pPass in the bin (10 bins; dashed: perfect calibration)', 'middle'));
  body.push(text(16 + 10, T + side / 2, 'share of the bin that passed (Wilson 95 %)', 'middle', `transform="rotate(-90 ${16 + 10} ${T + side / 2})"`));
  return { file: 'reliability-diagram.svg', svg: svgDoc(W, H, 'Reliability of pPass per source: mean pPass against the pass rate, per bin', body) };
}

/** The line under the title when the points are (or may be) in-sample, else null. */
function inSampleCaution(f: ForecastInSample | undefined): string | null {
  if (f === undefined || f.withPPass === 0) return null;
  if (!f.checked) return 'whether these runs trained the forecaster cannot be checked (its file lists none)';
  if (f.inSample === 0) return null;
  return `in-sample: the forecaster was trained on ${f.inSample} of the ${f.withPPass} runs (optimistic)`;
}

/** The sources drawn, one colour each: the SERIES.length with the most runs (in the report's order); the rest left out. */
function drawnSources<T extends { n: number }>(rows: readonly T[]): { rows: T[]; left: T[] } {
  const kept = new Set([...rows].sort((a, b) => b.n - a.n).slice(0, SERIES.length));
  return { rows: rows.filter((c) => kept.has(c)), left: rows.filter((c) => !kept.has(c)) };
}

/**
 * The debiased ECE (core/stats calibrationCheck) on real pPass values: per source, the ECE, its noise floor, the
 * debiased figure and its interval; then outcomes drawn from the pPass values themselves (calibrated by
 * construction) and from pPass + 0.1 (miscalibrated, true ECE known), over SEEDS draws each: the mean debiased ECE
 * against the truth, and how often each interval holds the truth and its own point. Intervals compared: the
 * shipped one (the ECE's percentile interval less the floor, widened to hold the point) and Efron's
 * bias-corrected (BC) percentile interval less the floor. Counts, not timing. Since ece30 calibrationCheck's interval
 * keeps the ECE interval's upper end (core/stats/ece-interval.ts), so "shipped" here reads that one; ece29's figures
 * (bench/README) are of the interval before.
 *
 *   node dist/bench/ece-debiased.js   (reads test/fixtures/bundled-ppass.tsv.gz; ~1 min of CPU)
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { bootstrapValues, resampleIndices } from '../src/core/stats/bootstrap.js';
import { calibrationCheck, type TaskPrediction } from '../src/core/stats/calibration-check.js';
import { calibrationError } from '../src/core/stats/calibration-error.js';
import { seededRandom } from '../src/core/stats/rng.js';
import { packageRoot } from '../src/package-files.js';
import { biasCorrectedInterval } from './ece/bias-corrected.js';

const SEEDS = 200;
const REPS = 400;

/** The fixture's runs by source: task, the bundled forecaster's pPass, the outcome. */
export function bundledPPass(): Map<string, TaskPrediction[]> {
  const text = gunzipSync(readFileSync(`${packageRoot()}/test/fixtures/bundled-ppass.tsv.gz`)).toString('utf8');
  const by = new Map<string, TaskPrediction[]>();
  for (const line of text.trim().split('\n').slice(1)) {
    const [source, task, p, passed] = line.split('\t') as [string, string, string, string];
    by.set(source, [...(by.get(source) ?? []), { task, p: Number(p), pass: passed === '1' }]);
  }
  return by;
}

/** Population ECE of predictions `p` whose true pass probabilities are `q` (10 bins of p). */
function trueEce(preds: readonly TaskPrediction[], q: readonly number[]): number {
  const sums = Array.from({ length: 10 }, () => ({ n: 0, p: 0, q: 0 }));
  preds.forEach(({ p }, i) => {
    const b = sums[Math.min(9, Math.floor(p * 10))]!;
    b.n++;
    b.p += p;
    b.q += q[i]!;
  });
  return sums.reduce((e, b) => e + (b.n === 0 ? 0 : Math.abs(b.p - b.q) / preds.length), 0);
}

/** BC interval of the ECE less the floor (tasks resampled, the check's seed). */
function bcDebiased(preds: readonly TaskPrediction[], ece: number, floor: number, seed: number) {
  const byTask = new Map<string, TaskPrediction[]>();
  for (const x of preds) byTask.set(x.task ?? '', [...(byTask.get(x.task ?? '') ?? []), x]);
  const units = [...byTask.values()];
  const values = bootstrapValues((r) => calibrationError(resampleIndices(r, units.length).flatMap((i) => units[i]!)).ece, { reps: REPS, seed });
  const bc = values === null ? null : biasCorrectedInterval(values, ece, 0.95);
  return bc === null ? null : { lo: bc.lo - floor, hi: bc.hi - floor };
}

const holds = (i: { lo: number; hi: number } | null | undefined, x: number) => i != null && i.lo <= x + 1e-12 && x <= i.hi + 1e-12;

for (const [source, preds] of bundledPPass()) {
  const c = calibrationCheck(preds, { seed: 1 });
  const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));
  console.log(
    `${source} (n ${c.n}, in-sample pPass): ECE ${f(c.ece ?? undefined)} [${f(c.interval?.lo)}, ${f(c.interval?.hi)}] (noise floor ${f(c.perfect?.mean)}; debiased ${f(c.debiased?.ece)} [${f(c.debiased?.interval?.lo)}, ${f(c.debiased?.interval?.hi)}])`,
  );
  for (const [label, shift] of [
    ['calibrated', 0],
    ['pPass + 0.1', 0.1],
  ] as const) {
    const q = preds.map(({ p }) => Math.min(1, p + shift));
    const truth = trueEce(preds, q);
    const random = seededRandom(99);
    let k = 0,
      sum = 0,
      ship = 0,
      bc = 0,
      shipPoint = 0,
      bcPoint = 0,
      plain = 0;
    for (let s = 0; s < SEEDS; s++) {
      const sim = preds.map((x, i) => ({ ...x, pass: random() < q[i]! }));
      const d = calibrationCheck(sim, { seed: s + 1, reps: REPS });
      if (!d.debiased?.interval || !d.perfect) continue;
      const b = bcDebiased(sim, d.ece!, d.perfect.mean, s + 1);
      k++;
      sum += d.debiased.ece;
      plain += d.ece!;
      if (holds(d.debiased.interval, truth)) ship++;
      if (holds(b, truth)) bc++;
      if (holds(d.debiased.interval, d.debiased.ece)) shipPoint++;
      if (holds(b, d.debiased.ece)) bcPoint++;
    }
    const pc = (x: number) => `${((100 * x) / k).toFixed(1)} %`;
    console.log(
      `  ${label}: true ECE ${f(truth)}; over ${k} draws mean ECE ${f(plain / k)}, mean debiased ${f(sum / k)}; holds the truth: shipped ${pc(ship)}, BC ${pc(bc)}; holds its point: shipped ${pc(shipPoint)}, BC ${pc(bcPoint)}`,
    );
  }
}

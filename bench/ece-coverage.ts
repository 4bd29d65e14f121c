/**
 * Coverage of the ECE's 95 % intervals (ece30, issue 26). Predictions: the bundled forecaster's real pPass values per
 * source (test/fixtures/bundled-ppass.tsv.gz: CodeR 199, SWE-agent 0.x 721, gpt-5-mini 31 runs). Truths: outcomes
 * drawn from p' = σ(b·logit p + a): calibrated (a 0, b 1), logit shift a ±0.5, slope b 0.6 / 1.6. The target is the
 * true calibration error of p against p' on the same 10 bins, exact: Σ_b |Σ_{i∈b} (p_i − p'_i)| / n. Per truth and
 * source, SEEDS outcome sets; per set, each candidate's interval (REPS bootstrap draws resampling tasks, as shipped):
 *   plain     the ECE's percentile interval (shipped; it targets the ECE's expectation, not the error)
 *   shipped   ece29's debiased interval (shipped until ece30): the plain one less the Monte Carlo floor at both
 *             ends, widened to hold the point
 *   pct       percentile interval of the debiased ECE recomputed per draw (ECE − exact floor of the resample)
 *   basic     basic interval of the same draws: 2·θ − their 97.5 / 2.5 % quantiles (θ: ECE − exact floor)
 *   pctW      as pct, but each resample's floor counts a duplicated run as one outcome counted m times (the
 *             bootstrap world draws it once), not m independent draws
 *   basicW    as basic, with pctW's draws
 *   span      [shipped's lower end, plain's upper end] (the error lies between E ECE − floor and E ECE)
 * Rule, fixed before the run: choose the candidate whose coverage is closest to 95 % (mean over the 15 cells of
 * |coverage − 95 %|) among those never below 90 % in any cell; ties (within 1 point) to the narrower (mean width).
 * Chosen at ece30 (200 draws, 400 reps): span, the only one never below 90 % (91-100 %; bench/README "ece30").
 * Counts, not timing. `node dist/bench/ece-coverage.js [seeds] [reps]`.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { sortedQuantile } from '../src/core/stats/bootstrap.js';
import { calibrationCheck, type TaskPrediction } from '../src/core/stats/calibration-check.js';
import { debiasedEce, debiasedEceDraws, debiasedEceDrawsWeighted } from './ece/resampled-floor.js';
import { seededRandom } from '../src/core/stats/rng.js';
import { packageRoot } from '../src/package-files.js';

const SEEDS = Number(process.argv[2] ?? 200);
const REPS = Number(process.argv[3] ?? 400);
const CANDIDATES = ['plain', 'shipped', 'pct', 'basic', 'pctW', 'basicW', 'span'] as const;
type Candidate = (typeof CANDIDATES)[number];
const TRUTHS = [
  { label: 'calibrated', a: 0, b: 1 },
  { label: 'logit +0.5', a: 0.5, b: 1 },
  { label: 'logit -0.5', a: -0.5, b: 1 },
  { label: 'slope 0.6', a: 0, b: 0.6 },
  { label: 'slope 1.6', a: 0, b: 1.6 },
];

function bySource(): Map<string, TaskPrediction[]> {
  const text = gunzipSync(readFileSync(`${packageRoot()}/test/fixtures/bundled-ppass.tsv.gz`)).toString('utf8');
  const by = new Map<string, TaskPrediction[]>();
  for (const line of text.trim().split('\n').slice(1)) {
    const [source, task, p] = line.split('\t') as [string, string, string];
    by.set(source, [...(by.get(source) ?? []), { task, p: Number(p), pass: false }]);
  }
  return by;
}

const logit = (p: number) => Math.log(Math.max(1e-9, p) / Math.max(1e-9, 1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The exact calibration error of predictions `ps` whose true pass probabilities are `qs` (10 bins of p). */
function trueError(ps: readonly number[], qs: readonly number[]): number {
  const gap = new Float64Array(10);
  ps.forEach((p, i) => (gap[Math.min(9, Math.floor(p * 10))]! += p - qs[i]!));
  return gap.reduce((e, g) => e + Math.abs(g), 0) / ps.length;
}

function units(preds: readonly TaskPrediction[]): TaskPrediction[][] {
  const m = new Map<string, TaskPrediction[]>();
  for (const x of preds) m.set(x.task ?? '', [...(m.get(x.task ?? '') ?? []), x]);
  return [...m.values()];
}

const rows: string[] = [];
const totals = new Map<Candidate, { dev: number; min: number; width: number; cells: number }>(CANDIDATES.map((c) => [c, { dev: 0, min: 1, width: 0, cells: 0 }]));
for (const [source, preds] of bySource()) {
  const ps = preds.map(({ p }) => p);
  for (const t of TRUTHS) {
    const qs = ps.map((p) => (t.a === 0 && t.b === 1 ? p : sigmoid(t.b * logit(p) + t.a)));
    const truth = trueError(ps, qs);
    const random = seededRandom(1234);
    const hold = new Map<Candidate, number>(CANDIDATES.map((c) => [c, 0]));
    const width = new Map<Candidate, number>(CANDIDATES.map((c) => [c, 0]));
    let k = 0;
    let ece = 0;
    let deb = 0;
    for (let s = 0; s < SEEDS; s++) {
      const sim = preds.map((x, i) => ({ ...x, pass: random() < qs[i]! }));
      const c = calibrationCheck(sim, { seed: s + 1, reps: REPS });
      const draws = debiasedEceDraws(units(sim), { seed: s + 1, reps: REPS });
      const drawsW = debiasedEceDrawsWeighted(units(sim), { seed: s + 1, reps: REPS });
      const theta = debiasedEce(sim);
      if (!c.interval || !c.perfect || !draws || !drawsW || theta === null) continue;
      // ece29's debiased interval, from the check's parts (so the bench reads the same after the shipped one changes).
      const floor = c.perfect.mean;
      const ece29 = { lo: Math.min(c.interval.lo, c.ece!) - floor, hi: Math.max(c.interval.hi, c.ece!) - floor };
      k++;
      ece += c.ece!;
      deb += theta;
      const q = (x: number) => sortedQuantile(draws, x);
      const w = (x: number) => sortedQuantile(drawsW, x);
      const iv: Record<Candidate, { lo: number; hi: number }> = {
        plain: c.interval,
        shipped: ece29,
        pct: { lo: q(0.025), hi: q(0.975 - 1e-12) },
        basic: { lo: 2 * theta - q(0.975 - 1e-12), hi: 2 * theta - q(0.025) },
        pctW: { lo: w(0.025), hi: w(0.975 - 1e-12) },
        basicW: { lo: 2 * theta - w(0.975 - 1e-12), hi: 2 * theta - w(0.025) },
        span: { lo: ece29.lo, hi: Math.max(c.interval.hi, c.ece! - floor) },
      };
      for (const name of CANDIDATES) {
        const i = iv[name];
        if (i.lo <= truth + 1e-12 && truth <= i.hi + 1e-12) hold.set(name, hold.get(name)! + 1);
        width.set(name, width.get(name)! + i.hi - i.lo);
      }
    }
    const cells = CANDIDATES.map((name) => {
      const cov = hold.get(name)! / k;
      const w = width.get(name)! / k;
      const tot = totals.get(name)!;
      tot.dev += Math.abs(cov - 0.95);
      tot.min = Math.min(tot.min, cov);
      tot.width += w;
      tot.cells++;
      return `${(100 * cov).toFixed(1)} (${w.toFixed(3)})`;
    });
    const row = `| ${source} (${preds.length}) | ${t.label} | ${truth.toFixed(3)} | ${(ece / k).toFixed(3)} / ${(deb / k).toFixed(3)} | ${cells.join(' | ')} |`;
    rows.push(row);
    console.log(row);
  }
}
console.log(`\nseeds ${SEEDS}, reps ${REPS}; cells: coverage % (mean width)`);
console.log(`| source (n) | truth | true error | mean ECE / debiased | ${CANDIDATES.join(' | ')} |`);
console.log(`| --- | --- | --- | --- | ${CANDIDATES.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(r);
console.log('\n| candidate | mean |coverage − 95 %| | lowest coverage | mean width |');
for (const name of CANDIDATES) {
  const t = totals.get(name)!;
  console.log(`| ${name} | ${((100 * t.dev) / t.cells).toFixed(1)} | ${(100 * t.min).toFixed(1)} | ${(t.width / t.cells).toFixed(3)} |`);
}

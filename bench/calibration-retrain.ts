/**
 * Issue 26, calibration per source, as `serve --forecast-learn` does it (bench/calibration-online.ts measures
 * the recalibration alone): a source the forecaster never saw reports the outcomes of its first k sessions and
 * the server's retraining (core/forecast/retrain.ts `retrainForecast`, its defaults) runs on them. With enough
 * of them it tries a model of the source's own (weights pulled toward the default model's, its own intercept,
 * recalibrated) and keeps it only if its task-disjoint held-out AUROC and log loss are not worse; else it
 * recalibrates the model in force. The ECE (10 bins) and the within-source AUROC of the source's remaining
 * sessions are then taken under the model in force for it, over random orders of its tasks. Beside each ECE, the
 * ECE a perfectly calibrated forecaster shows on the same predictions (outcomes drawn from them, 40 draws an
 * order): at n ~ 100 that is not 0, and it says how much of an ECE is the sample's and how much the forecaster's.
 *
 * The default model of each source is fitted without it (the config `train` chooses without it) and mapped by
 * the pooled Platt of the other sources' held-out scores: what an unseen source gets, as in calibration-online.
 *
 *   npm run build && node dist/bench/calibration-retrain.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--orders 50] [--ks 10,20,40,80] [--json FILE] ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { retrainForecast } from '../src/core/forecast/retrain.js';
import { calibrationCheck } from '../src/core/stats/calibration-check.js';
import { seededRandom } from '../src/core/stats/rng.js';
import { argsError, benchArgs, numberFlag, numberListFlag } from './args.js';
import { loadCalibrationRuns } from './calibration-runs.js';
import { aurocOf, defaultFileWithout, endP, taskOrder } from './retrain-helpers.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, orders: { type: 'string' }, seed: { type: 'string' }, ks: { type: 'string' } },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const ORDERS = numberFlag(values, 'orders', 'positive integer', 50);
const SEED = numberFlag(values, 'seed', 'non-negative integer', 1);
const KS = numberListFlag(values, 'ks', 'positive integer', [10, 20, 40, 80]);
const started = Date.now();

const loaded = await loadCalibrationRuns(positionals, values, SEED, 'calibration-retrain');
const { runs, src } = loaded;

console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${runs.length} runs (${runs.filter((r) => r.passed).length} passing); ${ORDERS} orders; k = ${KS.join(', ')}; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

/** The model an unseen source `s` gets: fitted without it, mapped by the other sources' pooled held-out Platt. */

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * s.length)))]!;
};

const measured = [...new Set(src)]
  .filter((s) => {
    const rs = runs.filter((_, i) => src[i] === s);
    return rs.length >= 20 && rs.some((r) => r.passed) && rs.some((r) => !r.passed);
  })
  .sort();
const figures: Record<string, number | string> = {};
console.log(
  '| source (pass / fail) | outcomes seen k | runs scored | model in force (own / recalibrated / default, share of orders) | mean pPass / passed | ECE, mean over orders [2.5, 97.5 pct] | ECE if perfectly calibrated, mean | share of orders ECE ≤ 0.10 | share of orders not told from perfect (p ≥ 0.05) | AUROC of the rest: in force / default model |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const s of measured) {
  const rs = runs.filter((_, i) => src[i] === s);
  const file = defaultFileWithout(loaded, s);
  const random = seededRandom(SEED);
  const orders = Array.from({ length: ORDERS }, () => taskOrder(rs, random));
  const label = `${s} (${rs.filter((r) => r.passed).length} / ${rs.filter((r) => !r.passed).length})`;
  for (const k of KS.filter((k) => k < rs.length - 5)) {
    const eces: number[] = [];
    const perfect: number[] = [];
    let notTold = 0;
    const aIn: number[] = [];
    const aDefault: number[] = [];
    const meanP: number[] = [];
    const passed: number[] = [];
    const kinds = { own: 0, recalibrated: 0, default: 0 };
    for (const o of orders) {
      const seen = o.slice(0, k);
      const rest = o.slice(k);
      const result = retrainForecast(seen, file, { now: '2026-12-02T00:00:00.000Z', seed: SEED });
      const attempt = result.sources.find((a) => a.result === 'accepted' || a.result === 'recalibrated');
      kinds[attempt === undefined ? 'default' : attempt.result === 'accepted' ? 'own' : 'recalibrated'] += 1;
      const inForce = result.kind === 'accepted' ? result.candidate : file;
      const p = rest.map((r) => endP(inForce, r));
      const check = calibrationCheck(
        p.map((x, i) => ({ p: x, pass: rest[i]!.passed })),
        { reps: 40, seed: SEED + eces.length },
      );
      eces.push(check.ece ?? Number.NaN);
      perfect.push(check.perfect?.mean ?? Number.NaN);
      if (check.p !== null && check.p >= 0.05) notTold += 1;
      meanP.push(mean(p));
      passed.push(rest.filter((r) => r.passed).length / rest.length);
      const a = aurocOf(rest, p);
      const d = aurocOf(
        rest,
        rest.map((r) => endP(file, r)),
      );
      if (a !== null && d !== null) {
        aIn.push(a);
        aDefault.push(d);
      }
    }
    const row = {
      source: s,
      k,
      scored: rs.length - k,
      own: kinds.own / ORDERS,
      recalibrated: kinds.recalibrated / ORDERS,
      ece: mean(eces),
      ece_lo: quantile(eces, 0.025),
      ece_hi: quantile(eces, 0.975),
      ece_perfect: mean(perfect),
      ece_met: eces.filter((e) => e <= 0.1).length / eces.length,
      ece_not_told_from_perfect: notTold / ORDERS,
      auroc_in_force: mean(aIn),
      auroc_default: mean(aDefault),
    };
    for (const [name, v] of Object.entries(row)) if (name !== 'source') figures[`${s} k=${k} ${name}`] = v;
    const pct = (x: number) => `${Math.round(100 * x)} %`;
    console.log(
      `| ${k === KS[0] ? label : ''} | ${k} | ${row.scored} | ${pct(row.own)} / ${pct(row.recalibrated)} / ${pct(kinds.default / ORDERS)} | ${mean(meanP).toFixed(3)} / ${mean(passed).toFixed(3)} | ${row.ece.toFixed(3)} [${row.ece_lo.toFixed(2)}, ${row.ece_hi.toFixed(2)}] | ${row.ece_perfect.toFixed(3)} | ${pct(row.ece_met)} | ${pct(row.ece_not_told_from_perfect)} | ${row.auroc_in_force.toFixed(3)} / ${row.auroc_default.toFixed(3)} |`,
    );
  }
}
console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
writeResult(jsonFile, { bench: 'calibration-retrain', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

/**
 * learn24, `serve --forecast-learn` over a source's outcomes in order: a source the forecaster never saw reports its
 * sessions' outcomes one batch (`--every`, default 5) at a time, and after each batch the server's retraining
 * (core/forecast/retrain.ts `retrainForecast`, its defaults) runs on every outcome so far with the model in force,
 * whose candidate (own model or recalibration) goes in force when accepted, as the learner does. After N outcomes
 * (`--at`) the model in force for the source and the default model score the source's remaining sessions: within-
 * source AUROC and log loss, and their paired difference, over random orders of its tasks (a task's runs together).
 * Intervals are the 2.5 and 97.5 percentiles over orders (the spread of what a deployment meets, not a sampling CI).
 * The default model is fitted without the source and mapped by the other sources' pooled held-out Platt, as in
 * bench/calibration-retrain.ts.
 *
 *   npm run build && node dist/bench/calibration-learn-order.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--orders 20] [--every 5] [--at 25,50,75,100] [--json FILE] ../shared/calibration
 */
import os from 'node:os';
import { selectModel } from '../src/core/forecast/model.js';
import { retrainForecast } from '../src/core/forecast/retrain.js';
import type { ForecastRun } from '../src/core/forecast/run.js';
import { seededRandom } from '../src/core/stats/rng.js';
import { argsError, benchArgs, numberFlag, numberListFlag } from './args.js';
import { loadCalibrationRuns } from './calibration-runs.js';
import { aurocOf, defaultFileWithout, endP, taskOrder } from './retrain-helpers.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: {
    manifest: { type: 'string' },
    outcomes: { type: 'string' },
    sources: { type: 'string' },
    orders: { type: 'string' },
    seed: { type: 'string' },
    every: { type: 'string' },
    at: { type: 'string' },
  },
});
const ORDERS = numberFlag(values, 'orders', 'positive integer', 20);
const SEED = numberFlag(values, 'seed', 'non-negative integer', 1);
const EVERY = numberFlag(values, 'every', 'positive integer', 5);
const AT = numberListFlag(values, 'at', 'positive integer', [25, 50, 75, 100]);
// After the flags: a bad value is named before the missing folders (test/bench/bench-args.test.ts).
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration)');
const started = Date.now();
const cpu0 = process.cpuUsage();

const loaded = await loadCalibrationRuns(positionals, values, SEED, 'calibration-learn-order');
const { runs, src } = loaded;
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${runs.length} runs; ${ORDERS} orders; a retraining every ${EVERY} outcomes; N = ${AT.join(', ')}; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (xs: readonly number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.floor(q * xs.length)))]!;
const logLoss = (rs: readonly ForecastRun[], p: readonly number[]) =>
  mean(p.map((q, i) => -Math.log(rs[i]!.passed ? Math.min(1 - 1e-9, Math.max(1e-9, q)) : 1 - Math.min(1 - 1e-9, Math.max(1e-9, q)))));
const fmt = (xs: readonly number[], d = 3) => `${mean(xs).toFixed(d)} [${pct(xs, 0.025).toFixed(d)}, ${pct(xs, 0.975).toFixed(d)}]`;

const measured = [...new Set(src)].filter((s) => runs.filter((_, i) => src[i] === s).length >= Math.min(...AT) + 10).sort();
const figures: Record<string, number> = {};
console.log(
  '| source (pass / fail) | N outcomes | runs scored | in force: own / recalibrated / default | own models accepted so far, mean | AUROC in force | AUROC default | AUROC in force − default | log loss in force | log loss default |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const s of measured) {
  const rs = runs.filter((_, i) => src[i] === s);
  const file = defaultFileWithout(loaded, s);
  const random = seededRandom(SEED);
  const ats = AT.filter((n) => n <= rs.length - 10);
  const acc = new Map(ats.map((n) => [n, { aIn: [] as number[], aDef: [] as number[], diff: [] as number[], lIn: [] as number[], lDef: [] as number[], kinds: [0, 0, 0], owns: [] as number[] }]));
  for (let o = 0; o < ORDERS; o++) {
    const seq = taskOrder(rs, random);
    let inForce = file;
    let owns = 0;
    for (let k = EVERY; k <= Math.max(...ats); k += EVERY) {
      const r = retrainForecast(seq.slice(0, k), inForce, { now: '2026-12-02T00:00:00.000Z', seed: SEED });
      if (r.kind === 'accepted') inForce = r.candidate;
      if (r.sources.some((a) => a.result === 'accepted')) owns++;
      const a = acc.get(k);
      if (a === undefined) continue;
      const rest = seq.slice(k);
      const pIn = rest.map((x) => endP(inForce, x));
      const pDef = rest.map((x) => endP(file, x));
      const ai = aurocOf(rest, pIn);
      const ad = aurocOf(rest, pDef);
      if (ai !== null && ad !== null) {
        a.aIn.push(ai);
        a.aDef.push(ad);
        a.diff.push(ai - ad);
      }
      a.lIn.push(logLoss(rest, pIn));
      a.lDef.push(logLoss(rest, pDef));
      const m = selectModel(inForce, rest[0]!.agent, rest[0]!.model)!;
      a.kinds[m === inForce.models[0] ? 2 : m.weights.some((w, j) => w !== file.models[0]!.weights[j]) ? 0 : 1]! += 1;
      a.owns.push(owns);
    }
  }
  const label = `${s} (${rs.filter((r) => r.passed).length} / ${rs.filter((r) => !r.passed).length})`;
  for (const n of ats) {
    const a = acc.get(n)!;
    const share = (x: number) => `${Math.round((100 * x) / ORDERS)} %`;
    console.log(
      `| ${n === ats[0] ? label : ''} | ${n} | ${rs.length - n} | ${a.kinds.map(share).join(' / ')} | ${mean(a.owns).toFixed(1)} | ${fmt(a.aIn)} | ${fmt(a.aDef)} | ${fmt(a.diff)} | ${fmt(a.lIn)} | ${fmt(a.lDef)} |`,
    );
    Object.assign(figures, {
      [`${s} N=${n} auroc_in_force`]: mean(a.aIn),
      [`${s} N=${n} auroc_default`]: mean(a.aDef),
      [`${s} N=${n} auroc_diff`]: mean(a.diff),
      [`${s} N=${n} logloss_in_force`]: mean(a.lIn),
      [`${s} N=${n} logloss_default`]: mean(a.lDef),
    });
  }
}
const cpu = process.cpuUsage(cpu0);
console.log(`${((Date.now() - started) / 1000).toFixed(0)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU`);
writeResult(jsonFile, { bench: 'calibration-learn-order', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

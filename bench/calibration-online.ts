/**
 * Issue 26, calibration per source (ECE <= 0.10), in the online setting: a source the forecaster never saw
 * starts reporting outcomes, and its pPass is recalibrated (core/forecast/recalibrate.ts) from the first k of
 * them. For each source held out: the forecaster fitted without it (train's held-out choice,
 * `heldOutBySource`), its k = 0 map the default model's (train.ts defaultMap, `--default-map runs|sources` as train's) fitted on the other sources' held-out scores; then, over
 * random orders of its tasks, the map refitted on the first k outcomes and the ECE (10 bins) of the remaining
 * runs, beside the ECE a perfectly calibrated forecaster shows at those predictions (outcomes drawn as
 * Bernoulli(p)); prequential (each run predicted from the outcomes before it, refitted every 10 outcomes); and
 * all-but-fold (5 task-disjoint folds of the source; core/stats calibrationCheck: interval, perfect forecaster,
 * p). The rule (prior strength on intercept and slope) is chosen for each source on the OTHER sources
 * (lowest prequential log loss).
 *
 *   npm run build && node dist/bench/calibration-online.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--orders 200] [--json FILE] ../shared/calibration ../shared/corpus
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { taskFolds } from '../src/core/forecast/crossfit.js';
import { applyPlatt, fitPlatt, type Platt, type ScoredPoint } from '../src/core/forecast/platt.js';
import { defaultMap, isDefaultMapWeighting, type DefaultMapWeighting } from '../src/core/forecast/train.js';
import { RECALIBRATION, recalibrateSource, type RecalibrationRule } from '../src/core/forecast/recalibrate.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { fitBeta, fitHistogram } from './recalibration-candidates.js';
import { auroc } from '../src/core/stats/auroc.js';
import { calibrationCheck } from '../src/core/stats/calibration-check.js';
import { calibrationError, type Prediction } from '../src/core/stats/calibration-error.js';
import { resampleIndices } from '../src/core/stats/bootstrap.js';
import { seededRandom, shuffleInPlace, type Random } from '../src/core/stats/rng.js';
import { loadCalibrationRuns } from './calibration-runs.js';
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
    dump: { type: 'string' },
    scores: { type: 'string' },
    family: { type: 'string' },
    'default-map': { type: 'string' },
  },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const ORDERS = numberFlag(values, 'orders', 'positive integer', 200);
const SEED = numberFlag(values, 'seed', 'non-negative integer', 1);
const DEFAULT_MAP: DefaultMapWeighting = defaultMapFlag(values['default-map']);
function defaultMapFlag(text: string | undefined): DefaultMapWeighting {
  if (text === undefined) return 'runs';
  if (isDefaultMapWeighting(text)) return text;
  return argsError(`--default-map must be runs or sources, got '${text}'`);
}
const started = Date.now();
interface Run {
  task: string;
  z: number;
  pass: boolean;
}
interface Held {
  prior: Platt;
  runs: Run[];
}
/**
 * Held-out end scores: each source by the forecaster fitted (and chosen) without it, and its k = 0 map (the pooled
 * Platt of the other sources). `--dump FILE` saves them, `--scores FILE` reads them back instead of training.
 */
async function heldOut(): Promise<{ total: number; passing: number; held: Map<string, Held> }> {
  if (values.scores !== undefined) {
    const held = new Map(Object.entries(JSON.parse(readFileSync(values.scores, 'utf8')) as Record<string, Held>));
    const all = [...held.values()].flatMap((h) => h.runs);
    return { total: all.length, passing: all.filter((r) => r.pass).length, held };
  }
  const { runs, z, src } = await loadCalibrationRuns(positionals, values, SEED, 'calibration-online');
  const bySource = new Map<string, Run[]>();
  runs.forEach((r, i) => {
    if (z[i] === null) return;
    bySource.set(src[i]!, [...(bySource.get(src[i]!) ?? []), { task: r.task, z: z[i]!, pass: r.passed }]);
  });
  // What the default model gives a source it has no model of (train.ts defaultMap: each source weighing alike).
  const pooledWithout = (s: string): Platt => defaultMap(runs, z, s, DEFAULT_MAP);
  const held = new Map([...bySource].map(([s, rs]) => [s, { prior: pooledWithout(s), runs: rs }]));
  if (values.dump !== undefined) writeFileSync(values.dump, JSON.stringify(Object.fromEntries(held)));
  return { total: runs.length, passing: runs.filter((r) => r.passed).length, held };
}
const { total, passing, held } = await heldOut();
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${total} runs (${passing} passing); ${ORDERS} orders; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
const bySource = new Map([...held].map(([s, h]) => [s, h.runs]));
// Measured: sources with 20 runs or more and both outcomes (the rest only train the others).
const measured = [...bySource.keys()].filter((s) => bySource.get(s)!.length >= 20 && bySource.get(s)!.some((r) => r.pass) && bySource.get(s)!.some((r) => !r.pass)).sort();
const pooledWithout = (s: string): Platt => held.get(s)!.prior;

/** A recalibration rule: its name and its fit on a source's first outcomes, toward the map in force. */
interface Rule {
  name: string;
  fit: (points: readonly ScoredPoint[], prior: Platt) => (z: number) => number;
}
const plattRule = (r: RecalibrationRule): Rule => ({
  name: `platt a ${r.strength}, b ${Number.isFinite(r.slopeStrength) ? r.slopeStrength : 'fixed'}`,
  fit: (pts, prior) => {
    const c = recalibrateSource(pts, prior, r);
    return (z) => applyPlatt(c, z);
  },
});
const PLATT: Rule[] = [1, 3, 10, 30, 100].flatMap((s) => [
  plattRule({ strength: s, slopeStrength: s }),
  plattRule({ strength: s, slopeStrength: 10 * s }),
  plattRule({ strength: s, slopeStrength: Infinity }),
]);
// Candidates (bench/recalibration-candidates.ts): the shipped Platt strengths and neighbours, plus a bend or bins.
const BETA: Rule[] = [
  [1, 10],
  [3, 30],
  [10, 100],
].flatMap(([a, b]) =>
  [1, 3, 10, 30, 100, Infinity].map((d) => ({
    name: `beta a ${a}, b ${b}, bend ${Number.isFinite(d) ? d : 'fixed'}`,
    fit: (pts: readonly ScoredPoint[], prior: Platt) => fitBeta(pts, prior, { strength: a!, slopeStrength: b!, bendStrength: d }),
  })),
);
const histogram = (monotone: boolean): Rule[] =>
  [plattRule(RECALIBRATION)].concat(
    [5, 10].flatMap((bins) =>
      [3, 10, 30, 100].map((m) => ({
        name: `platt a 3, b 30 + ${bins} bins, ${m} runs each${monotone ? ', monotone' : ''}`,
        fit: (pts: readonly ScoredPoint[], prior: Platt) => fitHistogram(pts, recalibrateSource(pts, prior, RECALIBRATION), { bins, binStrength: m, monotone }),
      })),
    ),
  );
const FAMILY = values.family ?? 'platt';
const RULES: Rule[] = FAMILY === 'beta' ? BETA : FAMILY === 'histogram' ? histogram(false) : FAMILY === 'monotone-histogram' ? histogram(true) : FAMILY === 'platt' ? PLATT : [];
if (RULES.length === 0) throw new Error(`--family: platt, beta, histogram or monotone-histogram, not ${FAMILY}`);
const ruleName = (r: Rule) => r.name;
const shipped = plattRule(RECALIBRATION);
/** Mean of x − y over orders, with the 2.5th and 97.5th percentiles of the per-order differences. */
const paired = (x: readonly number[], y: readonly number[]) => {
  const d = x.map((v, i) => v - y[i]!);
  return `${mean(d).toFixed(4)} [${quantile(d, 0.025).toFixed(4)}, ${quantile(d, 0.975).toFixed(4)}]`;
};

const point = (r: Run): ScoredPoint => ({ z: r.z, pass: r.pass });
const logLoss = (ps: readonly Prediction[]) => ps.reduce((a, { p, pass }) => a - Math.log(Math.min(1 - 1e-9, Math.max(1e-9, pass ? p : 1 - p))), 0) / ps.length;
/** The source's runs in a random order of its tasks (a task's runs together, in random order). */
function order(rs: readonly Run[], random: Random): Run[] {
  const tasks = shuffleInPlace([...new Set(rs.map((r) => r.task))].sort(), random);
  return tasks.flatMap((t) =>
    shuffleInPlace(
      rs.filter((r) => r.task === t),
      random,
    ),
  );
}
const REFIT_EVERY = 10;
/** Prequential: each run predicted from the outcomes before it (the map refitted every REFIT_EVERY outcomes). */
function prequential(o: readonly Run[], prior: Platt, rule: Rule): Prediction[] {
  let c = (z: number) => applyPlatt(prior, z);
  return o.map((r, j) => {
    if (j > 0 && j % REFIT_EVERY === 0) c = rule.fit(o.slice(0, j).map(point), prior);
    return { p: c(r.z), pass: r.pass };
  });
}
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * s.length)))]!;
};

// 1. Prequential log loss of every rule on every source (for the held-out choice).
const preqLoss = new Map<string, number[]>();
for (const s of measured) {
  const rs = bySource.get(s)!;
  const prior = pooledWithout(s);
  const random = seededRandom(SEED);
  const orders = Array.from({ length: Math.min(ORDERS, 100) }, () => order(rs, random));
  preqLoss.set(
    s,
    RULES.map((rule) => mean(orders.map((o) => logLoss(prequential(o, prior, rule))))),
  );
}
const chosenFor = (s: string): number => {
  const others = measured.filter((x) => x !== s);
  let best = 0;
  let bestLoss = Infinity;
  RULES.forEach((_, k) => {
    const l = mean(others.map((x) => preqLoss.get(x)![k]!));
    if (l < bestLoss - 1e-12) {
      best = k;
      bestLoss = l;
    }
  });
  return best;
};
const allChosen = (() => {
  let best = 0;
  let bestLoss = Infinity;
  RULES.forEach((_, k) => {
    const l = mean(measured.map((x) => preqLoss.get(x)![k]!));
    if (l < bestLoss - 1e-12) {
      best = k;
      bestLoss = l;
    }
  });
  return best;
})();

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
console.log('\nprequential log loss by rule (100 orders; the rule for each source is chosen on the others):');
console.log(`| rule | ${measured.join(' | ')} |`);
console.log(`| --- | ${measured.map(() => '---').join(' | ')} |`);
RULES.forEach((rule, k) => console.log(`| ${ruleName(rule)} | ${measured.map((s) => f3(preqLoss.get(s)![k])).join(' | ')} |`));
console.log(`chosen on all sources: ${ruleName(RULES[allChosen]!)}; held out: ${measured.map((s) => `${s}: ${ruleName(RULES[chosenFor(s)]!)}`).join('; ')}`);

// 2. Per source, with the rule chosen without it: ECE of the runs after the first k, beside the perfect forecaster's.
const figures: Record<string, number | string> = { family: FAMILY, chosenOnAll: ruleName(RULES[allChosen]!) };
const KS = [0, 5, 10, 20, 40, 80, 160, 320];
for (const s of measured) {
  const rs = bySource.get(s)!;
  const nPass = rs.filter((r) => r.pass).length;
  const prior = pooledWithout(s);
  const rule = RULES[chosenFor(s)]!;
  const random = seededRandom(SEED + 1);
  const orders = Array.from({ length: ORDERS }, () => order(rs, random));
  console.log(`\n${s} (${nPass} / ${rs.length - nPass}); rule chosen without it: ${ruleName(rule)}; k = 0 map: a ${prior.a.toFixed(2)}, b ${prior.b.toFixed(2)} (pooled on the other sources)`);
  console.log(
    '| outcomes seen (k) | runs scored | mean pPass / passed | ECE (mean over orders) [95 %: orders x bootstrap] | perfectly calibrated: ECE mean (95th pct) | share of orders with ECE <= 0.10 | log loss | shipped Platt (a 3, b 30): ECE, log loss, ECE of 15 bins (this rule / shipped) | this rule − shipped, paired by order: ECE 15 bins, log loss [2.5, 97.5 pct of orders] |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const k of KS.filter((k) => rs.length - k >= 10)) {
    const eces: number[] = [];
    const shippedEces: number[] = [];
    const shippedLosses: number[] = [];
    const eces15: number[] = [];
    const shippedEces15: number[] = [];
    const boots: number[] = [];
    const nulls: number[] = [];
    const losses: number[] = [];
    const meanP: number[] = [];
    const rate: number[] = [];
    for (const o of orders) {
      const c = k === 0 ? (x: number) => applyPlatt(prior, x) : rule.fit(o.slice(0, k).map(point), prior);
      const rest = o.slice(k).map((r) => ({ p: c(r.z), pass: r.pass }));
      eces.push(calibrationError(rest).ece!);
      // The same runs under the shipped rule, and both in 15 bins (a candidate binned like the ECE could fit the bins).
      const ship = k === 0 ? c : shipped.fit(o.slice(0, k).map(point), prior);
      const restShipped = o.slice(k).map((r) => ({ p: ship(r.z), pass: r.pass }));
      shippedEces.push(calibrationError(restShipped).ece!);
      shippedLosses.push(logLoss(restShipped));
      eces15.push(calibrationError(rest, 15).ece!);
      shippedEces15.push(calibrationError(restShipped, 15).ece!);
      boots.push(calibrationError(resampleIndices(random, rest.length).map((i) => rest[i]!)).ece!);
      nulls.push(calibrationError(rest.map(({ p }) => ({ p, pass: random() < p }))).ece!);
      losses.push(logLoss(rest));
      meanP.push(mean(rest.map((x) => x.p)));
      rate.push(mean(rest.map((x) => (x.pass ? 1 : 0))));
    }
    const e = mean(eces);
    console.log(
      `| ${k} | ${rs.length - k} | ${f3(mean(meanP))} / ${f3(mean(rate))} | ${f3(e)} [${f3(quantile(boots, 0.025))}, ${f3(quantile(boots, 0.975))}] | ${f3(mean(nulls))} (${f3(quantile(nulls, 0.95))}) | ${f3(mean(eces.map((x) => (x <= 0.1 ? 1 : 0))))} | ${f3(mean(losses))} | ${f3(mean(shippedEces))}, ${f3(mean(shippedLosses))}, ${f3(mean(eces15))} / ${f3(mean(shippedEces15))} | ${paired(eces15, shippedEces15)}; ${paired(losses, shippedLosses)} |`,
    );
    figures[`${s} k=${k} ece`] = e;
    figures[`${s} k=${k} perfect`] = mean(nulls);
    figures[`${s} k=${k} shipped ece`] = mean(shippedEces);
  }
  // Prequential over the whole source.
  const preq = orders.slice(0, 50).map((o) => prequential(o, prior, rule));
  const preqEce = preq.map((p) => calibrationError(p).ece!);
  const preqNull = preq.map((p) => calibrationError(p.map(({ p: q }) => ({ p: q, pass: random() < q }))).ece!);
  console.log(
    `prequential (every run predicted before its outcome, refit every ${REFIT_EVERY}; 50 orders): ECE ${f3(mean(preqEce))} [${f3(quantile(preqEce, 0.025))}, ${f3(quantile(preqEce, 0.975))}], perfectly calibrated ${f3(mean(preqNull))} (${f3(quantile(preqNull, 0.95))})`,
  );
  const preqShipped = orders.slice(0, 50).map((o) => prequential(o, prior, shipped));
  console.log(
    `prequential log loss ${f3(mean(preq.map(logLoss)))}; shipped Platt (a 3, b 30): ECE ${f3(mean(preqShipped.map((p) => calibrationError(p).ece!)))}, log loss ${f3(mean(preqShipped.map(logLoss)))}`,
  );
  figures[`${s} prequential ece`] = mean(preqEce);
  // All but one task fold of the source (what `train` prints), with the rule and with train's (identity prior, strength 10).
  const folds = taskFolds(
    rs.map((r) => r.task),
    5,
    SEED,
  );
  for (const [name, fit] of [
    [`rule (${ruleName(rule)}, toward the pooled map)`, (pts: ScoredPoint[]) => rule.fit(pts, prior)],
    ['shipped (platt a 3, b 30, toward the pooled map)', (pts: ScoredPoint[]) => shipped.fit(pts, prior)],
    [
      'train today (identity prior, strength 10)',
      (pts: ScoredPoint[]) => {
        const c = fitPlatt(pts);
        return (x: number) => applyPlatt(c, x);
      },
    ],
  ] as const) {
    const preds = rs.map((r) => {
      const f = folds.get(r.task);
      const c = fit(rs.filter((x) => folds.get(x.task) !== f).map(point));
      return { p: c(r.z), pass: r.pass };
    });
    const chk = calibrationCheck(preds, { seed: SEED });
    const chk15 = calibrationCheck(preds, { seed: SEED }, 15);
    console.log(
      `all but one of 5 task folds, ${name}: n ${chk.n}, ECE ${f3(chk.ece)} [${f3(chk.interval?.lo)}, ${f3(chk.interval?.hi)}], perfectly calibrated ${f3(chk.perfect?.mean)} (95th pct ${f3(chk.perfect?.hi)}), p = ${f3(chk.p)}; 15 bins: ECE ${f3(chk15.ece)}, perfectly calibrated ${f3(chk15.perfect?.mean)}, p = ${f3(chk15.p)}; log loss ${f3(logLoss(preds))}; AUROC ${f3(
        auroc(
          preds.filter((x) => x.pass).map((x) => x.p),
          preds.filter((x) => !x.pass).map((x) => x.p),
        )?.auroc,
      )}`,
    );
    figures[`${s} folds ${name.split(' ')[0]} ece`] = chk.ece ?? NaN;
  }
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
writeResult(jsonFile, { bench: 'calibration-online', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

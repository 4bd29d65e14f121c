/**
 * Issue 26, item 2: which features the forecaster uses, measured within source and held
 * out, on the runs `steplens train` reads (same scoring, same naming). For each feature of
 * the catalogue (src/core/forecast/features.ts): its end-of-run AUROC alone within each
 * source (core/stats `separation`: n, seeded bootstrap 95 % interval, the within-source
 * mean). For each evidence value (src/core/evidence): leave-one-source-out AUROC of the
 * forecaster (the default configuration's fit) with the process features plus that value,
 * and with the process features plus every evidence value but that one, per source; the
 * keep rule of KEPT_EVIDENCE (select.ts): added, it raises the mean over the steering
 * sources (10 or more passing and failing runs); dropped, it lowers it. Then two nested
 * checks per steering source: the values the rule keeps on the OTHER steering sources'
 * scores above (whose models were fitted on its runs), and the clean one: the rule run on
 * the runs without it, and its held-out AUROC as `steplens train` takes it with that
 * list as 'process + evidence', beside the same with KEPT_EVIDENCE (docs/forecast.md,
 * "The kept evidence values, chosen without each source").
 *
 *   npm run build && node dist/bench/forecast-features.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--leave-out SOURCE] [--folds 5] [--seed 1] [--json FILE] \
 *     ../shared/calibration ../shared/corpus
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { readCorpusInput } from '../src/cli/corpus-input.js';
import { nodeReportFs } from '../src/report/node-fs.js';
import { nameRuns } from '../src/report/run-naming.js';
import { chooseReference } from '../src/cli/references.js';
import { trainAnalyzers, trainInput } from '../src/cli/train-runs.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { EVIDENCE_NAMES, type EvidenceName } from '../src/core/evidence/evidence.js';
import { endScores, leaveSourceOut } from '../src/core/forecast/crossfit.js';
import { FEATURE_COUNT, FEATURE_NAMES, PROCESS_FEATURES, type FeatureName } from '../src/core/forecast/features.js';
import { sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { DEFAULT_FIT, FEATURE_SETS, KEPT_EVIDENCE, selectConfig, steeringSources } from '../src/core/forecast/select.js';
import { heldOutApart } from '../src/core/forecast/train.js';
import { auroc } from '../src/core/stats/auroc.js';
import { separation } from '../src/core/stats/separation.js';
import { parseSourcesTable } from '../src/report/sources-table.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, 'leave-out': { type: 'string' }, folds: { type: 'string' }, seed: { type: 'string' } },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const folds = numberFlag(values, 'folds', 'positive integer', 5);
const seed = numberFlag(values, 'seed', 'non-negative integer', 1);
const started = Date.now();
const { found, naming } = readCorpusInput(positionals, { outcomes: values.outcomes, manifest: values.manifest }, process.cwd(), 'forecast-features');
const sourcesTable = values.sources !== undefined ? parseSourcesTable(readFileSync(values.sources, 'utf8'), values.sources) : undefined;
if (sourcesTable !== undefined && !sourcesTable.ok) throw sourcesTable.error;
// Runs named as report, calibrate and train name them (report/run-naming.ts).
const named = nameRuns(nodeReportFs, found.trajectories, { ...naming, sources: sourcesTable?.value ?? [] });
const input = trainInput(named, await chooseReference(undefined), trainAnalyzers(defaultAnalyzers()), DEFAULT_CONFIG);
const runs: readonly ForecastRun[] = input.runs;
const src = runs.map(sourceOf);
const counted = separation(runs.map((r, i) => ({ source: src[i]!, task: r.task, pass: r.passed, score: 0 }))).withinSource.sources.filter((s) => s.counted);
const steer = steeringSources(runs);
const only = values['leave-out'];
if (only !== undefined && !steer.includes(only)) throw new Error(`--leave-out ${only}: not a steering source (${steer.join(', ')})`);
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${runs.length} runs (${runs.filter((r) => r.passed).length} passing); steering sources: ${steer.join(', ')}; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const f2 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(2));
const mean = (xs: ReadonlyArray<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
};

// 1. Each feature alone, at the end of the run, within source.
const alone: Record<string, unknown> = {};
console.log(`\n| feature | ${counted.map((s) => `${s.source} (${s.nPass} / ${s.nFail})`).join(' | ')} | within-source mean |`);
console.log(`| --- | ${counted.map(() => '---').join(' | ')} | --- |`);
for (const [j, name] of FEATURE_NAMES.entries()) {
  const sep = separation(runs.map((r, i) => ({ source: src[i]!, task: r.task, pass: r.passed, score: r.rows[(r.at.length - 1) * FEATURE_COUNT + j]! })));
  const by = Object.fromEntries(sep.withinSource.sources.map((s) => [s.source, s]));
  alone[name] = { mean: sep.withinSource.mean, sources: sep.withinSource.sources.map((s) => ({ source: s.source, auroc: s.auroc, interval: s.interval })) };
  const cell = (s: string) => `${f3(by[s]?.auroc)} [${f3(by[s]?.interval?.lo)}, ${f3(by[s]?.interval?.hi)}]`;
  console.log(`| ${name} | ${counted.map((s) => cell(s.source)).join(' | ')} | ${f3(sep.withinSource.mean)} |`);
}

// 2. Held out: the forecaster with each evidence value added to the process features, and dropped from all.
const aurocIn = (rs: readonly ForecastRun[], ends: ReadonlyArray<number | null>, source: string): number | null => {
  const pos: number[] = [];
  const neg: number[] = [];
  rs.forEach((r, i) => {
    if (sourceOf(r) === source && ends[i] !== null) (r.passed ? pos : neg).push(ends[i]!);
  });
  return auroc(pos, neg)?.auroc ?? null;
};
/** Leave-one-source-out AUROC of each of `sources` (models fitted on the other runs of `rs`) with `features`. */
const heldOutOn = (rs: readonly ForecastRun[], sources: readonly string[], features: readonly FeatureName[]): Record<string, number | null> => {
  const ends = endScores(leaveSourceOut(rs, () => ({ ...DEFAULT_FIT, features }), sources));
  return Object.fromEntries(sources.map((s) => [s, aurocIn(rs, ends, s)]));
};
const heldOut = (features: readonly FeatureName[]) =>
  heldOutOn(
    runs,
    counted.map((s) => s.source),
    features,
  );
const over = (x: Record<string, number | null>, sources: readonly string[]) => mean(sources.map((s) => x[s] ?? null));
const process_ = heldOut(PROCESS_FEATURES);
const all = heldOut([...PROCESS_FEATURES, ...EVIDENCE_NAMES]);
const added = Object.fromEntries(EVIDENCE_NAMES.map((e) => [e, heldOut([...PROCESS_FEATURES, e])])) as Record<EvidenceName, Record<string, number | null>>;
const dropped = Object.fromEntries(EVIDENCE_NAMES.map((e) => [e, heldOut([...PROCESS_FEATURES, ...EVIDENCE_NAMES.filter((x) => x !== e)])])) as Record<EvidenceName, Record<string, number | null>>;
interface RuleInput {
  process_: Record<string, number | null>;
  all: Record<string, number | null>;
  added: Record<EvidenceName, Record<string, number | null>>;
  dropped: Record<EvidenceName, Record<string, number | null>>;
}
/** The keep rule of KEPT_EVIDENCE: added to the process features it raises the mean over `sources`; dropped from all, it lowers it. */
const keptBy = (x: RuleInput, sources: readonly string[]) =>
  EVIDENCE_NAMES.filter((e) => over(x.added[e], sources)! > over(x.process_, sources)! && over(x.dropped[e], sources)! < over(x.all, sources)!);
const keptOn = (sources: readonly string[]) => keptBy({ process_, all, added, dropped }, sources);
const row = (name: string, x: Record<string, number | null>) =>
  `| ${name} | ${counted.map((s) => f3(x[s.source])).join(' | ')} | ${f3(over(x, steer))} | ${f3(
    over(
      x,
      counted.map((s) => s.source),
    ),
  )} |`;
console.log(`\n| leave one source out | ${counted.map((s) => s.source).join(' | ')} | mean, steering | mean, all ${counted.length} |`);
console.log(`| --- | ${counted.map(() => '---').join(' | ')} | --- | --- |`);
console.log(row('process features', process_));
console.log(row('process + every evidence value', all));
for (const e of EVIDENCE_NAMES) {
  console.log(row(`+ ${e}`, added[e]));
  console.log(row(`all but ${e}`, dropped[e]));
}
const kept = keptOn(steer);
console.log(
  `\nkept by the rule on the steering sources: ${kept.join(', ')}${kept.join() === KEPT_EVIDENCE.join() ? ' (= KEPT_EVIDENCE)' : ` (KEPT_EVIDENCE is ${KEPT_EVIDENCE.join(', ')}: update select.ts)`}`,
);
const withKept = heldOut([...PROCESS_FEATURES, ...kept]);
console.log(row('process + kept evidence', withKept));

// 3. Nested, shared fits: each steering source judged with the values kept on the other steering sources (the
//    models behind those sources' scores were fitted on its runs: section 4 is the clean check).
const nested: Record<string, { kept: string[]; auroc: number | null }> = {};
for (const s of steer) {
  const k = keptOn(steer.filter((x) => x !== s));
  const h = heldOut([...PROCESS_FEATURES, ...k]);
  nested[s] = { kept: k, auroc: h[s] ?? null };
  console.log(`nested ${s}: kept on the others: ${k.join(', ')}; its held-out AUROC ${f3(h[s])} (with the values kept on all: ${f3(withKept[s])})`);
}

// 4. Nested apart: the rule run on the runs WITHOUT each steering source s (the other steering sources, each scored by
//    a model fitted without it and without s), then s's headline as train takes it under that subset: the feature sets
//    of select.ts with 'process + evidence' = the subset, the configuration chosen on the runs without s
//    (`chosenApart`), leave one source and task out (crossfit.ts), AUROC of the end score with the 95 % interval
//    resampling tasks (train's `evaluateView`). Where the subset is KEPT_EVIDENCE this reproduces train's figure.
interface Headline {
  set: string;
  lambda: number;
  nPass: number;
  nFail: number;
  auroc: number | null;
  lo: number | null;
  hi: number | null;
}
/** Each steering source's held-out figure as `steplens train` takes it, with `sets` as the candidate feature sets. */
const headlines = (sets: Record<string, readonly FeatureName[]>, sources: readonly string[]): Record<string, Headline> => {
  const sel = selectConfig(runs, folds, seed, sets);
  const ends = endScores(heldOutApart(runs, sel, folds, seed));
  const sep = separation(
    runs.flatMap((r, i) => (ends[i] === null ? [] : [{ source: src[i]!, task: r.task, pass: r.passed, score: ends[i]! }])),
    { seed, unit: 'task' },
  );
  return Object.fromEntries(
    sources.map((s) => {
      const c = sel.candidates[sel.chosenApart[s]!]!;
      const row = sep.withinSource.sources.find((x) => x.source === s);
      const h: Headline = {
        set: c.set,
        lambda: c.config.lambda,
        nPass: row?.nPass ?? 0,
        nFail: row?.nFail ?? 0,
        auroc: row?.auroc ?? null,
        lo: row?.interval?.lo ?? null,
        hi: row?.interval?.hi ?? null,
      };
      return [s, h];
    }),
  );
};
const fig = (h: Headline) => `${f3(h.auroc)} [${f2(h.lo)}, ${f2(h.hi)}] (${h.set}, lambda ${h.lambda})`;
const leftOut = only !== undefined ? [only] : steer;
const current = headlines(FEATURE_SETS, leftOut);
const apart: Record<string, { kept: string[]; same: boolean; headline: Headline }> = {};
console.log(
  `\nevidence kept by the rule on the runs without each steering source, and that source's held-out AUROC (leave one source and task out, ${folds} task folds, seed ${seed}, 95 % interval resampling tasks; in parentheses the configuration chosen without it):`,
);
console.log('| left out of the analysis | evidence kept without it | = KEPT_EVIDENCE | pass / fail | AUROC, that subset | AUROC, KEPT_EVIDENCE (train) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const s of leftOut) {
  const others = steer.filter((x) => x !== s);
  const without = runs.filter((_, i) => src[i] !== s);
  const on = (features: readonly FeatureName[]) => heldOutOn(without, others, features);
  const k = keptBy(
    {
      process_: on(PROCESS_FEATURES),
      all: on([...PROCESS_FEATURES, ...EVIDENCE_NAMES]),
      added: Object.fromEntries(EVIDENCE_NAMES.map((e) => [e, on([...PROCESS_FEATURES, e])])) as RuleInput['added'],
      dropped: Object.fromEntries(EVIDENCE_NAMES.map((e) => [e, on([...PROCESS_FEATURES, ...EVIDENCE_NAMES.filter((x) => x !== e)])])) as RuleInput['dropped'],
    },
    others,
  );
  const same = k.join() === KEPT_EVIDENCE.join();
  const h = same ? current[s]! : headlines({ ...FEATURE_SETS, 'process + evidence': [...PROCESS_FEATURES, ...k] }, [s])[s]!;
  apart[s] = { kept: k, same, headline: h };
  const c = current[s]!;
  console.log(`| ${s} | ${k.join(', ') || '(none)'} | ${same ? 'yes' : 'no'} | ${h.nPass} / ${h.nFail} | ${fig(h)} | ${fig(c)} |`);
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`);
const figures: Record<string, number | string> = { kept: kept.join(','), steering_mean_process: over(process_, steer) ?? Number.NaN, steering_mean_kept: over(withKept, steer) ?? Number.NaN };
for (const [s, n] of Object.entries(nested)) figures[`nested_auroc ${s}`] = n.auroc ?? Number.NaN;
for (const [s, a] of Object.entries(apart)) {
  figures[`apart_kept ${s}`] = a.kept.join(',');
  figures[`apart_auroc ${s}`] = a.headline.auroc ?? Number.NaN;
  figures[`current_auroc ${s}`] = current[s]!.auroc ?? Number.NaN;
}
void alone;
writeResult(jsonFile, { bench: 'forecast-features', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

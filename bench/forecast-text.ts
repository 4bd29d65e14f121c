/**
 * Issue 26: does the TEXT of the steps rank runs within one agent + model better than today's forecaster? A hashed
 * bag of harness-neutral words per run (bench/forecast-text/tokens.ts: error and test-summary lines after the last
 * source edit, exception names, the final patch's identifiers, command verbs), an L2 logistic with one intercept per
 * source (forecast-text/hashed-fit.ts), alone and with today's held-out pPass logit as an input; held out as `train`
 * holds out (forecast-text/held-out.ts: leave one source and task out, the configuration chosen without the scored
 * source; 5 task-disjoint folds, chosen by inner folds). Beside today's pPass on the same runs (`train`'s own
 * selection and held-out scores, src/core/forecast): AUROC per source with a 95 % bootstrap interval resampling tasks
 * (core/stats `separation`, unit 'task'), the paired bootstrap difference to pPass (same draws), within task, and
 * best-of-N within the source with repeated trials. Also measured: how many words name the harness.
 *
 *   npm run build && node dist/bench/forecast-text.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--folds 5] [--seed 1] [--json FILE] ../shared/calibration ../shared/corpus
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { readCorpusInput } from '../src/cli/corpus-input.js';
import { chooseReference } from '../src/cli/references.js';
import { trainAnalyzers } from '../src/cli/train-runs.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { endScores, leaveSourceOut, taskFolds, taskFoldsOut } from '../src/core/forecast/crossfit.js';
import { forecastRun, sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { selectConfig } from '../src/core/forecast/select.js';
import { heldOutApart } from '../src/core/forecast/train.js';
import { createScorer } from '../src/core/scorer.js';
import { bestOfN } from '../src/core/stats/best-of-n.js';
import type { Interval } from '../src/core/stats/interval.js';
import { separation, type Separation } from '../src/core/stats/separation.js';
import type { Label } from '../src/core/types.js';
import { modelLabel } from '../src/report/identity.js';
import { nodeReportFs } from '../src/report/node-fs.js';
import { nameRuns } from '../src/report/run-naming.js';
import { parseSourcesTable } from '../src/report/sources-table.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { hashWord, type TextRun } from './forecast-text/hashed-fit.js';
import { chooseByFolds, chooseBySource, fitAndScore, harnessWords, sourceShares, TEXT_CONFIGS, type Corpus, type TextConfig } from './forecast-text/held-out.js';
import { meanDifference, sourceDifference, withinTaskDifference, type Difference, type Paired } from './forecast-text/paired.js';
import { runTokens } from './forecast-text/tokens.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, folds: { type: 'string' }, seed: { type: 'string' } },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const k = numberFlag(values, 'folds', 'positive integer', 5);
const seed = numberFlag(values, 'seed', 'non-negative integer', 1);
const started = Date.now();
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

// 1. The runs `train` reads (same naming, same scoring), each with its bag of words.
const { found, naming } = readCorpusInput(positionals, { outcomes: values.outcomes, manifest: values.manifest }, process.cwd(), 'forecast-text');
const sourcesTable = values.sources !== undefined ? parseSourcesTable(readFileSync(values.sources, 'utf8'), values.sources) : undefined;
if (sourcesTable !== undefined && !sourcesTable.ok) throw sourcesTable.error;
const reference = await chooseReference(undefined);
const analyzers = trainAnalyzers(defaultAnalyzers());
const runs: ForecastRun[] = [];
const bags: Array<Map<string, number>> = [];
for (const t of nameRuns(nodeReportFs, found.trajectories, { ...naming, sources: sourcesTable?.value ?? [] })) {
  const outcome = t.outcome.outcome;
  if ((outcome !== 'pass' && outcome !== 'fail') || t.steps.length === 0 || t.task === null) continue;
  const scorer = createScorer({ reference, analyzers, config: DEFAULT_CONFIG });
  const labels: Label[] = t.steps.map((s) => scorer.push(s).label);
  runs.push(forecastRun({ id: t.id, task: t.task, agent: t.agent, model: modelLabel(t), passed: outcome === 'pass' }, t.steps, scorer.states(), labels));
  bags.push(runTokens(t.steps, scorer.states(), labels));
}
const dict = new Map<string, number>();
const text: TextRun[] = runs.map((r, i) => {
  const entries = [...bags[i]!].sort(([a], [b]) => (a < b ? -1 : 1));
  const ids = Int32Array.from(entries, ([w]) => dict.get(w) ?? dict.set(w, dict.size).get(w)!);
  return { source: sourceOf(r), task: r.task, passed: r.passed, ids, counts: Float64Array.from(entries, ([, n]) => n) };
});
const words = [...dict.keys()];
const corpus: Corpus = { runs: text, words: dict.size, hashes: Uint32Array.from(words, hashWord) };
const src = runs.map(sourceOf);
const all = runs.map((_, i) => i);
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(`${runs.length} runs (${runs.filter((r) => r.passed).length} passing), ${dict.size} distinct words; loaded in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load()}`);

// 2. Today's pPass held out, as `train` takes it: its selection, leave one source and task out, and its task folds.
const sel = selectConfig(runs, k, seed);
const apart = endScores(heldOutApart(runs, sel, k, seed));
const foldZ = endScores(sel.folds);
const counted = separation(runs.map((r, i) => ({ source: src[i]!, task: r.task, pass: r.passed, score: 0 })))
  .withinSource.sources.filter((s) => s.counted)
  .map((s) => s.source);
const steering = sel.steering;
console.log(`steering sources: ${steering.join(', ')}; counted (≥ 3 / 3): ${counted.join(', ')}; ${((Date.now() - started) / 1000).toFixed(0)} s`);

// 3. Words that name the harness: in ≥ 90 % of one source's runs and < 10 % of another's (sources with ≥ 20 runs).
const shares = sourceShares(corpus, all);
const flagged = harnessWords(corpus, all);
const flaggedIds = words.map((_, id) => id).filter((id) => flagged[id] === 1);
console.log(
  `\nharness words (all runs): ${flaggedIds.length} of ${dict.size} over ${shares.size} sources with ≥ 20 runs; by kind: ${Object.entries(
    flaggedIds.reduce<Record<string, number>>((a, id) => ({ ...a, [words[id]!.split(':')[0]!]: (a[words[id]!.split(':')[0]!] ?? 0) + 1 }), {}),
  )
    .map(([kk, n]) => `${kk} ${n}`)
    .join(', ')}`,
);
console.log(
  `e.g. ${flaggedIds
    .slice(0, 25)
    .map((id) => `${words[id]} (${[...shares].map(([s, x]) => `${s.split(' + ')[0]} ${Math.round(100 * x[id]!)} %`).join(' / ')})`)
    .join('; ')}`,
);

// 4. Offsets for the text + pPass model: each training run's pPass logit from a model that never saw the scored runs.
const configFor = (s: string) => sel.candidates[sel.chosenApart[s] ?? sel.candidates.indexOf(sel.chosen)]!.config;
const fold = taskFolds(
  runs.map((r) => r.task),
  k,
  seed,
);
const foldOf = (i: number) => fold.get(runs[i]!.task)!;
/** Leave one source out within the runs `idx` (none of them is scored by a model that saw its own source). */
const losoOffsets = (idx: readonly number[], cfgSource: string): Map<number, number> => {
  const sub = idx.map((i) => runs[i]!);
  const z = endScores(leaveSourceOut(sub, () => configFor(cfgSource)));
  return new Map(idx.flatMap((i, j) => (z[j] === null ? [] : [[i, z[j]!]])));
};

type Scores = Map<number, number>;
const texts: Record<'text' | 'text + pPass', { loso: Scores; folds: Scores; chosen: string[] }> = {
  text: { loso: new Map(), folds: new Map(), chosen: [] },
  'text + pPass': { loso: new Map(), folds: new Map(), chosen: [] },
};
const name = (c: TextConfig) => `${c.buckets} buckets, λ ${c.lambda}, ${c.normalise}, ≥ ${c.minRuns} runs`;
for (const variant of ['text', 'text + pPass'] as const) {
  const withOffset = variant === 'text + pPass';
  // Leave one source and task out, for the counted sources: the configuration chosen on the runs without the source.
  for (const s of counted) {
    const without = all.filter((i) => src[i] !== s);
    const offsets = withOffset ? losoOffsets(without, s) : null;
    const inner = steering.filter((x) => x !== s);
    const choice = chooseBySource(
      corpus,
      without.filter((i) => !withOffset || offsets!.has(i)),
      inner.length > 0 ? inner : steering,
      offsets,
    );
    texts[variant].chosen.push(`${s}: ${name(choice.cfg)} (inner mean ${choice.mean.toFixed(3)})`);
    for (let f = 0; f < k; f++) {
      const test = all.filter((i) => src[i] === s && foldOf(i) === f && (!withOffset || apart[i] !== null));
      const train = without.filter((i) => foldOf(i) !== f && (!withOffset || offsets!.has(i)));
      if (test.length === 0) continue;
      const o = withOffset ? new Map([...offsets!, ...test.map((i): [number, number] => [i, apart[i]!])]) : null;
      for (const [i, z] of fitAndScore(corpus, train, test, choice.cfg, o)) texts[variant].loso.set(i, z);
    }
    console.log(`${variant}, leave ${s} out: ${name(choice.cfg)}; ${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()}`);
  }
  // Task-disjoint folds: fold f by a model of the other folds, chosen by inner task folds of those runs.
  for (let f = 0; f < k; f++) {
    const train = all.filter((i) => foldOf(i) !== f);
    const test = all.filter((i) => foldOf(i) === f);
    let offsets: Map<number, number> | null = null;
    if (withOffset) {
      const sub = train.map((i) => runs[i]!);
      const z = endScores(taskFoldsOut(sub, { ...sel.chosen.config, kappa: sel.kappa }, k - 1, seed));
      offsets = new Map(train.flatMap((i, j) => (z[j] === null ? [] : [[i, z[j]!]])));
      for (const i of test) if (foldZ[i] !== null) offsets.set(i, foldZ[i]!);
    }
    const innerFold = taskFolds(
      train.map((i) => runs[i]!.task),
      k - 1,
      seed,
    );
    const usable = (i: number) => offsets === null || offsets.has(i);
    const choice = chooseByFolds(corpus, train.filter(usable), (i) => innerFold.get(runs[i]!.task)!, k - 1, counted, offsets);
    texts[variant].chosen.push(`task fold ${f}: ${name(choice.cfg)} (inner mean ${choice.mean.toFixed(3)})`);
    for (const [i, z] of fitAndScore(corpus, train.filter(usable), test.filter(usable), choice.cfg, offsets)) texts[variant].folds.set(i, z);
  }
  console.log(`${variant}: task folds done; ${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()}`);
}

// 5. The tables: per counted source, pPass and each text variant on the same runs, paired differences.
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const iv = (i: Interval | null | undefined) => (i === null || i === undefined ? '[-]' : `[${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`);
const dv = (d: Difference) => `${d.estimate === null ? '-' : (d.estimate >= 0 ? '+' : '') + d.estimate.toFixed(3)} ${iv(d.interval)}`;
const figures: Record<string, number | string> = {};
const boot = { seed, reps: 1000 };
for (const view of ['loso', 'folds'] as const) {
  const base = view === 'loso' ? apart : foldZ;
  const title = view === 'loso' ? 'leave one source and task out' : `${k} task-disjoint folds`;
  // The runs every score has a value for (so all rows are on the same runs).
  const same = all.filter((i) => counted.includes(src[i]!) && base[i] !== null && texts.text[view].has(i) && texts['text + pPass'][view].has(i));
  const sepOf = (score: (i: number) => number): Separation =>
    separation(
      same.map((i) => ({ source: src[i]!, task: runs[i]!.task, pass: runs[i]!.passed, score: score(i) })),
      { ...boot, unit: 'task' },
    );
  const rows: Array<[string, (i: number) => number]> = [
    ["today's pPass (train's held-out score)", (i) => base[i]!],
    ['text alone', (i) => texts.text[view].get(i)!],
    ['text + pPass logit', (i) => texts['text + pPass'][view].get(i)!],
    ['run length alone (shorter wins)', (i) => -runs[i]!.length],
  ];
  console.log(`\n### ${title} (${same.length} runs)\n`);
  const head = sepOf(() => 0);
  console.log(
    `| score | ${head.withinSource.sources.map((s) => `${s.source} (${s.nPass} / ${s.nFail})`).join(' | ')} | mean within source | within task (${head.withinTask.pairs} pairs, ${head.withinTask.tasks} tasks) |`,
  );
  console.log(`| --- | ${head.withinSource.sources.map(() => '---').join(' | ')} | --- | --- |`);
  for (const [label, score] of rows) {
    const sep = sepOf(score);
    console.log(
      `| ${label} | ${sep.withinSource.sources.map((s) => `${f3(s.auroc)} ${iv(s.interval)}`).join(' | ')} | ${f3(sep.withinSource.mean)} ${iv(sep.withinSource.interval)} | ${f3(sep.withinTask.auroc)} ${iv(sep.withinTask.interval)} |`,
    );
    for (const s of sep.withinSource.sources) figures[`${view}.${label}.${s.source}`] = s.auroc ?? Number.NaN;
    figures[`${view}.${label}.mean`] = sep.withinSource.mean ?? Number.NaN;
  }
  for (const [label, score] of rows.slice(1, 3)) {
    const paired: Paired[] = same.map((i) => ({ source: src[i]!, task: runs[i]!.task, pass: runs[i]!.passed, a: score(i), b: base[i]! }));
    const wt = withinTaskDifference(paired, boot);
    console.log(
      `| ${label} − pPass, paired | ${head.withinSource.sources
        .map((s) =>
          dv(
            sourceDifference(
              paired.filter((p) => p.source === s.source),
              boot,
            ),
          ),
        )
        .join(' | ')} | ${dv(meanDifference(paired, counted, boot))} | ${dv(wt)} |`,
    );
  }
  // Best-of-N within each source with several runs of a task.
  for (const s of counted) {
    const rs = same.filter((i) => src[i] === s);
    const groups = new Set(rs.map((i) => runs[i]!.task)).size;
    if (groups === rs.length) continue;
    const bon = (score: (i: number) => number) =>
      bestOfN(
        rs.map((i) => ({ source: s, task: runs[i]!.task, pass: runs[i]!.passed, score: score(i) })),
        boot,
      );
    const line = rows.slice(0, 3).map(([label, score]) => {
      const b = bon(score);
      return `${label}: top ${b.top.resolved?.toFixed(1) ?? '-'} vs random ${b.random.resolved.toFixed(1)}, oracle ${b.oracle.resolved}, gap closed ${f3(b.gapClosed)} ${iv(b.gapInterval)}`;
    });
    console.log(`\nbest-of-N within ${s} (${title}): ${line.join('; ')}`);
  }
}
for (const variant of ['text', 'text + pPass'] as const) console.log(`\nchosen (${variant}):\n- ${texts[variant].chosen.join('\n- ')}`);
console.log(`\n${TEXT_CONFIGS.length} configurations tried per choice; ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load()}`);
writeResult(jsonFile, { bench: 'forecast-text', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

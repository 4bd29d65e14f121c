/**
 * Micro-benchmark: CPU µs per labelled step (labeler + state builder, tree-sitter
 * parsing included) over every trajectory of the corpus, parsed with the real
 * format parsers. Compares passes with a cold parse cache (fresh analyzers per
 * pass) and passes with a warm one (analyzers reused). The very first pass of
 * a process (cold JIT too) is shown apart. The target is about tree-sitter's
 * incremental reparsing, so its pairs send every scope lookup to the tree
 * (`plainFromIndentation: false`; by default a plain text's scopes come from
 * indentation, scope17, and most lookups parse nothing): every Python text
 * parsed afresh (`incremental: false`) against a file's new text reparsed from
 * its previous tree, the order within a pair alternating: target, cold passes
 * with incremental reparsing <= 0.9 of the afresh ones (issue 24). The pairs
 * run in `--sub-runs` child processes one after another (bench/label-pairs.ts,
 * RUNS pairs each; fcast29): each gives the ratio of its medians, and the row
 * is their geometric mean with a t interval over the sub-runs
 * (bench/sub-runs.ts), so the interval counts the spread between processes,
 * not only between the pairs of one. The default's cold passes run after each
 * pair, shown beside them. Passes are timed by CPU time (label-pairs.ts).
 *
 *   npm run build && node dist/bench/label-per-step.js [CORPUS_DIR] [RUNS=4] [--sub-runs 4] [--json FILE]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argsError, benchArgs, numberArg, numberFlag } from './args.js';
import { findCorpus } from './corpus.js';
import { pairedRatioInterval } from './intervals.js';
import type { LabelSubRun } from './label-pairs.js';
import { machine, takeJsonFlag, target, writeResult } from './report.js';
import { runSubRuns, subRunRatio } from './sub-runs.js';
import { commandLine, fmt, median, printTable, ratio, summarize } from './timing.js';

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const { positionals, values } = benchArgs({ options: { 'sub-runs': { type: 'string' } }, allowPositionals: true });
if (positionals.length > 2) argsError(`a corpus folder and a number of runs at most, not ${positionals.length} arguments`);
const runs = numberArg(positionals[1], 'RUNS', 'positive integer', 4);
const subRunCount = numberFlag(values, 'sub-runs', 'positive integer', 4);
const corpus = findCorpus(positionals[0]);

console.log(`command: ${command}`);
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'label-pairs.js');
const started = process.hrtime.bigint();
const subs = runSubRuns<LabelSubRun>(script, [corpus, String(runs)], subRunCount);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(
  `corpus: ${subs[0]!.trajectories} trajectories, ${subs[0]!.steps} steps; ${subRunCount} sub-runs (child processes, one after another; ${fmt(seconds, 1)} s), each ${runs} pairs after 3 warm-up passes`,
);
const cpu = (xs: LabelSubRun['inc']) => xs.map((p) => p.cpu);
const all = (pick: (s: LabelSubRun) => LabelSubRun['inc']) => subs.flatMap(pick);
const cold = summarize(cpu(all((s) => s.inc)));
const afresh = summarize(cpu(all((s) => s.afr)));
const coldDefault = summarize(cpu(all((s) => s.def)));
const warm = summarize(subs.flatMap((s) => s.warm));
const first = median(subs.map((s) => s.first.cpu));
const wallCold = median(all((s) => s.inc).map((p) => p.wall));
const wallAfresh = median(all((s) => s.afr).map((p) => p.wall));
console.log('CPU µs per step (user + system of the sub-run; wall-clock medians in the last column), every sub-run pooled');
printTable(
  ['µs per step', 'median', 'min', 'max', 'vs cold', 'wall median'],
  [
    ['first pass of a process (cold JIT + cache; the default)', fmt(first, 2), '', '', ratio(first, cold.median), fmt(median(subs.map((s) => s.first.wall)), 2)],
    ['cold, every lookup parsed, incremental', fmt(cold.median, 2), fmt(cold.min, 2), fmt(cold.max, 2), '×1.00', fmt(wallCold, 2)],
    ['cold, every lookup parsed afresh', fmt(afresh.median, 2), fmt(afresh.min, 2), fmt(afresh.max, 2), ratio(afresh.median, cold.median), fmt(wallAfresh, 2)],
    [
      'cold, the default (plain texts: indentation)',
      fmt(coldDefault.median, 2),
      fmt(coldDefault.min, 2),
      fmt(coldDefault.max, 2),
      ratio(coldDefault.median, cold.median),
      fmt(median(all((s) => s.def).map((p) => p.wall)), 2),
    ],
    ['warm parse cache (the default)', fmt(warm.median, 2), fmt(warm.min, 2), fmt(warm.max, 2), ratio(warm.median, cold.median), ''],
  ],
);
// Each sub-run's ratio of medians; the row is their geometric mean, the interval over the sub-runs.
const subRatios = subs.map((s) => median(cpu(s.inc)) / median(cpu(s.afr)));
const { value, interval } = subRunRatio(subRatios);
// Beside it, the interval the row had before fcast29: the pairs of every sub-run pooled, resampled in pairs.
const within = pairedRatioInterval(cpu(all((s) => s.inc)), cpu(all((s) => s.afr)), 'median');
const shownIv = (iv: [number, number] | undefined): string => (iv === undefined ? '' : ` [${fmt(iv[0], 3)}, ${fmt(iv[1], 3)}]`);
console.log(`incremental / afresh, CPU, by sub-run: ${subRatios.map((r) => fmt(r, 3)).join(' ')}`);
console.log(
  `their geometric mean ${fmt(value, 3)}${shownIv(interval)} (95 %, t over the ${subRunCount} sub-runs); the pairs pooled ${fmt(cold.median / afresh.median, 3)}${shownIv(within)} (paired bootstrap over the ${subRunCount * runs} pairs); wall clock, pooled ${fmt(wallCold / wallAfresh, 3)} (other processes' time on the cores counts there)`,
);
const targets = [target('label-per-step cold pass, incremental reparsing / every text parsed afresh (median)', value, '<=', 0.9, '', interval)];
writeResult(jsonFile, {
  bench: 'label-per-step',
  command,
  machine: machine(),
  targets,
  figures: {
    first_us: first,
    cold_us: cold.median,
    afresh_us: afresh.median,
    cold_default_us: coldDefault.median,
    warm_us: warm.median,
    ratio_lo: interval?.[0] ?? Number.NaN,
    ratio_hi: interval?.[1] ?? Number.NaN,
    ratio_pooled: cold.median / afresh.median,
    ratio_within_lo: within?.[0] ?? Number.NaN,
    ratio_within_hi: within?.[1] ?? Number.NaN,
    ratio_sub_runs: subRatios.map((r) => r.toFixed(4)).join(' '),
    sub_runs: subRunCount,
    seconds,
    wall_cold_us: wallCold,
    wall_afresh_us: wallAfresh,
  },
});

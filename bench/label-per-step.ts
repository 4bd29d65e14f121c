/**
 * Micro-benchmark: µs per labelled step (labeler + state builder, tree-sitter
 * parsing included) over every trajectory of the corpus, parsed with the real
 * format parsers. Compares, in one run, passes with a cold parse cache (fresh
 * analyzers per pass) and passes with a warm one (analyzers reused). The very
 * first pass (cold JIT too) is shown apart. Cold passes also run with every
 * Python text parsed afresh (`incremental: false`), alternated with the default
 * (a file's new text reparsed from its previous tree): target, in the same run,
 * cold passes with incremental reparsing <= 0.9 of the afresh ones (issue 24), with a 95 % interval over the
 * alternated pairs of passes (bench/intervals.ts).
 *
 *   npm run build && node dist/bench/label-per-step.js [CORPUS_DIR] [RUNS=10] [--json FILE]
 */
import { labelSteps } from '../src/core/state-builder.js';
import type { Analyzers } from '../src/core/ports.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../src/syntax/index.js';
import { argsError, benchArgs, numberArg } from './args.js';
import { findCorpus, loadCorpus } from './corpus.js';
import { pairedRatioInterval } from './intervals.js';
import { machine, takeJsonFlag, target, writeResult } from './report.js';
import { commandLine, fmt, measure, printTable, ratio, summarize } from './timing.js';

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const { positionals } = benchArgs({ allowPositionals: true });
if (positionals.length > 2) argsError(`a corpus folder and a number of runs at most, not ${positionals.length} arguments`);
const runs = numberArg(positionals[1], 'RUNS', 'positive integer', 10);
const corpus = findCorpus(positionals[0]);
const { trajectories } = loadCorpus(corpus);
const total = trajectories.reduce((n, t) => n + t.steps.length, 0);
const fresh = (incremental = true): Analyzers => ({ shell: createShellAnalyzer(), scope: createPythonScopeResolver({ incremental }) });

function pass(analyzers: Analyzers): number {
  for (const t of trajectories) labelSteps(t.steps, analyzers);
  return total;
}

console.log(`command: ${command}`);
console.log(`corpus: ${trajectories.length} trajectories, ${total} steps; ${runs} measured passes each`);
const first = measure(() => pass(fresh()), { warmup: 0, runs: 1 });
// Alternated: cold passes with incremental reparsing (the default) and with every text parsed afresh.
const coldRuns: number[] = [];
const afreshRuns: number[] = [];
pass(fresh(false));
for (let i = 0; i < runs; i++) {
  coldRuns.push(...measure(() => pass(fresh()), { warmup: 0, runs: 1 }));
  afreshRuns.push(...measure(() => pass(fresh(false)), { warmup: 0, runs: 1 }));
}
const cold = summarize(coldRuns);
const afresh = summarize(afreshRuns);
const shared = fresh();
const warm = summarize(measure(() => pass(shared), { warmup: 1, runs }));
printTable(
  ['µs per step', 'median', 'min', 'max', 'vs cold'],
  [
    ['first pass (cold JIT + cache)', fmt(first[0] ?? Number.NaN, 2), '', '', ratio(first[0] ?? Number.NaN, cold.median)],
    ['cold parse cache', fmt(cold.median, 2), fmt(cold.min, 2), fmt(cold.max, 2), '×1.00'],
    ['cold, every text parsed afresh', fmt(afresh.median, 2), fmt(afresh.min, 2), fmt(afresh.max, 2), ratio(afresh.median, cold.median)],
    ['warm parse cache', fmt(warm.median, 2), fmt(warm.min, 2), fmt(warm.max, 2), ratio(warm.median, cold.median)],
  ],
);
// The passes alternate, so pass i of each saw the same moment of the machine: resampled in pairs.
const interval = pairedRatioInterval(coldRuns, afreshRuns, 'median');
const targets = [target('label-per-step cold pass, incremental reparsing / every text parsed afresh (median)', cold.median / afresh.median, '<=', 0.9, '', interval)];
writeResult(jsonFile, {
  bench: 'label-per-step',
  command,
  machine: machine(),
  targets,
  figures: { first_us: first[0] ?? Number.NaN, cold_us: cold.median, afresh_us: afresh.median, warm_us: warm.median, ratio_lo: interval?.[0] ?? Number.NaN, ratio_hi: interval?.[1] ?? Number.NaN },
});

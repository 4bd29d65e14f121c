/**
 * Micro-benchmark: µs per labelled step (labeler + state builder, tree-sitter
 * parsing included) over every trajectory of the corpus, parsed with the real
 * format parsers. Compares, in one run, passes with a cold parse cache (fresh
 * analyzers per pass) and passes with a warm one (analyzers reused). The very
 * first pass (cold JIT too) is shown apart. No assertions.
 *
 *   npm run build && node dist/bench/label-per-step.js [CORPUS_DIR] [RUNS=10] [--json FILE]
 */
import { labelSteps } from '../src/core/state-builder.js';
import type { Analyzers } from '../src/core/ports.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../src/syntax/index.js';
import { findCorpus, loadCorpus } from './corpus.js';
import { machine, takeJsonFlag, writeResult } from './report.js';
import { commandLine, fmt, measure, printTable, ratio, summarize } from './timing.js';

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const corpus = findCorpus(process.argv[2]);
const runs = Number(process.argv[3] ?? 10);
const { trajectories } = loadCorpus(corpus);
const total = trajectories.reduce((n, t) => n + t.steps.length, 0);
const fresh = (): Analyzers => ({ shell: createShellAnalyzer(), scope: createPythonScopeResolver() });

function pass(analyzers: Analyzers): number {
  for (const t of trajectories) labelSteps(t.steps, analyzers);
  return total;
}

console.log(`command: ${command}`);
console.log(`corpus: ${trajectories.length} trajectories, ${total} steps; ${runs} measured passes each`);
const first = measure(() => pass(fresh()), { warmup: 0, runs: 1 });
const cold = summarize(measure(() => pass(fresh()), { warmup: 1, runs }));
const shared = fresh();
const warm = summarize(measure(() => pass(shared), { warmup: 1, runs }));
printTable(
  ['µs per step', 'median', 'min', 'max', 'vs cold'],
  [
    ['first pass (cold JIT + cache)', fmt(first[0] ?? Number.NaN, 2), '', '', ratio(first[0] ?? Number.NaN, cold.median)],
    ['cold parse cache', fmt(cold.median, 2), fmt(cold.min, 2), fmt(cold.max, 2), '×1.00'],
    ['warm parse cache', fmt(warm.median, 2), fmt(warm.min, 2), fmt(warm.max, 2), ratio(warm.median, cold.median)],
  ],
);
writeResult(jsonFile, { bench: 'label-per-step', command, machine: machine(), targets: [], figures: { first_us: first[0] ?? Number.NaN, cold_us: cold.median, warm_us: warm.median } });

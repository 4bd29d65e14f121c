/**
 * Micro-benchmark: CPU µs per labelled step (labeler + state builder, tree-sitter
 * parsing included) over every trajectory of the corpus, parsed with the real
 * format parsers. Compares, in one run, passes with a cold parse cache (fresh
 * analyzers per pass) and passes with a warm one (analyzers reused). The very
 * first pass (cold JIT too) is shown apart. The target is about tree-sitter's
 * incremental reparsing, so its pairs send every scope lookup to the tree
 * (`plainFromIndentation: false`; by default a plain text's scopes come from
 * indentation, scope17, and most lookups parse nothing): every Python text
 * parsed afresh (`incremental: false`) against a file's new text reparsed from
 * its previous tree, the order within a pair alternating: target, in the same
 * run, cold passes with incremental reparsing <= 0.9 of the afresh ones (issue
 * 24), with a 95 % interval over the pairs; the default's cold passes run after
 * each pair, shown beside them
 * (bench/intervals.ts). Passes are timed by this process's CPU time (wall time
 * on a shared machine counts other processes' turns), each after two turns of
 * the event loop, in which the earlier passes' trees are freed.
 *
 *   npm run build && node dist/bench/label-per-step.js [CORPUS_DIR] [RUNS=10] [--json FILE]
 */
import { setImmediate } from 'node:timers/promises';
import { labelSteps } from '../src/core/state-builder.js';
import type { Analyzers } from '../src/core/ports.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../src/syntax/index.js';
import { argsError, benchArgs, numberArg } from './args.js';
import { findCorpus, loadCorpus } from './corpus.js';
import { pairedRatioInterval } from './intervals.js';
import { machine, takeJsonFlag, target, writeResult } from './report.js';
import { commandLine, fmt, median, printTable, ratio, summarize, usSince } from './timing.js';

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const { positionals } = benchArgs({ allowPositionals: true });
if (positionals.length > 2) argsError(`a corpus folder and a number of runs at most, not ${positionals.length} arguments`);
const runs = numberArg(positionals[1], 'RUNS', 'positive integer', 10);
const corpus = findCorpus(positionals[0]);
const { trajectories } = loadCorpus(corpus);
const total = trajectories.reduce((n, t) => n + t.steps.length, 0);
/** Analyzers of a pass; `tree`: every scope lookup parsed (the target's pairs), else the default resolver. */
const fresh = (incremental = true, tree = true): Analyzers => ({
  shell: createShellAnalyzer(),
  scope: createPythonScopeResolver({ incremental, plainFromIndentation: !tree }),
});
const defaults = (): Analyzers => fresh(true, false);

function pass(analyzers: Analyzers): number {
  for (const t of trajectories) labelSteps(t.steps, analyzers);
  return total;
}

/**
 * CPU µs (user + system, this process) and wall µs per step of one pass. Before it, outside the clock, two turns of
 * the event loop: node tree-sitter frees a tree's native memory in a finalizer that runs only when the loop turns
 * (as a server's does between messages), so passes run back to back kept every earlier pass's trees (RSS 640 MB
 * after 26 passes against 450 MB) and each pass ran on a bigger native heap than the one before it. No forced
 * collection: after one, a pass cost 1.3-1.6 times as much CPU (colder code and heap), the incremental one more.
 */
async function timedPass(analyzers: () => Analyzers): Promise<{ cpu: number; wall: number }> {
  await setImmediate();
  await setImmediate();
  const a = analyzers();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  pass(a);
  const wall = usSince(t0) / total;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / total, wall };
}

console.log(`command: ${command}`);
console.log(`corpus: ${trajectories.length} trajectories, ${total} steps; ${runs} measured passes each`);
const first = await timedPass(defaults);
await timedPass(() => fresh(false)); // every variant's code warmed before any pass is kept
await timedPass(() => fresh());
// Pairs of cold passes, incremental reparsing (the default) and every text parsed afresh, in alternating order
// (AB BA AB ...): the pass that runs second inherits the first one's garbage and cache state, not always the same one.
const inc: Array<{ cpu: number; wall: number }> = [];
const afr: Array<{ cpu: number; wall: number }> = [];
const def: Array<{ cpu: number; wall: number }> = [];
for (let i = 0; i < runs; i++) {
  if (i % 2 === 0) {
    inc.push(await timedPass(() => fresh()));
    afr.push(await timedPass(() => fresh(false)));
  } else {
    afr.push(await timedPass(() => fresh(false)));
    inc.push(await timedPass(() => fresh()));
  }
  def.push(await timedPass(defaults));
}
const cold = summarize(inc.map((p) => p.cpu));
const afresh = summarize(afr.map((p) => p.cpu));
const coldDefault = summarize(def.map((p) => p.cpu));
const shared = defaults();
pass(shared);
const warmRuns: number[] = [];
for (let i = 0; i < runs; i++) warmRuns.push((await timedPass(() => shared)).cpu);
const warm = summarize(warmRuns);
const wallCold = median(inc.map((p) => p.wall));
const wallAfresh = median(afr.map((p) => p.wall));
console.log('CPU µs per step (user + system of this process; wall-clock medians in the last column)');
printTable(
  ['µs per step', 'median', 'min', 'max', 'vs cold', 'wall median'],
  [
    ['first pass (cold JIT + cache; the default)', fmt(first.cpu, 2), '', '', ratio(first.cpu, cold.median), fmt(first.wall, 2)],
    ['cold, every lookup parsed, incremental', fmt(cold.median, 2), fmt(cold.min, 2), fmt(cold.max, 2), '×1.00', fmt(wallCold, 2)],
    ['cold, every lookup parsed afresh', fmt(afresh.median, 2), fmt(afresh.min, 2), fmt(afresh.max, 2), ratio(afresh.median, cold.median), fmt(wallAfresh, 2)],
    [
      'cold, the default (plain texts: indentation)',
      fmt(coldDefault.median, 2),
      fmt(coldDefault.min, 2),
      fmt(coldDefault.max, 2),
      ratio(coldDefault.median, cold.median),
      fmt(median(def.map((p) => p.wall)), 2),
    ],
    ['warm parse cache (the default)', fmt(warm.median, 2), fmt(warm.min, 2), fmt(warm.max, 2), ratio(warm.median, cold.median), ''],
  ],
);
// Pass i of each variant ran back to back, at the same moment of the machine: resampled in pairs.
const interval = pairedRatioInterval(
  inc.map((p) => p.cpu),
  afr.map((p) => p.cpu),
  'median',
);
const wallInterval = pairedRatioInterval(
  inc.map((p) => p.wall),
  afr.map((p) => p.wall),
  'median',
);
const shownIv = (iv: [number, number] | undefined): string => (iv === undefined ? '' : ` [${fmt(iv[0], 3)}, ${fmt(iv[1], 3)}]`);
console.log(`wall clock, for comparison: ${fmt(wallCold / wallAfresh, 3)}${shownIv(wallInterval)} (other processes' time on the cores counts there)`);
const targets = [target('label-per-step cold pass, incremental reparsing / every text parsed afresh (median)', cold.median / afresh.median, '<=', 0.9, '', interval)];
writeResult(jsonFile, {
  bench: 'label-per-step',
  command,
  machine: machine(),
  targets,
  figures: {
    first_us: first.cpu,
    cold_us: cold.median,
    afresh_us: afresh.median,
    cold_default_us: coldDefault.median,
    warm_us: warm.median,
    ratio_lo: interval?.[0] ?? Number.NaN,
    ratio_hi: interval?.[1] ?? Number.NaN,
    wall_cold_us: wallCold,
    wall_afresh_us: wallAfresh,
  },
});

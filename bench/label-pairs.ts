/**
 * One sub-run of label-per-step.ts (bench/sub-runs.ts): over every corpus trajectory, pairs of cold passes (fresh
 * analyzers a pass) with every scope lookup parsed, incremental reparsing against every text parsed afresh, the order
 * within a pair alternating, the default's cold pass after each pair, then passes with a warm parse cache; prints
 * them as one JSON line. Passes are timed by this process's CPU time (wall time on a shared machine counts other
 * processes' turns), each after two turns of the event loop, in which the earlier passes' trees are freed.
 *
 *   node dist/bench/label-pairs.js [CORPUS_DIR] [PAIRS=3]
 */
import { setImmediate } from 'node:timers/promises';
import type { Analyzers } from '../src/core/ports.js';
import { labelSteps } from '../src/core/state-builder.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../src/syntax/index.js';
import { argsError, benchArgs, numberArg } from './args.js';
import { findCorpus, loadCorpus } from './corpus.js';

/** CPU and wall µs per step of one pass. */
export interface PassTime {
  cpu: number;
  wall: number;
}

/** What a sub-run prints. */
export interface LabelSubRun {
  steps: number;
  trajectories: number;
  /** The first pass of the process (cold JIT too; the default analyzers). */
  first: PassTime;
  /** Pair i: incremental reparsing, every text afresh, the default after them. */
  inc: PassTime[];
  afr: PassTime[];
  def: PassTime[];
  /** CPU µs per step of passes with one warm parse cache (the default). */
  warm: number[];
}

const { positionals } = benchArgs({ allowPositionals: true });
if (positionals.length > 2) argsError(`a corpus folder and a number of pairs at most, not ${positionals.length} arguments`);
const pairs = numberArg(positionals[1], 'PAIRS', 'positive integer', 3);
const { trajectories } = loadCorpus(findCorpus(positionals[0]));
const total = trajectories.reduce((n, t) => n + t.steps.length, 0);
/** Analyzers of a pass; `tree`: every scope lookup parsed (the target's pairs), else the default resolver. */
const fresh = (incremental = true, tree = true): Analyzers => ({
  shell: createShellAnalyzer(),
  scope: createPythonScopeResolver({ incremental, plainFromIndentation: !tree }),
});
const defaults = (): Analyzers => fresh(true, false);

/**
 * CPU µs (user + system, this process) and wall µs per step of one pass. Before it, outside the clock, two turns of
 * the event loop: node tree-sitter frees a tree's native memory in a finalizer that runs only when the loop turns
 * (as a server's does between messages), so passes run back to back kept every earlier pass's trees (RSS 640 MB
 * after 26 passes against 450 MB) and each pass ran on a bigger native heap than the one before it. No forced
 * collection: after one, a pass cost 1.3-1.6 times as much CPU (colder code and heap), the incremental one more.
 */
async function timedPass(analyzers: () => Analyzers): Promise<PassTime> {
  await setImmediate();
  await setImmediate();
  const a = analyzers();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (const t of trajectories) labelSteps(t.steps, a);
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / total;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / total, wall };
}

const first = await timedPass(defaults);
await timedPass(() => fresh(false)); // every variant's code warmed before any pass is kept
await timedPass(() => fresh());
// Pairs in alternating order (AB BA AB ...): the pass that runs second inherits the first one's garbage and cache
// state, not always the same one.
const out: LabelSubRun = { steps: total, trajectories: trajectories.length, first, inc: [], afr: [], def: [], warm: [] };
for (let i = 0; i < pairs; i++) {
  if (i % 2 === 0) {
    out.inc.push(await timedPass(() => fresh()));
    out.afr.push(await timedPass(() => fresh(false)));
  } else {
    out.afr.push(await timedPass(() => fresh(false)));
    out.inc.push(await timedPass(() => fresh()));
  }
  out.def.push(await timedPass(defaults));
}
const shared = defaults();
await timedPass(() => shared);
for (let i = 0; i < pairs; i++) out.warm.push((await timedPass(() => shared)).cpu);
console.log(JSON.stringify(out));

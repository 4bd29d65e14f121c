/**
 * Micro-benchmark: cost of one StructuralTracker.add (equivalence checks +
 * path pointers + one augmenting-path search) and one TemporalTracker step
 * against a PTA of about 100 nodes, with, as baseline in the same run, the
 * maximum matching recomputed from scratch (Kuhn over all candidates so far)
 * after every add: what the incremental search saves. Prints numbers and
 * ratios; asserts nothing.
 *
 *   npm run build && node dist/bench/structural-add.js [CANDIDATE_STEPS=200] [ROUNDS=200] [--json FILE]
 *
 * States are generated from a seeded PRNG with the shape of real trajectories
 * (a pool of files, line ranges, scopes, command tokens, E/I/V/O mix).
 */
import { DEFAULT_TAU, equivalent } from '../src/core/equivalence.js';
import { buildPta } from '../src/core/pta/index.js';
import { createIncrementalMatching } from '../src/core/signals/matching.js';
import { createStructuralTracker } from '../src/core/signals/structural.js';
import { createTemporalTracker, referenceWindows } from '../src/core/signals/temporal.js';
import type { Stage, State } from '../src/core/types.js';
import { argsError, benchArgs, numberArg } from './args.js';
import { machine, takeJsonFlag, writeResult } from './report.js';
import { commandLine, fmt, measure, printTable, ratio, summarize } from './timing.js';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['grep', '-rn', 'python', '-m', 'pytest', 'sed', '-n', 'cat', 'ls', 'find', '.', '-name', 'src', 'tests', 'def', 'class'];

function trajectory(rand: () => number, length: number): State[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const stages: Stage[] = ['E', 'E', 'E', 'I', 'V', 'V', 'O'];
  return Array.from({ length }, (_, t) => {
    const file = `pkg/mod${Math.floor(rand() * 15)}.py`;
    const start = 1 + Math.floor(rand() * 400);
    const command = rand() < 0.5;
    const s: State = {
      t,
      stage: pick(stages),
      kind: command ? 'run_other' : 'read',
      tool: 'bash',
      hash: `h${Math.floor(rand() * 1e6)}`,
      tokens: command ? [...new Set(Array.from({ length: 4 }, () => pick(WORDS)))].sort() : [],
      command,
      changesFile: false,
      failed: false,
      cost: 100,
      unknown: false,
    };
    if (rand() < 0.7) s.file = file;
    if (s.file !== undefined && rand() < 0.6) s.range = [start, start + Math.floor(rand() * 60)];
    if (s.file !== undefined && rand() < 0.3) s.scope = `${file}::f${Math.floor(rand() * 5)}`;
    return s;
  });
}

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const { positionals } = benchArgs({ allowPositionals: true });
if (positionals.length > 2) argsError(`candidate steps and rounds at most, not ${positionals.length} arguments`);
const rand = prng(42);
const pta = buildPta('bench', [trajectory(rand, 40), trajectory(rand, 40), trajectory(rand, 40)]);
const candidateSteps = numberArg(positionals[0], 'CANDIDATE_STEPS', 'positive integer', 200);
const rounds = numberArg(positionals[1], 'ROUNDS', 'positive integer', 200);
const candidate = trajectory(rand, candidateSteps);
const nodeStates = pta.nodes.flatMap((n) => (n.state !== null && n.state.stage !== 'O' ? [n.state] : []));
/** Edges of each non-O candidate state to the non-O PTA nodes, as the tracker computes them. */
const adjacency = candidate.filter((s) => s.stage !== 'O').map((s) => nodeStates.flatMap((n, j) => (equivalent(n, s, DEFAULT_TAU) ? [j] : [])));

let sink = 0;
const opts = { warmup: 20, runs: rounds };
const tracker = summarize(
  measure(() => {
    const t = createStructuralTracker(pta, DEFAULT_TAU);
    for (const s of candidate) {
      t.add(s);
      sink += t.struct() + t.cov();
    }
    return candidate.length;
  }, opts),
);
const incremental = summarize(
  measure(() => {
    const m = createIncrementalMatching(nodeStates.length);
    for (const a of adjacency) sink += m.addLeft(a) ? 1 : 0;
    return adjacency.length;
  }, opts),
);
const scratch = summarize(
  measure(() => {
    for (let i = 1; i <= adjacency.length; i++) {
      const m = createIncrementalMatching(nodeStates.length);
      for (let k = 0; k < i; k++) m.addLeft(adjacency[k]!);
      sink += m.size;
    }
    return adjacency.length;
  }, opts),
);
const windows = referenceWindows(pta);
const temporal = summarize(
  measure(() => {
    const t = createTemporalTracker(windows, 0.01);
    for (const s of candidate) {
      t.add(s);
      sink += t.value();
    }
    return candidate.length;
  }, opts),
);

const edges = adjacency.reduce((n, a) => n + a.length, 0);
console.log(`command: ${command}`);
console.log(
  `PTA: ${pta.nodes.length - 1} nodes (${nodeStates.length} non-O), ${pta.references.length} references; candidate: ${candidate.length} states (${adjacency.length} non-O, ${edges} equivalence edges); ${rounds} rounds`,
);
const recompute = tracker.median - incremental.median + scratch.median;
printTable(
  ['µs per candidate step (median over rounds)', 'median', 'min', 'ratio'],
  [
    ['structural add + struct() + cov() (incremental Kuhn)', fmt(tracker.median, 2), fmt(tracker.min, 2), '×1.00'],
    ['  of which: matching, one augmenting search', fmt(incremental.median, 3), fmt(incremental.min, 3), ratio(incremental.median, tracker.median)],
    ['matching recomputed from scratch after each add', fmt(scratch.median, 2), fmt(scratch.min, 2), ratio(scratch.median, incremental.median) + ' vs incremental matching'],
    ['structural add with from-scratch matching (estimated)', fmt(recompute, 2), '', ratio(recompute, tracker.median) + ' vs incremental add'],
    ['temporal add + value()', fmt(temporal.median, 3), fmt(temporal.min, 3), ratio(temporal.median, tracker.median)],
  ],
);
if (Number.isNaN(sink)) console.log('unreachable');
writeResult(jsonFile, {
  bench: 'structural-add',
  command,
  machine: machine(),
  targets: [],
  figures: { add_us: tracker.median, matching_us: incremental.median, scratch_matching_us: scratch.median, temporal_us: temporal.median },
});

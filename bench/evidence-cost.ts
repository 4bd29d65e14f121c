/**
 * The evidence trackers' per-step cost (issue 26): `createEvidenceTracker().add` on real
 * steps whose labels and states were built beforehand (the labeler is the scorer's cost,
 * not the evidence's). (1) Flatness: the same 16 real steps (steps 8-23 of the server
 * bench's run) placed at steps 10, 100, 500 and 2,000 of a 2,008-step trajectory of real
 * corpus steps; median µs of an `add` in each window over `--runs` runs. (2) Absolute:
 * mean CPU µs per `add` over every step of every corpus run (each run fed to a fresh tracker,
 * whole passes timed by the process's CPU time, which a wait for a core does not inflate), beside `Scorer.push` (reference-free) on the same steps, passes
 * alternating; medians of `--passes`. Targets: step 2,000 ≤ 1.5 × step 10; mean ≤ 5 µs.
 *
 *   npm run build && node dist/bench/evidence-cost.js [--runs 31] [--passes 9] [--corpus DIR] [--json FILE]
 */
import os from 'node:os';
import { createEvidenceTracker } from '../src/core/evidence/evidence.js';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { createScorer } from '../src/core/scorer.js';
import { createStateBuilder } from '../src/core/state-builder.js';
import type { Label, State, Step } from '../src/core/types.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, findCorpus, loadCorpus } from './corpus.js';
import { longTrajectory } from './long-trajectory.js';
import { machine, machineLine, target, writeResult } from './report.js';
import { commandLine, fmt, printTable, usSince } from './timing.js';

const { values: args } = benchArgs({ options: { runs: { type: 'string', default: '31' }, passes: { type: 'string', default: '9' }, corpus: { type: 'string' }, json: { type: 'string' } } });
const runs = numberFlag(args, 'runs', 'positive integer');
const passes = numberFlag(args, 'passes', 'positive integer');
const CHECKPOINTS = [10, 100, 500, 2000];
const WINDOW = 16;
const PROBE_FROM = 8;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

interface Fed {
  steps: Step[];
  states: State[];
  labels: Label[];
}
const analyzers = defaultAnalyzers();
function label(steps: Step[]): Fed {
  const b = createStateBuilder(analyzers);
  const out: Fed = { steps, states: [], labels: [] };
  for (const s of steps) {
    const { label, state } = b.next(s);
    out.states.push(state);
    out.labels.push(label);
  }
  return out;
}

const { trajectories } = loadCorpus(findCorpus(args.corpus));
const source = trajectories.find((t) => t.file === SERVER_BENCH_FILE);
if (source === undefined) throw new Error(`${SERVER_BENCH_FILE} is not in the corpus`);
const starts = CHECKPOINTS.map((c) => Math.max(0, c - WINDOW / 2));
const length = Math.max(...starts) + WINDOW;
const long = label(longTrajectory(trajectories, length, source.steps.slice(PROBE_FROM, PROBE_FROM + WINDOW), starts));
const corpus = trajectories.filter((t) => t.steps.length > 0).map((t) => label(t.steps));
const corpusSteps = corpus.reduce((n, r) => n + r.steps.length, 0);
const m = machine();
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine(m));
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} (2 cores shared: absolute µs are noisy, the ratio is measured within one run)`,
);

// (1) flatness
const windows = CHECKPOINTS.map(() => [] as number[]);
const times = new Float64Array(length);
for (let r = 0; r <= runs; r++) {
  const ev = createEvidenceTracker();
  for (let i = 0; i < length; i++) {
    const t0 = process.hrtime.bigint();
    ev.add(long.steps[i]!, long.states[i]!, long.labels[i]!);
    times[i] = usSince(t0);
  }
  if (r > 0) starts.forEach((s, k) => windows[k]!.push(...times.subarray(s, s + WINDOW)));
}
const at = windows.map(median);
console.log(`\nflatness: the same ${WINDOW} real steps at each checkpoint of a ${length}-step trajectory, ${runs} runs after a warm-up`);
printTable(
  ['checkpoint', 'median µs per add', 'vs step 10'],
  CHECKPOINTS.map((c, k) => [String(c), fmt(at[k]!, 2), `×${(at[k]! / at[0]!).toFixed(2)}`]),
);

// (2) absolute, alternating with the scorer
// CPU time of this process (user + system), not wall time: on a shared machine the process waits for a core, and a wall
// clock counts the wait. It includes the garbage collector's threads.
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const evidencePass: number[] = [];
const pushPass: number[] = [];
for (let p = 0; p <= passes; p++) {
  let t0 = cpuUs();
  for (const r of corpus) {
    const ev = createEvidenceTracker();
    for (let i = 0; i < r.steps.length; i++) ev.add(r.steps[i]!, r.states[i]!, r.labels[i]!);
  }
  const e = (cpuUs() - t0) / corpusSteps;
  t0 = cpuUs();
  for (const r of corpus) {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    for (const s of r.steps) scorer.push(s);
  }
  const s = (cpuUs() - t0) / corpusSteps;
  if (p > 0) {
    evidencePass.push(e);
    pushPass.push(s);
  }
}
const evidenceUs = median(evidencePass);
const pushUs = median(pushPass);
console.log(`\nabsolute: ${corpus.length} corpus runs, ${corpusSteps} steps, ${passes} passes after a warm-up, alternating`);
printTable(
  ['per step', 'median CPU µs (mean of a pass)', 'each pass'],
  [
    ['evidence add (all values)', fmt(evidenceUs, 2), evidencePass.map((x) => x.toFixed(2)).join(' ')],
    ['Scorer.push, reference-free (for scale)', fmt(pushUs, 1), pushPass.map((x) => x.toFixed(1)).join(' ')],
  ],
);
console.log(`evidence add / Scorer.push, same run: ${(evidenceUs / pushUs).toFixed(3)}`);
const targets = [target('evidence add: step 2,000 / step 10', at[at.length - 1]! / at[0]!, '<=', 1.5), target('evidence add: mean µs per step', evidenceUs, '<=', 5, 'µs')];
writeResult(args.json, {
  bench: 'evidence-cost',
  command: commandLine(import.meta.url),
  machine: m,
  targets,
  figures: { ...Object.fromEntries(CHECKPOINTS.map((c, k) => [`add_us_at_${c}`, at[k]!])), evidence_us_per_step: evidenceUs, push_us_per_step: pushUs, evidence_over_push: evidenceUs / pushUs },
});

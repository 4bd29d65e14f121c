/**
 * What each stage of a step costs: the server's step path taken apart (frame parse, the state builder's parts,
 * the signal trackers, the early-stop counters, the step line, the score frame), each timed per step with
 * the clock read around it (`--clock`), in the order `Session.step` and `Scorer.push` run them. The stages are the
 * scorer's own modules called as `state-builder.ts` and `scorer.ts` call them; before timing, every session's
 * totals are checked equal to `createScorer`'s (the copy of the order must not drift from the scorer).
 *
 * Two sets of sessions:
 * - `replay`: the held-out 79-step run of the server benches, `--sessions` times (what `session-cost` and
 *   `ws-load`'s lifecycle shape send: every session after the first repeats its commands, texts and files);
 * - `corpus`: every corpus run once a pass (distinct sessions: parse caches, pools and scope trees miss as they
 *   would for unrelated agents), scored against the prior (the corpus's tasks have no PTA in the store);
 * - `depth` (not by default): online-vs-batch's 2,008-step trajectory, one session a pass, each stage at the 16 probe
 *   steps placed at steps 10, 100, 500 and 2,000 (the same steps after more and more of other runs).
 * Figures are µs a step; the first pass of each set is warm-up. `--clock cpu` (default): the mean of each stage's
 * CPU time (process CPU read around every stage, less what an empty stage among them reads); a stage's
 * share is exact over many steps, one step's reading is not (µs steps). `--clock wall`: means and medians of
 * `performance.now()`; on a loaded machine a preempted step inflates the mean, not the median.
 *
 *   node dist/bench/stage-cost.js [--sessions 100] [--passes 5] [--set replay,corpus] [--clock cpu|wall] [--json FILE]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { composite, tierFor } from '../src/core/composite.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { createEarlyStop } from '../src/core/early-stop/index.js';
import { Labeler } from '../src/core/labeler/labeler.js';
import { sameText } from '../src/core/memory/same-text.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { ptaFromJson } from '../src/core/pta/index.js';
import type { Reference } from '../src/core/scorer-api.js';
import { createScorer } from '../src/core/scorer.js';
import { createCoherenceTracker } from '../src/core/signals/coherence.js';
import { createPriorSignalTracker } from '../src/core/signals/prior-signals.js';
import { sharedRetryDetector } from '../src/core/signals/repeats.js';
import { createStructuralTracker } from '../src/core/signals/structural.js';
import { createTemporalTracker, referenceWindows } from '../src/core/signals/temporal.js';
import { stepCost } from '../src/core/state/cost.js';
import { stepFailed } from '../src/core/state/failure.js';
import { hashContent, md5 } from '../src/core/state/normalize.js';
import { ShadowWorkspace } from '../src/core/state/shadow-workspace.js';
import { StateColumns } from '../src/core/state/state-columns.js';
import { stateRecord } from '../src/core/state/state-record.js';
import { NO_TOKENS, terminalFacts } from '../src/core/state/terminal-facts.js';
import { createVariantTracker, exactAction, exactKey, terminalExactKey } from '../src/core/state/variant.js';
import { updateWorkspace } from '../src/core/state/workspace-update.js';
import type { ScoreMessage } from '../src/protocol/server-messages.js';
import { parseClientMessage, parseStepPayload } from '../src/protocol/parse.js';
import { parseTrajectoryText } from '../src/formats/index.js';
import type { Step } from '../src/core/types.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { frameBytes } from '../src/server/frame-text.js';
import { stepText } from '../src/server/step-text.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus, loadCorpus, repoRoot } from './corpus.js';
import { longTrajectory } from './long-trajectory.js';
import { machine, machineLine, writeResult } from './report.js';
import { commandLine, fmt, printTable } from './timing.js';
import { stepTemplates } from './ws-driver.js';

const { values: args } = benchArgs({
  options: {
    sessions: { type: 'string', default: '100' },
    passes: { type: 'string', default: '5' },
    set: { type: 'string', default: 'replay,corpus' },
    clock: { type: 'string', default: 'cpu' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const sessions = numberFlag(args, 'sessions', 'positive integer');
if (args.clock !== 'cpu' && args.clock !== 'wall') argsError(`--clock: expected cpu or wall (got ${args.clock})`);
const sets = (args.set ?? '').split(',');
for (const s of sets) if (s !== 'replay' && s !== 'corpus' && s !== 'depth') argsError(`--set: expected some of replay, corpus, depth, comma-separated (got ${args.set})`);
/**
 * The clock read around each stage, in ms. `cpu`: the process's CPU time (`getrusage`, µs steps): a stage's sum
 * over many steps is its CPU, a preempted step costs nothing extra; what the reads themselves add is measured on an
 * empty stage among the others and taken off every stage. `wall`: `performance.now()`, finer, but a preempted step counts.
 */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const now: () => number = args.clock === 'cpu' ? cpuMs : () => performance.now();
const passes = numberFlag(args, 'passes', 'positive integer');

const STAGES = [
  'frame parse (JSON.parse + checks)',
  'same-text pool, failed?',
  'labeler',
  'workspace + scope (tree-sitter)',
  'terminal facts / hash',
  'variant key',
  'state record, cost, columns',
  'coherence (+ retry)',
  'temporal',
  'structural (PTA) / prior signals',
  'composite, tier',
  'early-stop counters',
  'step line',
  'score frame + bytes',
  // Two reads of the clock with nothing between: what the clock's reading leaves in every stage after the correction.
  'nothing (the clock floor)',
] as const;
const S = STAGES.length;

const cfg = DEFAULT_CONFIG;
/** `depth`: online-vs-batch's checkpoints and probe window. */
const DEPTH_CHECKPOINTS = [10, 100, 500, 2000];
const DEPTH_WINDOW = 16;
const analyzers = defaultAnalyzers();
const REF_INFO = Object.freeze({ kind: 'pta' as const, version: 1, paths: 3 });

/** One session through the stages; `times` (S per step) filled when given; the totals it scored. */
function session(frames: readonly Buffer[], reference: Reference, times: Float64Array | undefined, at: number): number[] {
  const labeler = new Labeler(analyzers.shell, {});
  const workspace = new ShadowWorkspace();
  const variants = createVariantTracker();
  const columns = new StateColumns();
  const retry = sharedRetryDetector();
  const coherence = createCoherenceTracker(cfg.epsilon, retry);
  const pta = reference.kind === 'pta' ? reference.pta : undefined;
  const temporal = createTemporalTracker(pta !== undefined ? referenceWindows(pta) : reference.kind === 'prior' ? reference.prior.windows : UNIFORM_PRIOR.windows, cfg.alpha);
  const structural = pta !== undefined ? createStructuralTracker(pta, cfg.tau) : undefined;
  const prior = pta === undefined ? createPriorSignalTracker(cfg.brevitySteps) : undefined;
  const earlyStop = createEarlyStop(DEFAULT_POLICY, { retry, history: true });
  const totals: number[] = [];
  let last = 0;
  const clock = new Float64Array(S + 1);
  for (let t = 0; t < frames.length; t++) {
    clock[0] = now();
    const msg = parseClientMessage(frames[t]!);
    if (!msg.ok || msg.value.type !== 'step') throw new Error('stage-cost: a frame did not parse');
    const parsed = parseStepPayload(msg.value.step);
    if (!parsed.ok) throw new Error(`stage-cost: ${parsed.error}`);
    const step: Step = parsed.value;
    step.t = t;
    clock[1] = now();
    const act = step.action;
    if (act.kind === 'shell') act.command = sameText(act.command);
    else if (act.kind === 'code') act.code = sameText(act.code);
    const failed = stepFailed(step);
    clock[2] = now();
    const outcome = labeler.label(step, failed);
    const label = outcome.label;
    clock[3] = now();
    const scope = updateWorkspace(workspace, analyzers.scope, step, outcome, failed);
    clock[4] = now();
    const root = labeler.repoRoot;
    const a = step.action;
    const terminal = a.kind === 'shell' || a.kind === 'code';
    const facts = a.kind === 'shell' ? terminalFacts('shell', a.command, root) : a.kind === 'code' ? terminalFacts('code', a.code, root) : undefined;
    const hash = facts !== undefined ? facts.hash : md5(hashContent(a, label.file, root));
    clock[5] = now();
    const dir = outcome.paths.dir;
    const key = facts !== undefined && terminal ? terminalExactKey(facts, a, dir, root) : exactKey(exactAction(a, step.tool, label.file, dir, root));
    const variant = variants.isVariant(hash, key);
    clock[6] = now();
    const tokens = facts !== undefined ? (facts.tokens as string[]) : (NO_TOKENS as string[]);
    const core = {
      t,
      stage: label.stage,
      kind: label.kind,
      tool: step.tool,
      hash,
      tokens,
      command: terminal,
      changesFile: label.changesFile,
      failed,
      cost: stepCost(step, cfg.charsPerToken),
      unknown: label.unknown,
    };
    const state = stateRecord(core, label.file, label.range, scope);
    if (outcome.changesEnv) state.changesEnv = true;
    if (variant) state.variant = true;
    columns.push(state);
    clock[7] = now();
    coherence.add(state);
    const coh = coherence.value();
    clock[8] = now();
    temporal.add(state);
    const temp = temporal.value();
    clock[9] = now();
    structural?.add(state);
    prior?.add(state, label.sourceEdit);
    const struct = structural !== undefined ? structural.struct() : null;
    const cov = structural !== undefined ? structural.cov() : null;
    const signals = prior?.value();
    clock[10] = now();
    const score = composite({ struct, cov, coh, temp }, cfg.weights, signals !== undefined ? { weights: cfg.priorWeights, signals } : undefined);
    const tier = tierFor(score.total, undefined, cfg);
    clock[11] = now();
    earlyStop.add(state, score.total, undefined);
    retry.endStep();
    clock[12] = now();
    stepText(step);
    clock[13] = now();
    const frame: ScoreMessage = { type: 'score', session: 's000000001', seq: t, t, stage: state.stage, score, reward: score.total - last, tier, reference: REF_INFO };
    frameBytes(frame);
    clock[14] = now();
    clock[15] = now();
    last = score.total;
    totals.push(score.total);
    if (times !== undefined) for (let k = 0; k < S; k++) times[(at + t) * S + k] = (clock[k + 1]! - clock[k]!) * 1000;
  }
  return totals;
}

/** Checks that the stages score every session as `createScorer` does. */
function check(frames: readonly Buffer[], reference: Reference, name: string): void {
  const scorer = createScorer({ reference, analyzers, config: cfg });
  const want = frames.map((f) => {
    const m = parseClientMessage(f);
    if (!m.ok || m.value.type !== 'step') throw new Error('stage-cost: a frame did not parse');
    const p = parseStepPayload(m.value.step);
    if (!p.ok) throw new Error(p.error);
    return scorer.push(p.value).score.total;
  });
  const got = session(frames, reference, undefined, 0);
  got.forEach((x, i) => {
    if (!Object.is(x, want[i])) throw new Error(`stage-cost: ${name} step ${i}: the stages scored ${x}, createScorer ${want[i]}`);
  });
}

interface SetResult {
  set: string;
  steps: number;
  /** Per stage (the last, the empty one, left out), less the empty stage's own figure: what the clock's reads add. */
  mean: number[];
  median: number[];
  /** The empty stage's mean and median, taken off every stage. */
  floor: { mean: number; median: number };
}

/**
 * Every session of `runs`, `repeat` times a pass, `passes` passes (the first untimed); one result over every step
 * timed, or with `windows` (first step, steps) one result for each window of every run of a pass.
 */
function run(
  set: string,
  runs: ReadonlyArray<{ frames: Buffer[]; reference: Reference; name: string }>,
  repeat: number,
  windows?: ReadonlyArray<{ name: string; from: number; steps: number }>,
): SetResult[] {
  for (const r of runs) check(r.frames, r.reference, r.name);
  const perPass = runs.reduce((n, r) => n + r.frames.length, 0) * repeat;
  const times = new Float64Array((passes - 1) * perPass * S);
  let at = 0;
  for (let p = 0; p < passes; p++)
    for (let i = 0; i < repeat; i++)
      for (const r of runs) {
        session(r.frames, r.reference, p > 0 ? times : undefined, at);
        if (p > 0) at += r.frames.length;
      }
  if (windows === undefined)
    return [
      summary(
        set,
        times,
        Array.from({ length: at }, (_, i) => i),
      ),
    ];
  // Windows of the one run (depth): the same steps of every timed pass.
  const length = runs[0]!.frames.length;
  return windows.map((w) =>
    summary(
      `${set} ${w.name}`,
      times,
      Array.from({ length: (passes - 1) * w.steps }, (_, i) => Math.floor(i / w.steps) * length + w.from + (i % w.steps)),
    ),
  );
}

/** Mean and median of each stage over the steps `at`, less the empty stage's (the clock's reads, in place). */
function summary(set: string, times: Float64Array, at: readonly number[]): SetResult {
  const steps = at.length;
  const mean: number[] = [];
  const median: number[] = [];
  const column = new Float64Array(steps);
  for (let k = 0; k < S; k++) {
    let sum = 0;
    for (let i = 0; i < steps; i++) sum += column[i] = times[at[i]! * S + k]!;
    column.sort();
    mean.push(sum / steps);
    median.push(column[steps >> 1]!);
  }
  // The empty stage, read in place (a read in a loop of its own costs less than one among the stages' work).
  const floor = { mean: mean.pop()!, median: median.pop()! };
  return { set, steps, mean: mean.map((x) => x - floor.mean), median: median.map((x) => x - floor.median), floor };
}

async function main(): Promise<void> {
  const corpus = findCorpus(args.corpus);
  const results: SetResult[] = [];
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-stage-'));
  try {
    if (sets.includes('replay')) {
      const store = await ReferenceStore.open({ dataDir: data, seedDirs: [bundledReferencesDir()] });
      const reference = await store.reference(SERVER_BENCH_TASK);
      const parsed = parseTrajectoryText(await readFile(path.join(corpus, SERVER_BENCH_FILE), 'utf8'), 'auto', SERVER_BENCH_FILE);
      if (!parsed.ok) throw parsed.error;
      const frames = stepTemplates(parsed.value.steps).frames.map((f) => Buffer.from(f));
      results.push(...run('replay', [{ frames, reference, name: SERVER_BENCH_FILE }], sessions));
    }
    if (sets.includes('corpus')) {
      const { trajectories } = loadCorpus(corpus);
      const reference: Reference = { kind: 'prior', prior: UNIFORM_PRIOR };
      const runs = trajectories.map((t) => ({ frames: stepTemplates(t.steps).frames.map((f) => Buffer.from(f)), reference, name: `${t.file}#${t.instance}` }));
      results.push(...run('corpus', runs, 1));
    }
    if (sets.includes('depth')) {
      // online-vs-batch's trajectory: the same 16 held-out steps after 2, 92, 492 and 1,992 steps of other runs.
      const { trajectories } = loadCorpus(corpus);
      const source = trajectories.find((t) => t.file === SERVER_BENCH_FILE);
      if (source === undefined) throw new Error(`${SERVER_BENCH_FILE} is not in the corpus`);
      const at = DEPTH_CHECKPOINTS.map((c) => Math.max(0, c - DEPTH_WINDOW / 2));
      const steps = longTrajectory(trajectories, Math.max(...at) + DEPTH_WINDOW, source.steps.slice(8, 8 + DEPTH_WINDOW), at);
      const parsed = ptaFromJson(await readFile(path.join(repoRoot(), 'data/example', `${SERVER_BENCH_TASK}.json`), 'utf8'));
      if (!parsed.ok) throw new Error(`data/example PTA: ${parsed.error}`);
      const frames = stepTemplates(steps).frames.map((f) => Buffer.from(f));
      const windows = DEPTH_CHECKPOINTS.map((c, i) => ({ name: `@${c}`, from: at[i]!, steps: DEPTH_WINDOW }));
      results.push(...run('depth', [{ frames, reference: { kind: 'pta', pta: parsed.value }, name: 'long trajectory' }], 1, windows));
    }
  } finally {
    await rm(data, { recursive: true, force: true });
  }
  const m = machine();
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  const wall = args.clock === 'wall';
  const header = [`stage, µs a step (${args.clock})`];
  for (const r of results) header.push(`${r.set} mean`, ...(wall ? [`${r.set} median`] : []), `${r.set} share`);
  const sums = results.map((r) => r.mean.reduce((a, b) => a + b, 0));
  const rows = STAGES.slice(0, -1).map((name, k) => [name, ...results.flatMap((r, i) => [fmt(r.mean[k]!, 2), ...(wall ? [fmt(r.median[k]!, 2)] : []), `${fmt((100 * r.mean[k]!) / sums[i]!, 1)} %`])]);
  rows.push(['all stages', ...results.flatMap((_, i) => [fmt(sums[i]!, 2), ...(wall ? [''] : []), ''])]);
  printTable(header, rows);
  console.log(results.map((r) => `${r.set}: ${r.steps} steps timed, the clock's floor ${fmt(r.floor.mean, 2)} µs a stage (median ${fmt(r.floor.median, 2)}) taken off each`).join('; '));
  const figures: Record<string, number> = {};
  for (const r of results) STAGES.slice(0, -1).forEach((name, k) => (figures[`${r.set}: ${name} mean_us (${args.clock})`] = r.mean[k]!));
  writeResult(args.json, { bench: 'stage-cost', command: commandLine(import.meta.url), machine: m, targets: [], figures });
}

await main();

/**
 * The waste report (method.md section 7): five categories, each item
 * localised to step indices with the responsible tool and the wasted tokens.
 *
 * Convention for every item: `steps` are the steps that show the pattern, in
 * order, and the wasted ones are the LAST `wastedSteps` of them:
 * - regression loop: the steps of every failed cycle; the cycles after the
 *   first are wasted;
 * - blind retry: the repeated earlier state, then each retry; all retries are
 *   wasted (all but the first step);
 * - redundant step: the earlier state, then the redundant one (1 wasted);
 * - irrelevant exploration: the E states on one file, all wasted;
 * - cyclic pattern: the whole run; all occurrences of the block after the
 *   first are wasted.
 * Categories may overlap (a retry can be part of a cycle); `wastedStepSet`
 * gives the distinct wasted steps. `tool` is the tool of the first wasted step (its action kind when the
 * step had no tool call);
 * `wastedTokens` the sum of the wasted states' `cost`.
 */
import type { WasteSettings } from '../config.js';
import { runToEnd, STATES_PER_STEP } from '../in-steps.js';
import type { State, WasteItem } from '../types.js';
import { WASTE_DETECTORS } from './detectors.js';
import type { StateLookup, WasteContext } from './detector.js';
import type { WasteHistory } from './history.js';

export { createCycleDetector, type CycleRun, type CycleDetector } from './cycles.js';
export { createRegressionTracker, type RegressionLoop, type RegressionTracker } from './regression-loop.js';
export { createRetryEpisodeTracker, type RetryEpisode, type RetryEpisodeTracker } from './retry-episodes.js';
export { findRedundantSteps, repeats, type RedundantStep } from './redundant.js';
export { findIrrelevantExploration, ptaFileSet, type IrrelevantFile } from './irrelevant.js';
export { WASTE_DETECTORS } from './detectors.js';
export { wasteDetector, type WasteContext, type WasteDetector } from './detector.js';
export { snapshotHistory, type WasteHistory } from './history.js';

export interface WasteOptions {
  settings: WasteSettings;
  tau: number;
  /** The PTA's touched files; undefined = reference-free mode. */
  ptaFiles?: readonly string[];
  /** The set of `ptaFiles`, when the caller keeps one (`ptaFileSet`); made from the list otherwise. */
  ptaFileSet?: ReadonlySet<string>;
  /** What the stop counters found over the same states (history.ts). */
  history?: WasteHistory;
}

/** Computes the waste report of a state sequence: every detector in turn, so items are ordered by category, then as their detector finds them. */
export function wasteReport(states: readonly State[], options: WasteOptions): WasteItem[] {
  return runToEnd(wasteReportInSteps(states, options));
}

/**
 * {@link wasteReport} in steps: it yields every {@link STATES_PER_STEP} states (or items) a detector visits, so a
 * server can let other clients' work run between them (a live 5,000-step session's report took 60-124 ms cold at
 * load 5 in one go). `states` must not change until it is done.
 */
export function* wasteReportInSteps(states: readonly State[], options: WasteOptions): Generator<void, WasteItem[]> {
  // The states by step index: the list itself when every state's `t` is its index (a scorer's states always are),
  // a map only otherwise. A map of every state was built at each session's end for the few lookups the items make.
  let byT: Map<number, State> | undefined;
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!; // i < length
    if (byT !== undefined) byT.set(s.t, s);
    else if (s.t !== i) byT = statesByT(states, i + 1);
    if ((i + 1) % STATES_PER_STEP === 0) yield;
  }
  const found: WasteItem[] = [];
  // One context for every detector (`found` is the one list, grown between them), its fields named: a spread of
  // the options per detector was ~13 µs of a session's end in the server's loop, and one spread still ~8
  // (bench/README.md, "Lifecycle CPU per step, fifth pass"). Detectors read only these fields.
  const context: WasteContext = {
    settings: options.settings,
    tau: options.tau,
    ptaFiles: options.ptaFiles,
    ptaFileSet: options.ptaFileSet,
    byT: byT ?? new StatesByIndex(states),
    found,
    history: options.history,
  };
  for (const detector of WASTE_DETECTORS) {
    const items = yield* detector.findInSteps(states, context);
    for (const item of items) found.push(item);
  }
  return found;
}

/** The first `n` states by their `t` (a later state with the same `t` wins, as `Map#set` in order gives). */
function statesByT(states: readonly State[], n: number): Map<number, State> {
  const byT = new Map<number, State>();
  for (let i = 0; i < n; i++) byT.set(states[i]!.t, states[i]!); // i < n <= length
  return byT;
}

/** States whose `t` is their index, looked up as the map of them would be (`undefined` for any other number). */
class StatesByIndex implements StateLookup {
  constructor(private readonly states: readonly State[]) {}

  get(t: number): State | undefined {
    return Number.isInteger(t) && t >= 0 && t < this.states.length ? this.states[t] : undefined;
  }
}

/** The distinct wasted steps of a waste report (see the convention above). */
export function wastedStepSet(items: readonly WasteItem[]): Set<number> {
  const set = new Set<number>();
  for (const it of items) for (const t of it.steps.slice(it.steps.length - it.wastedSteps)) set.add(t);
  return set;
}

/**
 * The distinct wasted steps of a waste report and their tokens: each step and its `cost` counted once, however many
 * items list it (a retry inside a cycle), so the figures never exceed the run's steps and tokens.
 */
export function distinctWaste(items: readonly WasteItem[], states: readonly State[]): { steps: number; tokens: number } {
  const wasted = wastedStepSet(items);
  let tokens = 0;
  for (const s of states) if (wasted.has(s.t)) tokens += s.cost;
  return { steps: wasted.size, tokens };
}

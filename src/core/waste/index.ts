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
import type { State, WasteItem } from '../types.js';
import { createCycleDetector } from './cycles.js';
import { findIrrelevantExploration } from './irrelevant.js';
import { findRedundantSteps } from './redundant.js';
import { createRegressionTracker } from './regression-loop.js';
import { createRetryEpisodeTracker } from './retry-episodes.js';

export { createCycleDetector, type CycleRun, type CycleDetector } from './cycles.js';
export { createRegressionTracker, type RegressionLoop, type RegressionTracker } from './regression-loop.js';
export { createRetryEpisodeTracker, type RetryEpisode, type RetryEpisodeTracker } from './retry-episodes.js';
export { contentOrRangeConf, findRedundantSteps, type RedundantStep } from './redundant.js';
export { findIrrelevantExploration, type IrrelevantFile } from './irrelevant.js';

export interface WasteOptions {
  settings: WasteSettings;
  tau: number;
  /** The PTA's touched files; undefined = reference-free mode. */
  ptaFiles?: readonly string[];
}

function item(category: WasteItem['category'], steps: number[], wasted: number, byT: ReadonlyMap<number, State>): WasteItem {
  const wastedSteps = steps.slice(steps.length - wasted);
  let tokens = 0;
  for (const t of wastedSteps) tokens += byT.get(t)?.cost ?? 0;
  const first = wastedSteps[0];
  const state = first === undefined ? undefined : byT.get(first);
  const tool = state === undefined ? '' : state.tool || state.kind;
  return { category, steps, tool, wastedSteps: wasted, wastedTokens: tokens };
}

/** Computes the waste report of a state sequence. Items are ordered by category, then by first step. */
export function wasteReport(states: readonly State[], options: WasteOptions): WasteItem[] {
  const { settings } = options;
  const byT = new Map(states.map((s) => [s.t, s] as const));
  const regression = createRegressionTracker();
  const retries = createRetryEpisodeTracker();
  const cycles = createCycleDetector(settings.cycleMinBlock, settings.cycleMaxBlock);
  for (const s of states) {
    regression.add(s);
    retries.add(s);
    cycles.add(s);
  }
  const out: WasteItem[] = [];
  for (const loop of regression.loops()) {
    if (loop.cycles.length < settings.regressionMinCycles) continue;
    const steps = loop.cycles.flat();
    out.push(item('regression_loop', steps, steps.length - (loop.cycles[0]?.length ?? 0), byT));
  }
  const retried = new Set<number>();
  for (const ep of retries.episodes()) {
    out.push(item('blind_retry', [...ep.steps], ep.retries, byT));
    for (const t of ep.steps.slice(1)) retried.add(t);
  }
  for (const r of findRedundantSteps(states, options.tau, retried)) out.push(item('redundant_step', [r.of, r.t], 1, byT));
  for (const f of findIrrelevantExploration(states, options.ptaFiles)) out.push(item('irrelevant_exploration', f.steps, f.steps.length, byT));
  let coveredUntil = -Infinity;
  for (const run of cycles.runs()) {
    if (run.reps < settings.cycleMinRepeats || run.start <= coveredUntil) continue;
    const steps = run.steps.slice(0, run.block * run.reps);
    out.push(item('cyclic_pattern', steps, steps.length - run.block, byT));
    coveredUntil = run.end;
  }
  return out;
}

/** The distinct wasted steps of a waste report (see the convention above). */
export function wastedStepSet(items: readonly WasteItem[]): Set<number> {
  const set = new Set<number>();
  for (const it of items) for (const t of it.steps.slice(it.steps.length - it.wastedSteps)) set.add(t);
  return set;
}

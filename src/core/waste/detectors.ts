/** The five waste detectors (method.md section 7), in the order the report lists their categories. */
import { STATES_PER_STEP } from '../in-steps.js';
import type { State, WasteItem } from '../types.js';
import { createCycleDetector } from './cycles.js';
import { wasteDetector, wasteItem, type WasteDetector } from './detector.js';
import { findIrrelevantExplorationInSteps } from './irrelevant.js';
import { findRedundantStepsInSteps } from './redundant.js';
import { createRegressionTracker } from './regression-loop.js';
import { createRetryEpisodeTracker } from './retry-episodes.js';

/** Feeds every state to `add`, yielding every {@link STATES_PER_STEP} of them. */
function* addEach(states: readonly State[], add: (s: State) => unknown): Generator<void, void> {
  for (let i = 0; i < states.length; i++) {
    add(states[i]!); // i < length
    if ((i + 1) % STATES_PER_STEP === 0) yield;
  }
}

/** `found.map(item)`, yielding every {@link STATES_PER_STEP} items. */
function* itemsOf<T>(found: readonly T[], item: (x: T) => WasteItem): Generator<void, WasteItem[]> {
  const out: WasteItem[] = [];
  for (let i = 0; i < found.length; i++) {
    out.push(item(found[i]!)); // i < length
    if ((i + 1) % STATES_PER_STEP === 0) yield;
  }
  return out;
}

/** Loops of at least `regressionMinCycles` failed cycles; the cycles after the first are wasted. */
export const regressionLoopWaste: WasteDetector = wasteDetector('regression_loop', function* (states, { settings, byT, history }) {
  let all = history?.loops;
  if (all === undefined) {
    const tracker = createRegressionTracker();
    yield* addEach(states, (s) => tracker.add(s));
    all = tracker.loops();
  }
  const loops = all.filter((loop) => loop.cycles.length >= settings.regressionMinCycles);
  return yield* itemsOf(loops, (loop) => {
    const steps = loop.cycles.flat();
    return wasteItem('regression_loop', steps, steps.length - (loop.cycles[0]?.length ?? 0), byT);
  });
});

/** Blind-retry episodes: the repeated state, then every retry (all wasted). */
export const blindRetryWaste: WasteDetector = wasteDetector('blind_retry', function* (states, { byT, history }) {
  let episodes = history?.episodes;
  if (episodes === undefined) {
    const tracker = createRetryEpisodeTracker();
    yield* addEach(states, (s) => tracker.add(s));
    episodes = tracker.episodes();
  }
  return yield* itemsOf(episodes, (ep) => wasteItem('blind_retry', [...ep.steps], ep.retries, byT));
});

/** Redundant steps: the earlier state, then the redundant one; blind retries are left to their own category. */
export const redundantStepWaste: WasteDetector = wasteDetector('redundant_step', function* (states, { byT, found }) {
  const retried = new Set(found.filter((i) => i.category === 'blind_retry').flatMap((i) => i.steps.slice(1)));
  const redundant = yield* findRedundantStepsInSteps(states, retried);
  return yield* itemsOf(redundant, (r) => wasteItem('redundant_step', [r.of, r.t], 1, byT));
});

/** E states on files the PTA never touches (without a PTA: read once, never used again), per file, all wasted. */
export const irrelevantExplorationWaste: WasteDetector = wasteDetector('irrelevant_exploration', function* (states, { ptaFiles, ptaFileSet, byT }) {
  const files = yield* findIrrelevantExplorationInSteps(states, ptaFiles, ptaFileSet ?? (ptaFiles === undefined ? undefined : new Set(ptaFiles)));
  return yield* itemsOf(files, (f) => wasteItem('irrelevant_exploration', f.steps, f.steps.length, byT));
});

/** Blocks repeated at least `cycleMinRepeats` times in a row; occurrences after the first are wasted; runs do not overlap. */
export const cyclicPatternWaste: WasteDetector = wasteDetector('cyclic_pattern', function* (states, { settings, byT, history }) {
  // The stop counter's runs serve only when it searched the same block sizes.
  const kept = history?.cycles;
  let runs = kept?.minBlock === settings.cycleMinBlock && kept.maxBlock === settings.cycleMaxBlock ? kept.runs : undefined;
  if (runs === undefined) {
    const cycles = createCycleDetector(settings.cycleMinBlock, settings.cycleMaxBlock);
    yield* addEach(states, (s) => cycles.add(s));
    runs = cycles.runs();
  }
  const out = [];
  let coveredUntil = -Infinity;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!; // i < length
    if ((i + 1) % STATES_PER_STEP === 0) yield;
    if (run.reps < settings.cycleMinRepeats || run.start <= coveredUntil) continue;
    const steps = run.steps.slice(0, run.block * run.reps);
    out.push(wasteItem('cyclic_pattern', steps, steps.length - run.block, byT));
    coveredUntil = run.end;
  }
  return out;
});

/** Every waste detector, in report order. A new category is one more detector here (and its conformance cases). */
export const WASTE_DETECTORS: readonly WasteDetector[] = [regressionLoopWaste, blindRetryWaste, redundantStepWaste, irrelevantExplorationWaste, cyclicPatternWaste];

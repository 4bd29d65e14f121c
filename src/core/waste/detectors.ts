/** The five waste detectors (method.md section 7), in the order the report lists their categories. */
import { createCycleDetector } from './cycles.js';
import { wasteItem, type WasteDetector } from './detector.js';
import { findIrrelevantExploration } from './irrelevant.js';
import { findRedundantSteps } from './redundant.js';
import { createRegressionTracker } from './regression-loop.js';
import { createRetryEpisodeTracker } from './retry-episodes.js';

/** Loops of at least `regressionMinCycles` failed cycles; the cycles after the first are wasted. */
export const regressionLoopWaste: WasteDetector = {
  category: 'regression_loop',
  find(states, { settings, byT }) {
    const tracker = createRegressionTracker();
    for (const s of states) tracker.add(s);
    return tracker
      .loops()
      .filter((loop) => loop.cycles.length >= settings.regressionMinCycles)
      .map((loop) => {
        const steps = loop.cycles.flat();
        return wasteItem('regression_loop', steps, steps.length - (loop.cycles[0]?.length ?? 0), byT);
      });
  },
};

/** Blind-retry episodes: the repeated state, then every retry (all wasted). */
export const blindRetryWaste: WasteDetector = {
  category: 'blind_retry',
  find(states, { byT }) {
    const tracker = createRetryEpisodeTracker();
    for (const s of states) tracker.add(s);
    return tracker.episodes().map((ep) => wasteItem('blind_retry', [...ep.steps], ep.retries, byT));
  },
};

/** Redundant steps: the earlier state, then the redundant one; blind retries are left to their own category. */
export const redundantStepWaste: WasteDetector = {
  category: 'redundant_step',
  find(states, { byT, found }) {
    const retried = new Set(found.filter((i) => i.category === 'blind_retry').flatMap((i) => i.steps.slice(1)));
    return findRedundantSteps(states, retried).map((r) => wasteItem('redundant_step', [r.of, r.t], 1, byT));
  },
};

/** E states on files the PTA never touches (without a PTA: read once, never used again), per file, all wasted. */
export const irrelevantExplorationWaste: WasteDetector = {
  category: 'irrelevant_exploration',
  find(states, { ptaFiles, byT }) {
    return findIrrelevantExploration(states, ptaFiles).map((f) => wasteItem('irrelevant_exploration', f.steps, f.steps.length, byT));
  },
};

/** Blocks repeated at least `cycleMinRepeats` times in a row; occurrences after the first are wasted; runs do not overlap. */
export const cyclicPatternWaste: WasteDetector = {
  category: 'cyclic_pattern',
  find(states, { settings, byT }) {
    const cycles = createCycleDetector(settings.cycleMinBlock, settings.cycleMaxBlock);
    for (const s of states) cycles.add(s);
    const out = [];
    let coveredUntil = -Infinity;
    for (const run of cycles.runs()) {
      if (run.reps < settings.cycleMinRepeats || run.start <= coveredUntil) continue;
      const steps = run.steps.slice(0, run.block * run.reps);
      out.push(wasteItem('cyclic_pattern', steps, steps.length - run.block, byT));
      coveredUntil = run.end;
    }
    return out;
  },
};

/** Every waste detector, in report order. A new category is one more detector here (and its conformance cases). */
export const WASTE_DETECTORS: readonly WasteDetector[] = [regressionLoopWaste, blindRetryWaste, redundantStepWaste, irrelevantExplorationWaste, cyclicPatternWaste];

/**
 * What the stop counters (early-stop/counters.ts) found while the session was scored: the blind-retry episodes,
 * regression loops and cycle runs the waste report's detectors of the same names would find again over the same
 * states. The counters run the same trackers on every state as it comes, so the report at a session's end reads
 * their findings instead of feeding every state to a second tracker of each kind (bench/README.md, "Lifecycle CPU
 * per step, third pass"). A kind whose stop the policy turns off has no counter, and its detector runs as before.
 */
import type { CycleRun } from './cycles.js';
import type { RegressionLoop } from './regression-loop.js';
import type { RetryEpisode } from './retry-episodes.js';

export interface WasteHistory {
  /** Every blind-retry episode so far (`createRetryEpisodeTracker().episodes()`). */
  episodes?: readonly RetryEpisode[];
  /** Every regression loop so far (`createRegressionTracker().loops()`). */
  loops?: readonly RegressionLoop[];
  /** Every cycle run so far (`createCycleDetector(minBlock, maxBlock).runs()`), with the block sizes searched. */
  cycles?: { minBlock: number; maxBlock: number; runs: readonly CycleRun[] };
}

/**
 * A copy of `h` as it is now: the open episode, loop or run grows with the next states, and a report in steps is of
 * the states scored when it was asked for.
 */
export function snapshotHistory(h: WasteHistory): WasteHistory {
  const out: WasteHistory = {};
  if (h.episodes !== undefined) out.episodes = h.episodes.map((e) => ({ ...e, steps: e.steps.slice() }));
  if (h.loops !== undefined) out.loops = h.loops.map((l) => ({ ...l, cycles: l.cycles.map((c) => c.slice()) }));
  if (h.cycles !== undefined) out.cycles = { ...h.cycles, runs: h.cycles.runs.map((r) => ({ ...r, steps: r.steps.slice() })) };
  return out;
}

/**
 * The stop signals' trackers keep no closed episodes, loops or cycle runs (history off): on every real run
 * each tracker's `add` answers what the tracker with its history answers, and the history stays empty.
 */
import { describe, expect, it } from 'vitest';
import { createCycleDetector } from '../../src/core/waste/cycles.js';
import { createRegressionTracker } from '../../src/core/waste/regression-loop.js';
import { createRetryEpisodeTracker } from '../../src/core/waste/retry-episodes.js';
import { corpusRuns, extraRuns, statesOf } from '../fixtures/corpus-runs.js';

describe('stop trackers without history', () => {
  it('answer every state as the trackers with history do, keeping none of the closed ones', () => {
    let found = { episodes: 0, loops: 0, runs: 0 };
    for (const run of [...corpusRuns(), ...extraRuns()]) {
      const states = statesOf(run.steps);
      const pairs = [
        [createRetryEpisodeTracker(), createRetryEpisodeTracker(undefined, false)],
        [createRegressionTracker(), createRegressionTracker(false)],
        [createCycleDetector(2, 4), createCycleDetector(2, 4, false)],
      ] as const;
      for (const s of states) for (const [kept, bare] of pairs) expect(JSON.stringify(bare.add(s))).toBe(JSON.stringify(kept.add(s)));
      const [[episodes, noEpisodes], [loops, noLoops], [cycles, noCycles]] = pairs;
      expect([noEpisodes.episodes(), noLoops.loops(), noCycles.runs()]).toEqual([[], [], []]);
      found = { episodes: found.episodes + episodes.episodes().length, loops: found.loops + loops.loops().length, runs: found.runs + cycles.runs().length };
    }
    // The real runs hold each kind, so the comparison covers answers that are not empty.
    expect(found.episodes).toBeGreaterThan(0);
    expect(found.loops).toBeGreaterThan(0);
    expect(found.runs).toBeGreaterThan(0);
  });
});

/**
 * The scorer's coherence tracker and blind-retry stop signal share one retry history (sharedRetryDetector):
 * on every real run, each consumer of the shared detector gets what a detector of its own answers, and the
 * trackers fed through it give the counts and signals they give alone.
 */
import { describe, expect, it } from 'vitest';
import { createEarlyStop } from '../../src/core/early-stop/index.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { createCoherenceTracker } from '../../src/core/signals/coherence.js';
import { createRetryDetector, sharedRetryDetector } from '../../src/core/signals/repeats.js';
import { corpusRuns, extraRuns, statesOf } from '../fixtures/corpus-runs.js';

describe('shared retry detector', () => {
  it('answers every consumer as its own detector would, on every real run', () => {
    let retries = 0;
    for (const run of [...corpusRuns(), ...extraRuns()]) {
      const states = statesOf(run.steps);
      const own = createRetryDetector();
      const shared = sharedRetryDetector();
      for (const s of states) {
        const expected = own.add(s);
        expect(shared.add(s)).toBe(expected);
        expect(shared.add(s)).toBe(expected);
        if (expected !== undefined) retries++;
      }
    }
    expect(retries).toBeGreaterThan(10);
  });

  it('coherence and early stop fed through one shared detector match each with its own', () => {
    for (const run of [...corpusRuns(), ...extraRuns()]) {
      const states = statesOf(run.steps);
      const retry = sharedRetryDetector();
      const [cohShared, cohOwn] = [createCoherenceTracker(1e-6, retry), createCoherenceTracker(1e-6)];
      const [stopShared, stopOwn] = [createEarlyStop(DEFAULT_POLICY, { retry }), createEarlyStop(DEFAULT_POLICY)];
      states.forEach((s, i) => {
        cohShared.add(s);
        cohOwn.add(s);
        const total = 40 + 10 * Math.sin(i);
        expect(stopShared.add(s, total)).toEqual(stopOwn.add(s, total));
        expect(cohShared.value()).toBe(cohOwn.value());
      });
      expect(cohShared.counts()).toEqual(cohOwn.counts());
      expect(stopShared.signals()).toEqual(stopOwn.signals());
    }
  });
});

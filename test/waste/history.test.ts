/**
 * The waste report reads the retry episodes, regression loops and cycle runs the stop counters found while the
 * states were scored (core/waste/history.ts) instead of tracking them again: on every real corpus run it must list
 * exactly the items the detectors find from the states alone, under policies that keep all three counters, that
 * search other cycle block sizes (the cycle detector then runs itself) and that turn the counters off; and a report
 * asked for in the middle of a run is of the states scored then, however many steps are scored while it is built.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { createEarlyStop } from '../../src/core/early-stop/index.js';
import { DEFAULT_POLICY, type Policy } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { sharedRetryDetector } from '../../src/core/signals/repeats.js';
import type { State, Step } from '../../src/core/types.js';
import { createCycleDetector, createRegressionTracker, createRetryEpisodeTracker, wasteReport } from '../../src/core/waste/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns, extraRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();
const runs = (): Step[][] => [...corpusRuns(), ...extraRuns()].map((r) => r.steps);
// Two occurrences make a cyclic item here (three by default): the test corpus has runs of two only.
const config = { ...DEFAULT_CONFIG, waste: { ...DEFAULT_CONFIG.waste, cycleMinRepeats: 2 } };
const options = { settings: config.waste, tau: config.tau };

/** The scorer's report of `steps` under `policy`, and the waste the detectors find from its states alone. */
function both(steps: readonly Step[], policy: Policy): { report: unknown; alone: unknown; states: State[] } {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers, policy, config });
  const states = steps.map((s) => scorer.push(structuredClone(s)).state);
  return { report: scorer.report().waste, alone: wasteReport(states, options), states };
}

describe('waste report from the stop counters', () => {
  const policies: Array<[string, Policy]> = [
    ['default', DEFAULT_POLICY],
    ['other cycle blocks', { ...DEFAULT_POLICY, cycle: { ...DEFAULT_POLICY.cycle, minBlock: 1, maxBlock: 3 } }],
    ['counters off', { ...DEFAULT_POLICY, blindRetry: { warn: null, stop: null }, regressionLoop: { warn: null, stop: null }, cycle: { ...DEFAULT_POLICY.cycle, warn: null, stop: null } }],
  ];
  for (const [name, policy] of policies) {
    it(`lists the same items as the detectors alone on every real run (${name} policy)`, () => {
      const categories = new Set<string>();
      for (const steps of runs()) {
        const { report, alone } = both(steps, policy);
        expect(report).toEqual(alone);
        for (const item of report as Array<{ category: string }>) categories.add(item.category);
      }
      // Every category the history serves is in these runs.
      for (const c of ['blind_retry', 'regression_loop', 'cyclic_pattern']) expect(categories).toContain(c);
    });
  }

  it('a report asked for mid-run is of the states scored then, though more are scored while it is built', () => {
    let checked = 0;
    for (const steps of runs()) {
      if (steps.length < 4) continue;
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers, config });
      const half = steps.length >> 1;
      const states = steps.slice(0, half).map((s) => scorer.push(structuredClone(s)).state);
      const building = scorer.reportInSteps();
      for (const s of steps.slice(half)) scorer.push(structuredClone(s));
      let next = building.next();
      while (next.done !== true) next = building.next();
      expect(next.value.waste).toEqual(wasteReport(states, options));
      checked += next.value.waste.length;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('the counters keep what fresh trackers find over the same states', () => {
    const policy = DEFAULT_POLICY;
    for (const steps of runs().slice(0, 40)) {
      const { states } = both(steps, policy);
      const retry = sharedRetryDetector();
      const stop = createEarlyStop(policy, { retry, history: true });
      for (const s of states) {
        retry.add(s);
        stop.add(s, 50);
        retry.endStep();
      }
      const episodes = createRetryEpisodeTracker();
      const loops = createRegressionTracker();
      const cycles = createCycleDetector(policy.cycle.minBlock, policy.cycle.maxBlock);
      for (const s of states) {
        episodes.add(s);
        loops.add(s);
        cycles.add(s);
      }
      const h = stop.history();
      expect(h.episodes).toEqual(episodes.episodes());
      expect(h.loops).toEqual(loops.loops());
      expect(h.cycles).toEqual({ minBlock: policy.cycle.minBlock, maxBlock: policy.cycle.maxBlock, runs: cycles.runs() });
    }
  });

  it('counters made without history hand over nothing (not an empty list, which would read as nothing found)', () => {
    const stop = createEarlyStop(DEFAULT_POLICY);
    const { states } = both(runs()[0]!, DEFAULT_POLICY);
    for (const s of states) stop.add(s, 50);
    expect(stop.history()).toEqual({});
  });
});

/**
 * Pattern detectors of the early-stop signals: blind-retry episodes,
 * regression loops, cyclic patterns and exploration-only streaks. Each is fed
 * one state at a time and returns the signals that fire at that state.
 */
import type { Policy } from '../policy.js';
import type { Signal, State } from '../types.js';
import { createCycleDetector } from '../waste/cycles.js';
import { createRegressionTracker } from '../waste/regression-loop.js';
import { createRetryEpisodeTracker } from '../waste/retry-episodes.js';
import { plural } from '../plural.js';
import { signalsFor } from './levels.js';

export type StateDetector = (state: State) => Signal[];

/** Fires when a blind-retry episode reaches `warn` / `stop` retries. */
export function blindRetryDetector(policy: Policy): StateDetector {
  const episodes = createRetryEpisodeTracker();
  return (state) => {
    const ep = episodes.add(state);
    if (ep === undefined) return [];
    return signalsFor('blind_retry', policy.blindRetry, ep.retries - 1, ep.retries, state.t, ep.steps, (sev) =>
      `${plural(ep.retries, 'blind retry', 'blind retries')} in a row (step ${ep.steps[0]} repeated with nothing changed; ${sev} threshold)`);
  };
}

/** Fires when a regression loop reaches `warn` / `stop` failed cycles. */
export function regressionLoopDetector(policy: Policy): StateDetector {
  const loops = createRegressionTracker();
  return (state) => {
    const loop = loops.add(state);
    if (loop === undefined) return [];
    const n = loop.cycles.length;
    return signalsFor('regression_loop', policy.regressionLoop, n - 1, n, state.t, loop.cycles.flat(), (sev) =>
      `${plural(n, 'edit → failing verification cycle')} on ${loop.file} (${sev} threshold)`);
  };
}

/** Fires when a block of states repeats `warn` / `stop` times in a row. */
export function cycleDetector(policy: Policy): StateDetector {
  const cycles = createCycleDetector(policy.cycle.minBlock, policy.cycle.maxBlock);
  return (state) => {
    const out: Signal[] = [];
    for (const run of cycles.add(state)) {
      out.push(...signalsFor('cycle', policy.cycle, run.reps - 1, run.reps, state.t, run.steps, (sev) =>
        `a block of ${plural(run.block, 'step')} repeated ${plural(run.reps, 'time')} in a row from step ${run.start} (${sev} threshold)`));
    }
    return out;
  };
}

/** Fires when consecutive E states (O states neutral) reach `warn` / `stop`. */
export function explorationStreakDetector(policy: Policy): StateDetector {
  let streak: number[] = [];
  return (state) => {
    if (state.stage === 'O') return [];
    if (state.stage !== 'E') {
      streak = [];
      return [];
    }
    streak.push(state.t);
    const n = streak.length;
    return signalsFor('exploration_streak', policy.explorationStreak, n - 1, n, state.t, streak, (sev) =>
      `${plural(n, 'exploration step')} in a row without implementing or verifying (${sev} threshold)`);
  };
}

/**
 * The counts behind the count-based stop kinds: fed one state at a time,
 * each reports the counts its episodes reach at that state (a retry episode's
 * retries, a regression loop's failed cycles, a cycle's repetitions, a
 * streak's length). A detector turns counts into signals at a policy's
 * levels; a profile records the first state at which each count is reached,
 * which gives the stop of every threshold at once (calibration, shadow mode).
 */
import type { Severity, State } from '../types.js';
import { plural } from '../plural.js';
import { createCycleDetector } from '../waste/cycles.js';
import { createRegressionTracker } from '../waste/regression-loop.js';
import { createRetryEpisodeTracker } from '../waste/retry-episodes.js';
import type { RetryDetector } from '../signals/repeats.js';

/** One episode's count at this state, the steps it spans and the signal text for a level. */
export interface Count {
  n: number;
  /** The episode's steps so far (read when a signal fires; the caller copies). */
  steps(): readonly number[];
  /** A function property: passed on detached. */
  message: (severity: Severity) => string;
}

/** Feeds a state, returns the counts reached at it (usually none or one). */
export type Counter = (state: State) => readonly Count[];

const NONE: readonly Count[] = [];

export function blindRetryCounter(retry?: RetryDetector): Counter {
  // The stop signals read what `add` returns; the closed episodes, loops and runs need not be kept (history off).
  const episodes = createRetryEpisodeTracker(retry, false);
  return (state) => {
    const ep = episodes.add(state);
    if (ep === undefined) return NONE;
    return [
      {
        n: ep.retries,
        steps: () => ep.steps,
        message: (sev) => `${plural(ep.retries, 'blind retry', 'blind retries')} in a row (step ${ep.steps[0]} repeated with nothing changed; ${sev} threshold)`,
      },
    ];
  };
}

export function regressionLoopCounter(): Counter {
  const loops = createRegressionTracker(false);
  return (state) => {
    const loop = loops.add(state);
    if (loop === undefined) return NONE;
    const n = loop.cycles.length;
    return [{ n, steps: () => loop.cycles.flat(), message: (sev) => `${plural(n, 'edit → failing verification cycle')} on ${loop.file} (${sev} threshold)` }];
  };
}

export function cycleCounter(minBlock: number, maxBlock: number): Counter {
  const cycles = createCycleDetector(minBlock, maxBlock, false);
  return (state) =>
    cycles.add(state).map((run) => ({
      n: run.reps,
      steps: () => run.steps,
      message: (sev: Severity) => `a block of ${plural(run.block, 'step')} repeated ${plural(run.reps, 'time')} in a row from step ${run.start} (${sev} threshold)`,
    }));
}

/** Consecutive E states; O states neither extend nor break a streak. */
export function explorationStreakCounter(): Counter {
  let streak: number[] = [];
  return (state) => {
    if (state.stage === 'O') return NONE;
    if (state.stage !== 'E') {
      streak = [];
      return NONE;
    }
    streak.push(state.t);
    const n = streak.length;
    const steps = streak;
    return [{ n, steps: () => steps, message: (sev) => `${plural(n, 'exploration step')} in a row without implementing or verifying (${sev} threshold)` }];
  };
}

/** Consecutive steps with no action at all (the model's turn held nothing to run: empty or unparsable output). */
export function noActionCounter(): Counter {
  let run: number[] = [];
  return (state) => {
    if (state.kind !== 'none') {
      run = [];
      return NONE;
    }
    run.push(state.t);
    const n = run.length;
    const steps = run;
    return [{ n, steps: () => steps, message: (sev) => `${plural(n, 'step')} in a row with no action to run (${sev} threshold)` }];
  };
}

/** For each count reached, the index of the first state that reached it. */
export function countProfile(states: readonly State[], counter: Counter): Map<number, number> {
  const first = new Map<number, number>();
  for (let i = 0; i < states.length; i++) {
    for (const c of counter(states[i]!)) if (!first.has(c.n)) first.set(c.n, i);
  }
  return first;
}

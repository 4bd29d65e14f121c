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
import type { WasteHistory } from '../waste/history.js';

/** One episode's count at this state, the steps it spans and the signal text for a level. */
export interface Count {
  n: number;
  /** The episode's steps so far (read only when a signal fires; the caller copies). A function property: passed on detached. */
  steps: () => readonly number[];
  /** A function property: passed on detached. */
  message: (severity: Severity) => string;
}

/**
 * Feeds a state, returns the counts reached at it (usually none or one). An object with a method, not a closure:
 * every session keeps one per count kind, and a class shares its method.
 */
export interface Counter {
  add(state: State): readonly Count[];
  /** What it found so far, for the waste report (a counter made with `history` on; waste/history.ts). */
  found?(): WasteHistory;
}

const NONE: readonly Count[] = [];

/**
 * `history`: keep the episodes (loops, runs) found for the waste report, which then reads them instead of
 * tracking them again (waste/history.ts); off, only what `add` returns is kept (the stop signals read nothing else).
 */
export function blindRetryCounter(retry?: RetryDetector, history = false): Counter {
  return new BlindRetries(retry, history);
}

const MAX_NAMED = 4;

/**
 * "step 10", "steps 10 and 8", "steps 10, 8, 5, 3 and 2 more": the states an episode's retries repeat (an episode of
 * consecutive retries may repeat several: naming only the first's told of step 10 where step 12 repeated step 8).
 */
function repeatedSteps(repeats: readonly number[]): string {
  if (repeats.length === 1) return `step ${repeats[0]}`;
  const named = repeats.slice(0, repeats.length > MAX_NAMED + 1 ? MAX_NAMED : repeats.length);
  const rest = repeats.length - named.length;
  return rest > 0 ? `steps ${named.join(', ')} and ${rest} more` : `steps ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

class BlindRetries implements Counter {
  private readonly episodes: ReturnType<typeof createRetryEpisodeTracker>;

  constructor(
    retry: RetryDetector | undefined,
    private readonly history: boolean,
  ) {
    this.episodes = createRetryEpisodeTracker(retry, history);
  }

  // Without history the tracker keeps no episode: nothing to hand over (an empty list would read as none found).
  found(): WasteHistory {
    return this.history ? { episodes: this.episodes.episodes() } : {};
  }

  add(state: State): readonly Count[] {
    const ep = this.episodes.add(state);
    if (ep === undefined) return NONE;
    return [
      {
        n: ep.retries,
        steps: () => ep.steps,
        message: (sev) => `${plural(ep.retries, 'blind retry', 'blind retries')} in a row (${repeatedSteps(ep.repeats)} repeated with nothing changed; ${sev} threshold)`,
      },
    ];
  }
}

export function regressionLoopCounter(history = false): Counter {
  return new RegressionLoops(history);
}

class RegressionLoops implements Counter {
  private readonly loops: ReturnType<typeof createRegressionTracker>;

  constructor(private readonly history: boolean) {
    this.loops = createRegressionTracker(history);
  }

  found(): WasteHistory {
    return this.history ? { loops: this.loops.loops() } : {};
  }

  add(state: State): readonly Count[] {
    const loop = this.loops.add(state);
    if (loop === undefined) return NONE;
    const n = loop.cycles.length;
    return [{ n, steps: () => loop.cycles.flat(), message: (sev) => `${plural(n, 'edit → failing verification cycle')} on ${loop.file} (${sev} threshold)` }];
  }
}

export function cycleCounter(minBlock: number, maxBlock: number, history = false): Counter {
  return new Cycles(minBlock, maxBlock, history);
}

class Cycles implements Counter {
  private readonly cycles: ReturnType<typeof createCycleDetector>;

  constructor(
    private readonly minBlock: number,
    private readonly maxBlock: number,
    private readonly history: boolean,
  ) {
    this.cycles = createCycleDetector(minBlock, maxBlock, history);
  }

  found(): WasteHistory {
    return this.history ? { cycles: { minBlock: this.minBlock, maxBlock: this.maxBlock, runs: this.cycles.runs() } } : {};
  }

  add(state: State): readonly Count[] {
    const grown = this.cycles.add(state);
    if (grown.length === 0) return NONE;
    return grown.map((run) => ({
      n: run.reps,
      steps: () => run.steps,
      message: (sev: Severity) => `a block of ${plural(run.block, 'step')} repeated ${plural(run.reps, 'time')} in a row from step ${run.start} (${sev} threshold)`,
    }));
  }
}

/**
 * Consecutive E states; O states neither extend nor break a streak. With `resetOnWrite` (the default policy's), an E
 * state that writes a file (a reproduction or test script created or edited before the first fix) breaks it like an
 * I or V state: the agent is building its verification, not only reading, and the signal says "without implementing
 * or verifying". Without it every E state counts, as the method's spec has it.
 */
export function explorationStreakCounter(resetOnWrite = true): Counter {
  return new ExplorationStreak(resetOnWrite);
}

class ExplorationStreak implements Counter {
  private streak: number[] = [];

  constructor(private readonly resetOnWrite: boolean) {}

  add(state: State): readonly Count[] {
    if (state.stage === 'O') return NONE;
    if (state.stage !== 'E' || (this.resetOnWrite && state.changesFile)) {
      // A new array only when the streak had steps (a Count returned earlier holds them): an empty one is kept, so
      // most steps allocate nothing that would live until the session's next step.
      if (this.streak.length > 0) this.streak = [];
      return NONE;
    }
    this.streak.push(state.t);
    const n = this.streak.length;
    const steps = this.streak;
    return [{ n, steps: () => steps, message: (sev) => `${plural(n, 'exploration step')} in a row without implementing or verifying (${sev} threshold)` }];
  }
}

/** Consecutive steps with no action at all (the model's turn held nothing to run: empty or unparsable output). */
export function noActionCounter(): Counter {
  return new NoAction();
}

class NoAction implements Counter {
  private run: number[] = [];

  add(state: State): readonly Count[] {
    if (state.kind !== 'none') {
      if (this.run.length > 0) this.run = []; // as in ExplorationStreak
      return NONE;
    }
    this.run.push(state.t);
    const n = this.run.length;
    const steps = this.run;
    return [{ n, steps: () => steps, message: (sev) => `${plural(n, 'step')} in a row with no action to run (${sev} threshold)` }];
  }
}

/** For each count reached, the index of the first state that reached it. */
export function countProfile(states: readonly State[], counter: Counter): Map<number, number> {
  const first = new Map<number, number>();
  for (let i = 0; i < states.length; i++) {
    for (const c of counter.add(states[i]!)) if (!first.has(c.n)) first.set(c.n, i);
  }
  return first;
}

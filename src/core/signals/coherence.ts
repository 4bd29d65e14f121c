/**
 * Trajectory coherence Φcoh (method.md section 6.3), O(1) per state (expected). Its blind
 * retries are the detector it shares with the waste report and early-stop signals (`repeats.ts`).
 */
import type { Stage } from '../types.js';
import { createRetryDetector, type RetryDetector } from './repeats.js';
import type { SignalTracker } from './tracker.js';

const ORDER: Record<Exclude<Stage, 'O'>, number> = { E: 0, I: 1, V: 2 };

export interface CoherenceCounts {
  pivots: number;
  confirms: number;
  backtracks: number;
  retries: number;
}

/** Φcoh in [0, 1] over the states added so far, and the transition counts behind it. */
export interface CoherenceTracker extends SignalTracker<number> {
  counts(): CoherenceCounts;
}

/**
 * Creates a coherence tracker. Transitions between consecutive states with
 * different stages: into O is a confirm; E→I, E→V, I→V a pivot; the reverse a
 * backtrack; out of O the new stage is compared with the last non-O stage
 * before the O run (later: pivot, earlier: backtrack, same or none: neither).
 */
export function createCoherenceTracker(epsilon: number, retry: RetryDetector = createRetryDetector()): CoherenceTracker {
  let n = 0;
  let prev: Stage | undefined;
  let lastNonO: Exclude<Stage, 'O'> | undefined;
  let pivots = 0;
  let confirms = 0;
  let backtracks = 0;
  let retries = 0;

  const compareTo = (from: Exclude<Stage, 'O'> | undefined, to: Exclude<Stage, 'O'>): void => {
    if (from === undefined || from === to) return;
    if (ORDER[to] > ORDER[from]) pivots += 1;
    else backtracks += 1;
  };

  return {
    add(state) {
      const stage = state.stage;
      if (prev !== undefined && prev !== stage) {
        if (stage === 'O') confirms += 1;
        else if (prev === 'O') compareTo(lastNonO, stage);
        else compareTo(prev, stage);
      }
      if (retry.add(state) !== undefined) retries += 1;
      if (stage !== 'O') lastNonO = stage;
      prev = stage;
      n += 1;
    },
    value() {
      if (n <= 1) return 0;
      const good = pivots + confirms;
      const v = (good / (good + backtracks + epsilon)) * (1 - retries / (n - 1));
      return Math.min(1, Math.max(0, v));
    },
    counts: () => ({ pivots, confirms, backtracks, retries }),
  };
}

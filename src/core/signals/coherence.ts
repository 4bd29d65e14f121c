/**
 * Trajectory coherence Φcoh (method.md section 6.3), O(1) per state (expected). Its blind
 * retries are the detector it shares with the waste report and early-stop signals (`repeats.ts`).
 */
import type { Stage, State } from '../types.js';
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
  return new Coherence(epsilon, retry);
}

/** A class, not an object of closures: every session keeps one, and shares the methods. */
class Coherence implements CoherenceTracker {
  private n = 0;
  private prev: Stage | undefined;
  private lastNonO: Exclude<Stage, 'O'> | undefined;
  private pivots = 0;
  private confirms = 0;
  private backtracks = 0;
  private retries = 0;

  constructor(
    private readonly epsilon: number,
    private readonly retry: RetryDetector,
  ) {}

  private compareTo(from: Exclude<Stage, 'O'> | undefined, to: Exclude<Stage, 'O'>): void {
    if (from === undefined || from === to) return;
    if (ORDER[to] > ORDER[from]) this.pivots += 1;
    else this.backtracks += 1;
  }

  add(state: State): void {
    const stage = state.stage;
    const prev = this.prev;
    if (prev !== undefined && prev !== stage) {
      if (stage === 'O') this.confirms += 1;
      else if (prev === 'O') this.compareTo(this.lastNonO, stage);
      else this.compareTo(prev, stage);
    }
    if (this.retry.add(state) !== undefined) this.retries += 1;
    if (stage !== 'O') this.lastNonO = stage;
    this.prev = stage;
    this.n += 1;
  }

  value(): number {
    const { n, pivots, confirms, backtracks, retries } = this;
    if (n <= 1) return 0;
    const good = pivots + confirms;
    const v = (good / (good + backtracks + this.epsilon)) * (1 - retries / (n - 1));
    return Math.min(1, Math.max(0, v));
  }

  counts(): CoherenceCounts {
    return { pivots: this.pivots, confirms: this.confirms, backtracks: this.backtracks, retries: this.retries };
  }
}

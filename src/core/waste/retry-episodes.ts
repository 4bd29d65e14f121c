/**
 * Blind-retry episodes (method.md sections 5.3 and 7): consecutive blind
 * retries grouped into one episode. O states that are not retries neither
 * extend nor break an episode; any other non-retry state closes it.
 */
import { createRetryDetector, type RetryDetector } from '../signals/repeats.js';
import type { State } from '../types.js';
import { appended } from '../memory/small-arrays.js';

export interface RetryEpisode {
  /** Sequence number of the episode (0-based), stable while it grows. */
  id: number;
  /** The earlier state the first retry repeats, then every retry of the episode. */
  steps: number[];
  /**
   * The earlier states the episode's retries repeat, in order, each once: steps[0], then the original of any later
   * retry that repeats a state before the episode (step 11 repeats 10, step 12 repeats 8: `[10, 8]`); a retry of a
   * retry of the episode (A A A) adds none.
   */
  repeats: number[];
  /** Number of retries (steps.length − 1). */
  retries: number;
  /** Tool of the first retry. */
  tool: string;
}

export interface RetryEpisodeTracker {
  /** Adds a state; returns the open episode when this state is a retry. */
  add(state: State): RetryEpisode | undefined;
  /** Every episode so far (the open one included; none when made with `history` off). */
  episodes(): RetryEpisode[];
}

/** `detector`: a retry detector to share (see sharedRetryDetector); `history`: keep the closed episodes for `episodes()`. */
export function createRetryEpisodeTracker(detector: RetryDetector = createRetryDetector(), history = true): RetryEpisodeTracker {
  return new RetryEpisodes(detector, history);
}

/** A class, not an object of closures: every session keeps one (its stop signals), and shares the methods. */
class RetryEpisodes implements RetryEpisodeTracker {
  private all: RetryEpisode[] = [];
  private open: RetryEpisode | undefined;
  private made = 0;

  constructor(
    private readonly detector: RetryDetector,
    private readonly history: boolean,
  ) {}

  add(state: State): RetryEpisode | undefined {
    const of = this.detector.add(state);
    if (of === undefined) {
      if (state.stage !== 'O') this.open = undefined;
      return undefined;
    }
    let open = this.open;
    if (open === undefined) {
      open = this.open = { id: this.made++, steps: [of], repeats: [of], retries: 0, tool: state.tool };
      if (this.history) this.all = appended(this.all, open);
    } else if (!open.steps.includes(of) && !open.repeats.includes(of)) open.repeats = appended(open.repeats, of);
    open.steps = appended(open.steps, state.t);
    open.retries += 1;
    return open;
  }

  episodes(): RetryEpisode[] {
    return this.all;
  }
}

/**
 * The one interface of an online signal (method.md section 5): fed a trajectory's states
 * in order, its value is always the signal of the prefix fed so far, equal to the signal
 * computed from scratch on that prefix (test/signals/conformance.test.ts checks each).
 */
import type { State } from '../types.js';

export interface SignalTracker<V, Extra extends unknown[] = []> {
  /** Adds the next state of the trajectory (with what the signal reads of its label, if anything). */
  add(state: State, ...extra: Extra): void;
  /** The signal of the states added so far. */
  value(): V;
}

/**
 * Early-stop signals (method.md section 8), fed one state and the running
 * score at a time. Each signal fires once per episode, at the step whose
 * state crosses its threshold; a warn and a stop on the same episode are two
 * signals. Low score re-arms when the score climbs back to the floor; each
 * budget fires once. The kinds and their detectors are listed in `kinds.ts`.
 */
import type { Policy } from '../policy.js';
import type { Signal, State } from '../types.js';
import { STOP_KINDS, type SharedState } from './kinds.js';
import type { StepDetector } from './detectors.js';
import type { WasteHistory } from '../waste/history.js';
import { appended } from '../memory/small-arrays.js';

export { crossed } from './levels.js';
export { COUNT_STOP_KINDS, STOP_KINDS, countStopKind, type CountKindKey, type CountStopKind, type SharedState, type StopKind } from './kinds.js';
export { countProfile, type Count, type Counter } from './counters.js';
export type { StepDetector } from './detectors.js';

export interface EarlyStop {
  /** Adds the next state with the composite (and the forecast pPass, if any) after it; returns the signals that fire now. */
  add(state: State, total: number, pPass?: number): Signal[];
  /** Every signal fired so far, in order. */
  signals(): readonly Signal[];
  /** What the count kinds' counters found so far (made with `shared.history`; waste/history.ts), as they hold it: copy before more states come. */
  history(): WasteHistory;
}

export function createEarlyStop(policy: Policy, shared?: SharedState): EarlyStop {
  return new Detectors(STOP_KINDS.map((k) => k.detector(policy, shared)));
}

/** A class, not an object of closures: every session keeps one, and shares the methods. */
class Detectors implements EarlyStop {
  private fired: Signal[] = [];

  constructor(private readonly detectors: readonly StepDetector[]) {}

  add(state: State, total: number, pPass?: number): Signal[] {
    let out: Signal[] | undefined;
    for (const d of this.detectors) {
      const s = d.add(state, total, pPass);
      if (s.length > 0) (out ??= []).push(...s);
    }
    if (out === undefined) return [];
    for (const s of out) this.fired = appended(this.fired, s);
    return out;
  }

  signals(): readonly Signal[] {
    return this.fired;
  }

  history(): WasteHistory {
    const out: WasteHistory = {};
    for (const d of this.detectors) if (d.found !== undefined) Object.assign(out, d.found());
    return out;
  }
}

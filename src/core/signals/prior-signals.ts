/**
 * The reference-free signals of issue 15, O(1) per state: Φfocus (1 − share
 * of E states), Φverify (a V state after the last file change) and Φbrevity
 * (L / (L + steps)). They need no PTA, so a task seen for the first time is
 * scored on more than its stage profile.
 */
import type { PriorSignals } from '../composite.js';
import type { State } from '../types.js';

export interface PriorSignalTracker {
  add(state: State): void;
  /** The signals of the states added so far (all 0 before any state). */
  value(): PriorSignals;
}

export function createPriorSignalTracker(brevitySteps: number): PriorSignalTracker {
  let n = 0;
  let explore = 0;
  let edited = false;
  let verified = false;
  return {
    add(s) {
      n += 1;
      if (s.stage === 'E') explore += 1;
      if (s.changesFile) {
        edited = true;
        verified = false;
      } else if (s.stage === 'V' && edited) verified = true;
    },
    value: () => (n === 0
      ? { focus: 0, verify: 0, brevity: 0 }
      : { focus: 1 - explore / n, verify: verified ? 1 : 0, brevity: brevitySteps / (brevitySteps + n) }),
  };
}

/**
 * The reference-free signals of issue 15, O(1) per state: Φfocus (1 − share
 * of E states), Φverify (a V state after the last file change), Φbrevity
 * (L / (L + steps)), Φedit (a non-test source file was changed) and Φsettle
 * (3 / (3 + the current exploration streak)). They need no PTA, so a task
 * seen for the first time is scored on more than its stage profile.
 */
import type { PriorSignals } from '../composite.js';
import type { SignalTracker } from './tracker.js';

/**
 * The exploration streak at which Φsettle is 0.5 **(choice)**: a few reads in
 * a row after an edit are normal; a run that ends (or stalls) on a long
 * streak of reads and searches has stopped converging.
 */
export const SETTLE_STEPS = 3;

/** `add(state, sourceEdit)`: `sourceEdit` is the state's label flag (a non-test, non-scratch source file changed); `value()` is all 0 before any state. */
export interface PriorSignalTracker extends SignalTracker<PriorSignals, [sourceEdit: boolean]> {
  /** Steps so far. */
  readonly length: number;
}

export function createPriorSignalTracker(brevitySteps: number): PriorSignalTracker {
  let n = 0;
  let explore = 0;
  let edited = false;
  let verified = false;
  let sourceEdited = false;
  // E states since the last I or V state; O states (submit, housekeeping) neither extend nor end it.
  let streak = 0;
  return {
    add(s, sourceEdit) {
      n += 1;
      if (s.stage === 'E') {
        explore += 1;
        streak += 1;
      } else if (s.stage !== 'O') streak = 0;
      if (sourceEdit) sourceEdited = true;
      if (s.changesFile) {
        edited = true;
        verified = false;
      } else if (s.stage === 'V' && edited) verified = true;
    },
    value: () =>
      n === 0
        ? { focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0 }
        : {
            focus: 1 - explore / n,
            verify: verified ? 1 : 0,
            brevity: brevitySteps / (brevitySteps + n),
            edit: sourceEdited ? 1 : 0,
            settle: SETTLE_STEPS / (SETTLE_STEPS + streak),
          },
    get length() {
      return n;
    },
  };
}

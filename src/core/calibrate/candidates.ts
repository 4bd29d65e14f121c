/** Candidate thresholds the calibration tries, per kind. */
import type { CalibrationKind } from './types.js';

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let x = from; x <= to; x += step) out.push(x);
  return out;
}

/** Default candidates: retries 2..12, loop cycles 2..8, cycle repetitions 2..8, streak 10..80 by 5, score floor 10..50 by 5. */
export const DEFAULT_CANDIDATES: Readonly<Record<CalibrationKind, readonly number[]>> = Object.freeze({
  blindRetry: range(2, 12),
  regressionLoop: range(2, 8),
  cycle: range(2, 8),
  explorationStreak: range(10, 80, 5),
  noAction: range(2, 5),
  lowScore: range(10, 50, 5),
});

/**
 * The stop kinds of a policy, in the order their signals are emitted. A new
 * kind is one entry here (its detector built from the policy) plus its field
 * in `Policy`; a count kind also names its counter, so calibration and shadow
 * mode can read every threshold's stop from one pass (`countProfile`).
 */
import type { Policy } from '../policy.js';
import type { SignalKind } from '../types.js';
import { blindRetryCounter, cycleCounter, explorationStreakCounter, noActionCounter, regressionLoopCounter, type Counter } from './counters.js';
import { budgetDetector, countDetector, lowForecastDetector, lowScoreDetector, type StepDetector } from './detectors.js';

/** Policy keys whose section is `Levels` (warn / stop at a count). */
export type CountKindKey = 'blindRetry' | 'regressionLoop' | 'cycle' | 'explorationStreak' | 'noAction';

export interface StopKind {
  key: keyof Policy;
  signal: SignalKind;
  detector(policy: Policy): StepDetector;
}

export interface CountStopKind extends StopKind {
  key: CountKindKey;
  /** A fresh counter for this kind under `policy` (only structural settings such as cycle block sizes are read). */
  counter(policy: Policy): Counter;
  /** Smallest meaningful threshold. */
  min: number;
}

function countKind(key: CountKindKey, signal: SignalKind, counter: (p: Policy) => Counter, min = 1): CountStopKind {
  return { key, signal, counter, min, detector: (p) => countDetector(signal, p[key], counter(p)) };
}

export const COUNT_STOP_KINDS: readonly CountStopKind[] = [
  countKind('blindRetry', 'blind_retry', () => blindRetryCounter()),
  countKind('regressionLoop', 'regression_loop', () => regressionLoopCounter()),
  countKind('cycle', 'cycle', (p) => cycleCounter(p.cycle.minBlock, p.cycle.maxBlock), 2),
  countKind('explorationStreak', 'exploration_streak', () => explorationStreakCounter()),
  countKind('noAction', 'no_action', () => noActionCounter()),
];

/** Every kind, in signal order. */
export const STOP_KINDS: readonly StopKind[] = [
  ...COUNT_STOP_KINDS,
  { key: 'lowScore', signal: 'low_score', detector: lowScoreDetector },
  { key: 'lowForecast', signal: 'low_forecast', detector: lowForecastDetector },
  { key: 'budget', signal: 'budget', detector: budgetDetector },
];

export function countStopKind(key: CountKindKey): CountStopKind {
  return COUNT_STOP_KINDS.find((k) => k.key === key)!;
}

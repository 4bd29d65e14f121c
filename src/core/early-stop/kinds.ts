/**
 * The stop kinds of a policy, in the order their signals are emitted. A new
 * kind is one entry here (its detector built from the policy) plus its field
 * in `Policy`; a count kind also names its counter, so calibration and shadow
 * mode can read every threshold's stop from one pass (`countProfile`).
 */
import type { Policy } from '../policy.js';
import type { SignalKind } from '../types.js';
import type { RetryDetector } from '../signals/repeats.js';
import { blindRetryCounter, cycleCounter, explorationStreakCounter, noActionCounter, regressionLoopCounter, type Counter } from './counters.js';
import { budgetDetector, countDetector, lowForecastDetector, lowScoreDetector, type StepDetector } from './detectors.js';

/** Policy keys whose section is `Levels` (warn / stop at a count). */
export type CountKindKey = 'blindRetry' | 'regressionLoop' | 'cycle' | 'explorationStreak' | 'noAction';

export interface StopKind {
  key: keyof Policy;
  signal: SignalKind;
  /** `shared`: state a detector may take from the scorer instead of keeping its own (a retry detector fed the same states). */
  detector(policy: Policy, shared?: SharedState): StepDetector;
}

/** What the scorer's signal trackers and the stop detectors can share. */
export interface SharedState {
  retry?: RetryDetector;
  /** Counters keep what they find for the waste report (counters.ts, waste/history.ts). */
  history?: boolean;
}

export interface CountStopKind extends StopKind {
  key: CountKindKey;
  /** A fresh counter for this kind under `policy` (only structural settings such as cycle block sizes are read). */
  counter(policy: Policy): Counter;
  /** Smallest meaningful threshold. */
  min: number;
}

function countKind(key: CountKindKey, signal: SignalKind, counter: (p: Policy, shared?: SharedState) => Counter, min = 1): CountStopKind {
  return { key, signal, counter, min, detector: (p, shared) => countDetector(signal, p[key], counter(p, shared)) };
}

export const COUNT_STOP_KINDS: readonly CountStopKind[] = [
  countKind('blindRetry', 'blind_retry', (_p, shared) => blindRetryCounter(shared?.retry, shared?.history)),
  countKind('regressionLoop', 'regression_loop', (_p, shared) => regressionLoopCounter(shared?.history)),
  countKind('cycle', 'cycle', (p, shared) => cycleCounter(p.cycle.minBlock, p.cycle.maxBlock, shared?.history), 2),
  countKind('explorationStreak', 'exploration_streak', (p) => explorationStreakCounter(p.explorationStreak.resetOnWrite)),
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

/**
 * Replays one run through the real early-stop detectors with a policy in
 * which only one kind is on, at `stop = threshold`, and reports where it fires.
 */
import { createEarlyStop } from '../early-stop/index.js';
import type { Policy } from '../policy.js';
import type { SignalKind } from '../types.js';
import type { CalibrationKind, CalibrationRun } from './types.js';

const SIGNAL_OF: Record<CalibrationKind, SignalKind> = {
  blindRetry: 'blind_retry',
  regressionLoop: 'regression_loop',
  cycle: 'cycle',
  explorationStreak: 'exploration_streak',
  noAction: 'no_action',
  lowScore: 'low_score',
};

const OFF = { warn: null, stop: null };

/** A policy with every signal off except `kind`, which stops at `threshold` (a score floor for `lowScore`). */
export function singleKindPolicy(kind: CalibrationKind, threshold: number, base: Policy): Policy {
  const at = { warn: null, stop: threshold };
  return {
    blindRetry: kind === 'blindRetry' ? at : OFF,
    regressionLoop: kind === 'regressionLoop' ? at : OFF,
    cycle: { ...(kind === 'cycle' ? at : OFF), minBlock: base.cycle.minBlock, maxBlock: base.cycle.maxBlock },
    explorationStreak: { ...(kind === 'explorationStreak' ? at : OFF), resetOnWrite: base.explorationStreak.resetOnWrite },
    noAction: kind === 'noAction' ? at : OFF,
    lowScore: kind === 'lowScore' ? { floor: threshold, minSteps: base.lowScore.minSteps, severity: 'stop' } : { floor: 0, minSteps: 0, severity: null },
    lowForecast: { ...base.lowForecast, severity: null },
    budget: { maxSteps: null, maxTokens: null, severity: 'stop' },
  };
}

/** Index of the state at which `policy`'s first stop of `kind` fires on `run`, or undefined. */
export function firstStop(run: CalibrationRun, kind: CalibrationKind, policy: Policy): number | undefined {
  const detector = createEarlyStop(policy);
  const signal = SIGNAL_OF[kind];
  for (let i = 0; i < run.states.length; i++) {
    const fired = detector.add(run.states[i]!, run.totals[i] ?? 0);
    if (fired.some((s) => s.kind === signal && s.severity === 'stop')) return i;
  }
  return undefined;
}

/**
 * Where each run would first be stopped, through the real early-stop engine:
 * by a whole policy (what the server does), or by one kind at one candidate
 * threshold (the grid's building blocks). Because the detectors of different
 * kinds share no state, a combined policy stops a run at the earliest of its
 * kinds' stops; `combineStops` computes that, and the full replay checks it.
 */
import { createEarlyStop } from '../early-stop/index.js';
import type { Policy } from '../policy.js';
import type { State } from '../types.js';
import { firstStop, singleKindPolicy } from './replay.js';
import type { LowScoreStop, ModeName, TradeoffRun } from './tradeoff-types.js';

/** Per run, the index of the state at which the first stop fires, or null. */
export type StopVector = ReadonlyArray<number | null>;

/** Index of the first state at which any `stop` signal of `policy` fires, or null. */
export function firstAnyStop(states: readonly State[], totals: readonly number[], policy: Policy): number | null {
  const detector = createEarlyStop(policy);
  for (let i = 0; i < states.length; i++) {
    if (detector.add(states[i]!, totals[i] ?? 0).some((s) => s.severity === 'stop')) return i;
  }
  return null;
}

/** Stops of a whole policy on every run in one mode. */
export function policyStops(runs: readonly TradeoffRun[], mode: ModeName, policy: Policy): StopVector {
  return runs.map((r) => firstAnyStop(r.states, r.totals[mode], policy));
}

/** Stops of one count kind at `threshold` (every other kind off); the same in every mode. */
export function countKindStops(runs: readonly TradeoffRun[], kind: 'blindRetry' | 'regressionLoop' | 'cycle' | 'explorationStreak' | 'noAction', threshold: number, base: Policy): StopVector {
  const policy = singleKindPolicy(kind, threshold, base);
  return runs.map((r) => firstStop({ states: r.states, totals: r.totals.referenceFree, passed: r.passed }, kind, policy) ?? null);
}

/** Stops of the low-score floor alone in one mode. */
export function lowScoreStops(runs: readonly TradeoffRun[], mode: ModeName, low: LowScoreStop, base: Policy): StopVector {
  const policy = singleKindPolicy('lowScore', low.floor, { ...base, lowScore: { ...base.lowScore, minSteps: low.minSteps } });
  return runs.map((r) => firstStop({ states: r.states, totals: r.totals[mode], passed: r.passed }, 'lowScore', policy) ?? null);
}

/** The earliest stop per run over several vectors (null when none stops). */
export function combineStops(vectors: readonly StopVector[], runs: number): Array<number | null> {
  const out: Array<number | null> = [];
  for (let i = 0; i < runs; i++) {
    let best: number | null = null;
    for (const v of vectors) {
      const x = v[i] ?? null;
      if (x !== null && (best === null || x < best)) best = x;
    }
    out.push(best);
  }
  return out;
}

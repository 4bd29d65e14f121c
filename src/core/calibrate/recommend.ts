/**
 * Choosing a level from a kind's table: the most aggressive candidate (the
 * smallest count, or for the low-score floor the largest floor) whose
 * false-stop rate on passing runs has an upper confidence bound within the
 * bound and that stops at least one failing run (a level that stops only
 * passing runs is pure cost).
 */
import { trialsForBound } from '../stats/binomial.js';
import { DEFAULT_BOUND, type BoundSpec } from './evaluate.js';
import type { LevelChoice, ThresholdRow } from './types.js';

/** Passing runs a bound needs before any recommendation is made: enough that none stopped puts the upper bound within it. */
export function minPassingFor(bound: number, spec: BoundSpec = DEFAULT_BOUND): number {
  return trialsForBound(spec.method, bound, spec.confidence);
}

/** Chooses one level (warn or stop) from `rows`; `direction` says which end is aggressive. */
export function chooseLevel(rows: readonly ThresholdRow[], direction: 'count' | 'floor', bound: number, runs: { passing: number; failing: number }, spec: BoundSpec = DEFAULT_BOUND): LevelChoice {
  const need = minPassingFor(bound, spec);
  if (runs.passing < need || runs.failing < 1) {
    return {
      threshold: null,
      bound,
      reason: 'too_few_runs',
      note: `${runs.passing} passing and ${runs.failing} failing runs; a false-stop bound of ${bound} at ${Math.round(spec.confidence * 100)}% confidence needs at least ${need} passing and 1 failing`,
    };
  }
  if (rows.every((r) => r.passingStopped === 0 && r.failingStopped === 0)) {
    return { threshold: null, bound, reason: 'never_fired', note: 'no run reached any candidate threshold: no evidence either way' };
  }
  const ordered = [...rows].sort((a, b) => (direction === 'count' ? a.threshold - b.threshold : b.threshold - a.threshold));
  const within = ordered.filter((r) => r.passingUpper !== null && r.passingUpper <= bound + 1e-12);
  const pick = within.find((r) => r.failingStopped > 0);
  if (pick === undefined) {
    const note = within.length === 0 ? `every candidate's upper bound exceeds ${bound} of passing runs` : `no candidate within the bound stops a failing run`;
    return { threshold: null, bound, reason: 'none_qualifies', note };
  }
  return { threshold: pick.threshold, bound };
}

/**
 * Choosing a level from a kind's table: the most aggressive candidate (the
 * smallest count, or for the low-score floor the largest floor) whose
 * false-stop rate on passing runs is within the bound and that stops at
 * least one failing run (a level that stops only passing runs is pure cost).
 */
import type { LevelChoice, ThresholdRow } from './types.js';

/** Passing runs a bound needs before any recommendation is made: enough that one false stop weighs at most the bound (capped at 100). */
export function minPassingFor(bound: number): number {
  return Math.min(100, Math.ceil(1 / Math.max(bound, 0.01) - 1e-9));
}

/** Chooses one level (warn or stop) from `rows`; `direction` says which end is aggressive. */
export function chooseLevel(
  rows: readonly ThresholdRow[],
  direction: 'count' | 'floor',
  bound: number,
  runs: { passing: number; failing: number },
): LevelChoice {
  const need = minPassingFor(bound);
  if (runs.passing < need || runs.failing < 1) {
    return { threshold: null, bound, reason: 'too_few_runs', note: `${runs.passing} passing and ${runs.failing} failing runs; a false-stop bound of ${bound} needs at least ${need} passing and 1 failing` };
  }
  if (rows.every((r) => r.passingStopped === 0 && r.failingStopped === 0)) {
    return { threshold: null, bound, reason: 'never_fired', note: 'no run reached any candidate threshold: no evidence either way' };
  }
  const ordered = [...rows].sort((a, b) => (direction === 'count' ? a.threshold - b.threshold : b.threshold - a.threshold));
  const within = ordered.filter((r) => r.passingRate !== null && r.passingRate <= bound);
  const pick = within.find((r) => r.failingStopped > 0);
  if (pick === undefined) {
    const note = within.length === 0
      ? `every candidate stops more than ${bound} of passing runs`
      : `no candidate within the bound stops a failing run`;
    return { threshold: null, bound, reason: 'none_qualifies', note };
  }
  return { threshold: pick.threshold, bound };
}

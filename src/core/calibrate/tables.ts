/** Per-threshold counts of one kind: false stops on passing runs, true stops and steps saved on failing runs. */
import type { Policy } from '../policy.js';
import { upperBound } from '../stats/binomial.js';
import { meanInterval, spread } from '../stats/bootstrap.js';
import { wilsonInterval } from '../stats/interval.js';
import { RatioDraws } from '../stats/ratio-draws.js';
import { DEFAULT_BOUND, type BoundSpec } from './evaluate.js';
import { firstStop, singleKindPolicy } from './replay.js';
import type { CalibrationKind, CalibrationRun, ThresholdRow } from './types.js';

const ratio = (k: number, of: number): number | null => (of === 0 ? null : k / of);

/**
 * The failing runs' bootstrap draws, made once per run set: every row's mean of steps saved over all failing runs is a
 * ratio over them (denominator 1 a run), which then costs its stopped runs a draw, not all 810 (a meanInterval per
 * row added ~20 % to calibrate's CPU).
 */
const drawsOf = new WeakMap<readonly CalibrationRun[], RatioDraws>();
function failingDraws(runs: readonly CalibrationRun[]): RatioDraws {
  let d = drawsOf.get(runs);
  if (d === undefined) {
    const n = runs.filter((r) => !r.passed).length;
    d = new RatioDraws(n, [new Float64Array(n).fill(1)]);
    drawsOf.set(runs, d);
  }
  return d;
}

/** Replays every run at one threshold of `kind`. */
export function thresholdRow(runs: readonly CalibrationRun[], kind: CalibrationKind, threshold: number, base: Policy, bound: BoundSpec = DEFAULT_BOUND): ThresholdRow {
  const policy = singleKindPolicy(kind, threshold, base);
  let passing = 0;
  let failing = 0;
  let passingStopped = 0;
  let failingStopped = 0;
  let saved = 0;
  // Steps saved by each stopped failing run ([failing index, steps]), for the intervals of the two means.
  const savedAt: Array<[number, number]> = [];
  const savedStopped: number[] = [];
  for (const run of runs) {
    const at = firstStop(run, kind, policy);
    if (run.passed) {
      passing += 1;
      if (at !== undefined) passingStopped += 1;
    } else {
      failing += 1;
      const s = at === undefined ? 0 : run.states.length - 1 - at;
      if (at !== undefined) {
        savedAt.push([failing - 1, s]);
        failingStopped += 1;
        saved += s;
        savedStopped.push(s);
      }
    }
  }
  return {
    threshold,
    passingStopped,
    failingStopped,
    passing,
    passingRate: ratio(passingStopped, passing),
    passingUpper: passing === 0 ? null : upperBound(bound.method, passingStopped, passing, bound.confidence),
    failingRate: ratio(failingStopped, failing),
    failing,
    failingInterval: failing === 0 ? null : wilsonInterval(failingStopped, failing),
    meanStepsSaved: ratio(saved, failing),
    meanStepsSavedInterval: saved === 0 ? null : spread(failingDraws(runs).interval(0, savedAt)),
    meanStepsSavedWhenStopped: ratio(saved, failingStopped),
    meanStepsSavedWhenStoppedInterval: spread(meanInterval(savedStopped)),
  };
}

/** One row per candidate threshold, in the order given. */
export function kindRows(runs: readonly CalibrationRun[], kind: CalibrationKind, candidates: readonly number[], base: Policy, bound: BoundSpec = DEFAULT_BOUND): ThresholdRow[] {
  return candidates.map((c) => thresholdRow(runs, kind, c, base, bound));
}

/** Per-threshold counts of one kind: false stops on passing runs, true stops and steps saved on failing runs. */
import type { Policy } from '../policy.js';
import { upperBound } from '../stats/binomial.js';
import { meanInterval, spread } from '../stats/bootstrap.js';
import { wilsonInterval } from '../stats/interval.js';
import { RatioDraws } from '../stats/ratio-draws.js';
import { DEFAULT_BOUND, type BoundSpec } from './evaluate.js';
import { firstStop, singleKindPolicy } from './replay.js';
import type { CalibrationKind, CalibrationRun, RowSources, ThresholdRow } from './types.js';

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

/** Per source, [passing runs, of them stopped]; the worst source by rate (ties: more passing runs, then name). */
function rowSources(counts: ReadonlyMap<string, [number, number]>, bound: BoundSpec): RowSources {
  let worst: RowSources['worst'] = null;
  let withPassing = 0;
  for (const [source, [passing, stopped]] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (passing === 0) continue;
    withPassing += 1;
    const rate = stopped / passing;
    if (worst === null || rate > worst.passingRate || (rate === worst.passingRate && passing > worst.passing))
      worst = { source, passingStopped: stopped, passing, passingRate: rate, passingUpper: upperBound(bound.method, stopped, passing, bound.confidence) };
  }
  return { sources: counts.size, withPassing, worst };
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
  // The pooled rates hide a source's: its passing runs counted apart (runs that name no source are not).
  const sources = new Map<string, [number, number]>();
  for (const run of runs) {
    const at = firstStop(run, kind, policy);
    if (run.source !== undefined) {
      const c = sources.get(run.source) ?? [0, 0];
      if (run.passed) c[0] += 1;
      if (run.passed && at !== undefined) c[1] += 1;
      sources.set(run.source, c);
    }
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
    ...(sources.size > 0 ? { bySource: rowSources(sources, bound) } : {}),
  };
}

/** One row per candidate threshold, in the order given. */
export function kindRows(runs: readonly CalibrationRun[], kind: CalibrationKind, candidates: readonly number[], base: Policy, bound: BoundSpec = DEFAULT_BOUND): ThresholdRow[] {
  return candidates.map((c) => thresholdRow(runs, kind, c, base, bound));
}

/**
 * The `lowForecast` stop rule (pPass < θ after N steps) checked held out,
 * under the rule `steplens calibrate` uses (core/calibrate/recommend.ts): a
 * point is supported only if the one-sided 95 % Clopper-Pearson upper bound
 * of its false-stop rate (passing runs stopped) is within the bound (5 %),
 * it stops at least one failing run, and there are enough passing runs for
 * the bound to be reachable at all (59 for 5 %), and no source loses more
 * than `sourceMax` of its passing runs (point estimate, calibrate's
 * `--source-max` rule, core/calibrate/tradeoff.ts; default 0.02 as under
 * `--portable`, since a forecaster's stop is meant for every source): a pooled
 * bound alone let one source carry every false stop (review s41: CodeR 4/64).
 * Among supported points, the one saving the most failing-run tokens is
 * recommended; without one, the recommendation is none, and the reason says why.
 */
import { DEFAULT_BOUND, type BoundSpec } from '../calibrate/evaluate.js';
import { PORTABLE_SOURCE_MAX } from '../calibrate/portable.js';
import { minPassingFor } from '../calibrate/recommend.js';
import { upperBound } from '../stats/binomial.js';
import { spread } from '../stats/bootstrap.js';
import type { Interval } from '../stats/interval.js';
import { RatioDraws } from '../stats/ratio-draws.js';

/** What the check reads of a run: outcome, source, pPass after each step, and each step's token cost. */
export interface StopRun {
  source: string;
  passed: boolean;
  pPass: ArrayLike<number>;
  costs: ArrayLike<number>;
}

export interface StopCounts {
  passing: number;
  failing: number;
  passingStopped: number;
  failingStopped: number;
  /** One-sided upper bound of passingStopped / passing (null without passing runs). */
  passingUpper: number | null;
}

export interface StopPoint extends StopCounts {
  floor: number;
  minSteps: number;
  /** Shares of the failing runs' steps and tokens after their stop step. */
  failingStepsSaved: number;
  failingTokensSaved: number;
  /** Their 95 % bootstrap intervals, resampling the failing runs (null: none saved, or under 5 failing runs; audit30). */
  failingStepsSavedInterval: Interval | null;
  failingTokensSavedInterval: Interval | null;
  /** The source with the largest share of its passing runs stopped (null: no passing run stopped). */
  worstSource: { source: string; passingStopped: number; passing: number } | null;
  /** Every source's passing runs stopped are within `sourceMax` of them. */
  withinSources: boolean;
  supported: boolean;
}

export interface StopEvaluation {
  bound: number;
  /** The largest share of any one source's passing runs a supported point may stop. */
  sourceMax: number;
  spec: BoundSpec;
  /** Passing runs the bound needs before any point can be supported. */
  minPassing: number;
  points: StopPoint[];
  /** The recommended point (null: none is supported) and why. */
  recommended: StopPoint | null;
  reason: string;
  /** The recommended point's counts per source. */
  bySource: Record<string, StopCounts>;
}

export const STOP_FLOORS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3];
export const STOP_MIN_STEPS = [5, 10, 20, 30];

/**
 * Index of the state at which the rule stops a run given its pPass per step,
 * or null: the first step t (1-based) with t >= minSteps and pPass < floor,
 * which is where the early-stop engine's `low_forecast` stop fires
 * (test/forecast/stop-eval.test.ts replays the engine to check it).
 */
export function forecastStop(pPass: ArrayLike<number>, floor: number, minSteps: number): number | null {
  for (let i = Math.max(0, minSteps - 1); i < pPass.length; i++) if (pPass[i]! < floor) return i;
  return null;
}

/** The sum of `xs` from index `from` on (a run's token costs after its stop step). */
export function sumFrom(xs: ArrayLike<number>, from: number): number {
  let s = 0;
  for (let i = from; i < xs.length; i++) s += xs[i]!;
  return s;
}

/** Passing and failing runs, and how many of each `stops` stops (null: not stopped), with the bound's upper bound. */
export function countsOf(runs: readonly StopRun[], stops: ReadonlyArray<number | null>, spec: BoundSpec): StopCounts {
  let passing = 0;
  let failing = 0;
  let ps = 0;
  let fs = 0;
  runs.forEach((r, i) => {
    if (r.passed) {
      passing += 1;
      if (stops[i] !== null) ps += 1;
    } else {
      failing += 1;
      if (stops[i] !== null) fs += 1;
    }
  });
  return { passing, failing, passingStopped: ps, failingStopped: fs, passingUpper: passing === 0 ? null : upperBound(spec.method, ps, passing, spec.confidence) };
}

/** Per source, passing runs stopped of its passing runs; the worst share, and whether every source is within the cap. */
export function perSource(runs: readonly StopRun[], stops: ReadonlyArray<number | null>, sourceMax: number): Pick<StopPoint, 'worstSource' | 'withinSources'> {
  const by = new Map<string, { passingStopped: number; passing: number }>();
  runs.forEach((r, i) => {
    if (!r.passed) return;
    const c = by.get(r.source) ?? { passingStopped: 0, passing: 0 };
    c.passing += 1;
    if (stops[i] !== null) c.passingStopped += 1;
    by.set(r.source, c);
  });
  let worst: StopPoint['worstSource'] = null;
  let within = true;
  for (const [source, c] of [...by].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // The cap calibrate's grid applies per source (tradeoff.ts `caps`).
    if (c.passingStopped > Math.floor(sourceMax * c.passing + 1e-9)) within = false;
    if (c.passingStopped === 0) continue;
    const rate = c.passingStopped / c.passing;
    if (worst === null || rate > worst.passingStopped / worst.passing + 1e-12) worst = { source, ...c };
  }
  return { worstSource: worst, withinSources: within };
}

/** Evaluates the grid on held-out pPass and recommends a point only under the bound and the per-source cap. */
export function evaluateForecastStop(runs: readonly StopRun[], bound = 0.05, spec: BoundSpec = DEFAULT_BOUND, sourceMax = PORTABLE_SOURCE_MAX): StopEvaluation {
  const failing = runs.filter((r) => !r.passed);
  const failSteps = failing.reduce((s, r) => s + r.pPass.length, 0);
  const failTokens = failing.reduce((s, r) => s + sumFrom(r.costs, 0), 0);
  const minPassing = minPassingFor(bound, spec);
  const all = countsOf(
    runs,
    runs.map(() => null),
    spec,
  );
  const enough = all.passing >= minPassing && all.failing >= 1;
  // One set of draws of the failing runs serves every point's two shares (steps: family 0, tokens: family 1).
  const draws = new RatioDraws(failing.length, [failing.map((r) => r.pPass.length), failing.map((r) => sumFrom(r.costs, 0))]);
  const failingIndex = new Map(failing.map((r, j) => [r, j]));
  const stopsAt = new Map<StopPoint, Array<number | null>>();
  const points: StopPoint[] = [];
  for (const floor of STOP_FLOORS) {
    for (const minSteps of STOP_MIN_STEPS) {
      const stops = runs.map((r) => forecastStop(r.pPass, floor, minSteps));
      let steps = 0;
      let tokens = 0;
      const stepNums: Array<[number, number]> = [];
      const tokenNums: Array<[number, number]> = [];
      runs.forEach((r, i) => {
        const at = stops[i];
        if (r.passed || at === null || at === undefined) return;
        const [s, t] = [r.pPass.length - at - 1, sumFrom(r.costs, at + 1)];
        steps += s;
        tokens += t;
        stepNums.push([failingIndex.get(r)!, s]);
        tokenNums.push([failingIndex.get(r)!, t]);
      });
      const c = countsOf(runs, stops, spec);
      const src = perSource(runs, stops, sourceMax);
      const supported = enough && c.passingUpper !== null && c.passingUpper <= bound + 1e-12 && c.failingStopped > 0 && src.withinSources;
      const p: StopPoint = {
        floor,
        minSteps,
        ...c,
        failingStepsSaved: failSteps > 0 ? steps / failSteps : 0,
        failingTokensSaved: failTokens > 0 ? tokens / failTokens : 0,
        failingStepsSavedInterval: steps === 0 ? null : spread(draws.interval(0, stepNums)),
        failingTokensSavedInterval: tokens === 0 ? null : spread(draws.interval(1, tokenNums)),
        ...src,
        supported,
      };
      points.push(p);
      stopsAt.set(p, stops);
    }
  }
  const recommended = points.filter((p) => p.supported).reduce<StopPoint | null>((best, p) => (best === null || p.failingTokensSaved > best.failingTokensSaved + 1e-12 ? p : best), null);
  const pct = (x: number) => `${Number((100 * x).toFixed(1))} %`;
  const worst = (p: StopPoint) => (p.worstSource === null ? 'none' : `${p.worstSource.source} ${p.worstSource.passingStopped} / ${p.worstSource.passing}`);
  // The best point the pooled bound alone would have recommended, to name the source that rules it out.
  const pooledOnly = points
    .filter((p) => enough && !p.withinSources && p.passingUpper !== null && p.passingUpper <= bound + 1e-12 && p.failingStopped > 0)
    .reduce<StopPoint | null>((best, p) => (best === null || p.failingTokensSaved > best.failingTokensSaved + 1e-12 ? p : best), null);
  const reason = !enough
    ? `${all.passing} passing and ${all.failing} failing runs held out; a false-stop bound of ${pct(bound)} at ${pct(spec.confidence)} confidence needs at least ${minPassing} passing and 1 failing`
    : recommended === null
      ? `no point's ${pct(spec.confidence)} upper bound of passing runs stopped is within ${pct(bound)}, with at most ${pct(sourceMax)} of any one source's passing runs stopped, while it stops a failing run` +
        (pooledOnly?.worstSource
          ? ` (pPass < ${pooledOnly.floor} after ${pooledOnly.minSteps} meets the pooled bound, ${pooledOnly.passingStopped} / ${pooledOnly.passing}, ` +
            `but stops ${pooledOnly.worstSource.passingStopped} / ${pooledOnly.worstSource.passing} of ${pooledOnly.worstSource.source}'s passing runs)`
          : '')
      : `the ${pct(spec.confidence)} upper bound of passing runs stopped, ${pct(recommended.passingUpper!)}, is within ${pct(bound)}, and no source loses more than ${pct(sourceMax)} of its passing runs (worst: ${worst(recommended)})`;
  const bySource = Object.create(null) as Record<string, StopCounts>;
  if (recommended !== null) {
    const stops = stopsAt.get(recommended)!;
    for (const s of [...new Set(runs.map((r) => r.source))].sort()) {
      const idx = runs.map((_, i) => i).filter((i) => runs[i]!.source === s);
      bySource[s] = countsOf(
        idx.map((i) => runs[i]!),
        idx.map((i) => stops[i]!),
        spec,
      );
    }
  }
  return { bound, sourceMax, spec, minPassing, points, recommended, reason, bySource };
}

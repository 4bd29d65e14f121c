/**
 * The lowForecast stop checked apart from its choice. `evaluateForecastStop`
 * picks the point that saves the most failing tokens among 24 and reports that
 * point's counts on the same runs: the pick is steered by the very runs that
 * count it (the winner's false stops are the lowest draw). Here each task
 * fold's runs are stopped by the point chosen on the other folds (none chosen
 * there: no stop in that fold), and the pooled counts of those stops are held
 * to the same bound and per-source cap. A recommendation whose choice does
 * not hold apart is withdrawn (train prints why), as `calibrate` no longer
 * writes a stop its own check rejected.
 */
import { spread } from '../stats/bootstrap.js';
import type { Interval } from '../stats/interval.js';
import { RatioDraws } from '../stats/ratio-draws.js';
import { countsOf, evaluateForecastStop, forecastStop, perSource, sumFrom, type StopCounts, type StopEvaluation, type StopPoint, type StopRun } from './stop-eval.js';

export interface StopApart {
  folds: number;
  /** Per fold, the point chosen on the other folds (null: none was supported there). */
  chosen: Array<{ floor: number; minSteps: number } | null>;
  /** Every run stopped (or not) by its fold's rule, pooled. */
  counts: StopCounts;
  failingTokensSaved: number;
  /** Its 95 % bootstrap interval, resampling the failing runs (null: none saved, or under 5 failing runs; audit30). */
  failingTokensSavedInterval: Interval | null;
  /** The source with the largest share of its passing runs stopped apart (null: none stopped). */
  worstSource: StopPoint['worstSource'];
  /** No passing run stopped, or the pooled upper bound within the bound; and every source within the cap. */
  holds: boolean;
}

/**
 * Chooses on every fold but one and applies to that one, for each fold. `fold[i]` is run i's task fold (0..k−1);
 * `bound`, `spec` and `sourceMax` as the evaluation used.
 */
export function checkStopApart(runs: readonly StopRun[], fold: readonly number[], k: number, e: StopEvaluation): StopApart {
  const chosen: StopApart['chosen'] = [];
  const stopAt: Array<number | null> = runs.map(() => null);
  for (let f = 0; f < k; f++) {
    const rest = runs.filter((_, i) => fold[i] !== f);
    const r = evaluateForecastStop(rest, e.bound, e.spec, e.sourceMax).recommended;
    chosen.push(r === null ? null : { floor: r.floor, minSteps: r.minSteps });
    if (r === null) continue;
    runs.forEach((run, i) => {
      if (fold[i] === f) stopAt[i] = forecastStop(run.pPass, r.floor, r.minSteps);
    });
  }
  const counts = countsOf(runs, stopAt, e.spec);
  const { worstSource, withinSources } = perSource(runs, stopAt, e.sourceMax);
  let tokens = 0;
  let saved = 0;
  const dens: number[] = [];
  const nums: Array<[number, number]> = [];
  runs.forEach((r, i) => {
    if (r.passed) return;
    tokens += sumFrom(r.costs, 0);
    dens.push(sumFrom(r.costs, 0));
    const at = stopAt[i];
    if (at === null || at === undefined) return;
    const t = sumFrom(r.costs, at + 1);
    saved += t;
    nums.push([dens.length - 1, t]);
  });
  return {
    folds: k,
    chosen,
    counts,
    failingTokensSaved: tokens > 0 ? saved / tokens : 0,
    failingTokensSavedInterval: saved === 0 ? null : spread(new RatioDraws(dens.length, [dens]).interval(0, nums)),
    worstSource,
    holds: withinSources && (counts.passingStopped === 0 || (counts.passingUpper !== null && counts.passingUpper <= e.bound + 1e-12)),
  };
}

/** The evaluation with its recommendation withdrawn, and why, when the choice does not hold apart. */
export function withApart(e: StopEvaluation, apart: StopApart): StopEvaluation & { apart: StopApart } {
  if (e.recommended === null || apart.holds) return { ...e, apart };
  const c = apart.counts;
  const pct = (x: number) => `${Number((100 * x).toFixed(1))} %`;
  const worst = apart.worstSource === null ? '' : `, ${apart.worstSource.source} ${apart.worstSource.passingStopped} / ${apart.worstSource.passing}`;
  const reason =
    `pPass < ${e.recommended.floor} after ${e.recommended.minSteps} is supported on the runs that chose it, but chosen on ${apart.folds - 1} task folds ` +
    `and applied to the one left out, each fold in turn, it stops ${c.passingStopped} / ${c.passing} passing runs (upper bound ${pct(c.passingUpper ?? 0)}${worst}): ` +
    `over ${pct(e.bound)} or ${pct(e.sourceMax)} of a source`;
  return { ...e, recommended: null, bySource: {}, reason, apart };
}

/**
 * bench/forecast-ecdf.ts's held-out scores: train's `leaveSourceAndTaskOut` (the runs of source s in task fold f by a
 * model fitted on the other sources' runs of the other folds, under the configuration chosen without s), with each
 * such model also scoring extra end rows of the same runs (the group-normalised rows `rank` could build), so the
 * transductive variant is the very model of the source-normalised one, only fed the group's ECDF.
 */
import { endScores, taskFolds, type HeldOut } from '../../src/core/forecast/crossfit.js';
import { compileModel, scoreOf } from '../../src/core/forecast/forecaster.js';
import { FEATURE_COUNT } from '../../src/core/forecast/features.js';
import { fitRanker, rankerModel, type FitConfig } from '../../src/core/forecast/fit.js';
import { sourceOf, type ForecastRun } from '../../src/core/forecast/run.js';
import { bestOfN, pickGroups, type BestOfN } from '../../src/core/stats/best-of-n.js';
import { bootstrapDraws, resamplable, resampleIndices, spread, type BootstrapOptions } from '../../src/core/stats/bootstrap.js';
import type { Interval } from '../../src/core/stats/interval.js';

/** `heldOutApart`'s scores (every row), and per extra row set the end score of each run it has a row for. */
export function heldOutWithExtra(
  runs: readonly ForecastRun[],
  configFor: (source: string) => FitConfig,
  k: number,
  seed: number,
  extra: ReadonlyArray<ReadonlyArray<Float64Array | null>>,
): { apart: HeldOut; extra: Array<Array<number | null>> } {
  const src = runs.map(sourceOf);
  const folds = taskFolds(
    runs.map((r) => r.task),
    k,
    seed,
  );
  const out: HeldOut['scores'] = runs.map(() => null);
  const more = extra.map(() => runs.map((): number | null => null));
  const both = (rs: readonly ForecastRun[]) => rs.some((r) => r.passed) && rs.some((r) => !r.passed);
  for (const s of [...new Set(src)].sort()) {
    for (let f = 0; f < k; f++) {
      if (!runs.some((r, i) => src[i] === s && folds.get(r.task) === f)) continue;
      const train = runs.filter((r, i) => src[i] !== s && folds.get(r.task) !== f);
      if (!both(train)) continue;
      const model = compileModel(rankerModel(fitRanker(train, configFor(s)), undefined));
      runs.forEach((r, i) => {
        if (src[i] !== s || folds.get(r.task) !== f) return;
        const z = new Float64Array(r.at.length);
        for (let j = 0; j < z.length; j++) z[j] = scoreOf(model, r.rows, j * FEATURE_COUNT);
        out[i] = z;
        extra.forEach((rows, e) => {
          const row = rows[i];
          if (row !== null && row !== undefined) more[e]![i] = scoreOf(model, row, 0);
        });
      });
    }
  }
  return { apart: { scores: out }, extra: more };
}

/** One run's end score for best-of-N: its group key is source + task (`cross`: the task alone, groups across sources). */
interface Scored {
  source: string;
  task: string;
  pass: boolean;
  score: number;
}
export function scoredOf(runs: readonly ForecastRun[], scores: ReadonlyArray<number | null>, cross = false): Scored[] {
  return runs.flatMap((r, i) => (scores[i] === null || scores[i] === undefined ? [] : [{ source: cross ? '*' : sourceOf(r), task: r.task, pass: r.passed, score: scores[i] }]));
}

export const bestOf = (s: readonly Scored[], boot: BootstrapOptions): BestOfN => bestOfN(s, boot);

/** Gap closed by `a` minus by `b` over the informative groups both rank (a passing and a failing run), groups resampled. */
export function pairedGap(a: readonly Scored[], b: readonly Scored[], boot: BootstrapOptions): { d: number | null; interval: Interval | null; n: number } {
  const inf = (s: readonly Scored[]) => pickGroups(s).filter((g) => g.passing > 0 && g.passing < g.runs);
  const other = new Map(inf(a).map((g) => [g.key, g]));
  const pairs = inf(b).flatMap((g) => (other.has(g.key) ? [{ d: other.get(g.key)!.top - g.top, gap: g.oracle - g.random }] : []));
  if (pairs.length === 0) return { d: null, interval: null, n: 0 };
  const stat = (xs: typeof pairs) => xs.reduce((x, p) => x + p.d, 0) / xs.reduce((x, p) => x + p.gap, 0);
  const interval = resamplable(pairs.length) ? spread(bootstrapDraws((random) => stat(resampleIndices(random, pairs.length).map((i) => pairs[i]!)), boot)) : null;
  return { d: stat(pairs), interval, n: pairs.length };
}

export { endScores };

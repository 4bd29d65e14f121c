/**
 * Intervals over runs that come in task clusters (docs/method.md section 16): runs of one task are not
 * independent (a task one attempt passes, the others mostly pass too), so a rate or a mean over a source that
 * ran some tasks more than once is measured with the task as the unit, as the within-source AUROC is.
 *
 * - A rate: Wilson's interval at the effective number of runs n / deff, where the design effect deff is the
 *   ratio of the task-cluster variance of the rate to the binomial one (at least 1: never narrower than
 *   Wilson; at most Kish's n² / Σ nᵢ², every task's runs all alike). With every run passing or every run failing
 *   nothing measures the within-task agreement, so the most conservative deff is taken.
 * - A mean: the percentile bootstrap resamples tasks, each with all its runs.
 *
 * Where no task has more than one run these are Wilson's interval and the run bootstrap. Where some task has
 * several runs but fewer than MIN_RESAMPLE_UNITS tasks hold them all, or Kish's effective number of tasks is below
 * it, there is no interval: 2 tasks are 2 units, however many runs they hold.
 */
import { bootstrapDraws, resamplable, type BootstrapOptions } from './bootstrap.js';
import { wilsonInterval, type Interval } from './interval.js';
import { randomIndex } from './rng.js';

/** One task's runs: `k` of its `n` runs have the outcome counted. */
export interface RateCluster {
  k: number;
  n: number;
}

/** The runs of each cluster key, in first-seen order (a null key: a cluster of its own). */
export function clustersBy<T>(items: readonly T[], key: (item: T) => string | null): T[][] {
  const by = new Map<string, T[]>();
  const alone: T[][] = [];
  for (const item of items) {
    const k = key(item);
    if (k === null) alone.push([item]);
    else {
      const runs = by.get(k);
      if (runs === undefined) by.set(k, [item]);
      else runs.push(item);
    }
  }
  return [...by.values(), ...alone];
}

/**
 * Kish's effective number of tasks, n² / Σ nᵢ² over the tasks' run counts: 20 tasks of which 2 hold 30 runs each
 * are about 3 tasks' worth. Below MIN_RESAMPLE_UNITS of them there is no interval, as with too few tasks (a rate
 * interval there covered 63 % of the time in a simulation of that design, with within-task correlation 0.8).
 */
function kishCount(sizes: readonly number[]): number {
  const n = sizes.reduce((s, x) => s + x, 0);
  return (n * n) / sizes.reduce((s, x) => s + x * x, 0);
}

/** Wilson's interval of Σk / Σn with the task clusters' design effect (null: no run, or too few tasks for clusters). */
export function clusteredRateInterval(clusters: readonly RateCluster[], level = 0.95): Interval | null {
  const cs = clusters.filter((c) => c.n > 0);
  const n = cs.reduce((s, c) => s + c.n, 0);
  const k = cs.reduce((s, c) => s + c.k, 0);
  if (n === 0) return null;
  if (cs.every((c) => c.n === 1)) return wilsonInterval(k, n, level);
  const m = cs.length;
  const kish = kishCount(cs.map((c) => c.n));
  if (!resamplable(m) || !resamplable(kish)) return null;
  const p = k / n;
  let effective = kish;
  if (k > 0 && k < n) {
    const clusterVar = ((m / (m - 1)) * cs.reduce((s, c) => s + (c.k - p * c.n) ** 2, 0)) / (n * n);
    const binomialVar = (p * (1 - p)) / n;
    effective = Math.min(n, Math.max(kish, n / Math.max(1, clusterVar / binomialVar)));
  }
  return wilsonInterval(p * effective, effective, level);
}

/** One run's part of a ratio of sums Σnum / Σden (e.g. a failing run's steps saved over its steps). */
export interface RatioPart {
  num: number;
  den: number;
}

/**
 * Bootstrap interval of Σnum / Σden over every part, resampling the clusters (each with all its parts): a share of
 * sums (steps saved of all failing runs' steps) is no mean of per-run shares, so the unit is drawn whole, num and
 * den together. Clusters of one part each: the runs resampled. Null as {@link clusteredMeanInterval}, and for a draw
 * whose Σden is 0.
 */
export function clusteredRatioInterval(clusters: ReadonlyArray<readonly RatioPart[]>, options: BootstrapOptions = {}): Interval | null {
  const cs = clusters.filter((c) => c.length > 0);
  if (!resamplable(cs.length)) return null;
  if (cs.some((c) => c.length > 1) && !resamplable(kishCount(cs.map((c) => c.length)))) return null;
  const nums = cs.map((c) => c.reduce((s, x) => s + x.num, 0));
  const dens = cs.map((c) => c.reduce((s, x) => s + x.den, 0));
  return bootstrapDraws((random) => {
    let s = 0;
    let d = 0;
    for (const _ of cs) {
      const j = randomIndex(random, cs.length);
      s += nums[j]!;
      d += dens[j]!;
    }
    return d === 0 ? null : s / d;
  }, options);
}

/** Bootstrap interval of the mean of every value, resampling the clusters (each with all its values): the ratio of their sum to their count. */
export function clusteredMeanInterval(clusters: ReadonlyArray<readonly number[]>, options: BootstrapOptions = {}): Interval | null {
  return clusteredRatioInterval(
    clusters.map((c) => c.map((x) => ({ num: x, den: 1 }))),
    options,
  );
}

/**
 * How well a score separates passing from failing runs, measured the way steplens reports it everywhere
 * (docs/method.md, "Measuring separation"): within source first. A source is one agent + model run set.
 * - within source: the AUROC of each source on its own runs, with n and a stratified bootstrap interval;
 *   the headline is their mean over the sources with at least `minPerClass` passing and failing runs.
 * - within task: the share of (passing, failing) pairs of the same source and task that the score orders
 *   right (ties count ½): what a trainer choosing among its own rollouts of one task sees.
 * - pooled: one AUROC over all runs, never alone: it also rewards telling sources apart, so it is printed
 *   beside `sourceOnly`, the pooled AUROC of a score that knows nothing but each run's source (every run
 *   gets its source's mean score).
 */
import { auroc } from './auroc.js';
import { aurocInterval, bootstrapDraws, oneScore, resamplable, spread, resamplableStrata, resampleIndices, resampleStrata, type BootstrapOptions } from './bootstrap.js';
import type { Interval } from './interval.js';
import type { Random } from './rng.js';

/** One run: its source (agent + model), task, outcome and score (higher = more likely to pass). */
export interface ScoredOutcome {
  source: string;
  task: string | null;
  pass: boolean;
  score: number;
}

/** One source's separation. */
export interface SourceSeparation {
  source: string;
  nPass: number;
  nFail: number;
  /** Null when the source lacks a passing or a failing run. */
  auroc: number | null;
  interval: Interval | null;
  /** True when the source has at least `minPerClass` runs of each outcome and so counts in the mean. */
  counted: boolean;
}

export interface SeparationOptions extends BootstrapOptions {
  /** The fewest passing and failing runs a source needs to count in the mean (default 3). */
  minPerClass?: number;
  /**
   * What the within-source and pooled intervals resample (default 'run': each source's passing and failing runs,
   * stratified). 'task': tasks, each with all its runs (a source's own tasks for its AUROC; tasks across sources for
   * the mean and the pooled figure, which share them), as the runs of one task are not independent: SWE-agent 0.x
   * ran each task 3 times, and resampling its runs drew an interval a fifth narrower. A run naming no task is a task of its own.
   */
  unit?: 'run' | 'task';
  /**
   * Also draw `sourceOnlyInterval` (default false: it costs one more bootstrap a call, and the forecaster's evaluation
   * calls this once a step; where it is not drawn the figure is a point and its printers say so).
   */
  sourceOnlyInterval?: boolean;
}

export const MIN_PER_CLASS = 3;

/** The three views of one score's separation. */
export interface Separation {
  withinSource: {
    /** Mean of the counted sources' AUROCs: the headline figure. Null when no source counts. */
    mean: number | null;
    interval: Interval | null;
    sources: SourceSeparation[];
    counted: number;
    minPerClass: number;
  };
  withinTask: {
    /** Concordance over (passing, failing) pairs of the same source and task. Null without such a pair. */
    auroc: number | null;
    interval: Interval | null;
    pairs: number;
    /** (source, task) groups holding at least one such pair. */
    tasks: number;
  };
  pooled: {
    auroc: number | null;
    interval: Interval | null;
    nPass: number;
    nFail: number;
    /** Pooled AUROC of each run's source mean: what telling sources apart alone earns. */
    sourceOnly: number | null;
    /**
     * Its 95 % interval, drawn as the pooled one (each draw's source means from the runs it drew; audit28: it printed
     * bare beside the pooled AUROC's interval). Null unless `sourceOnlyInterval` is asked, or with one source.
     */
    sourceOnlyInterval: Interval | null;
  };
}

const split = (runs: readonly ScoredOutcome[]): [number[], number[]] => [runs.filter((r) => r.pass).map((r) => r.score), runs.filter((r) => !r.pass).map((r) => r.score)];

/** The items of `xs` by `key`, in first-seen order of the keys. */
export function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = m.get(k);
    if (g) g.push(x);
    else m.set(k, [x]);
  }
  return m;
}

/** Concordant-pair count (ties ½) and pair count of positives against negatives. */
function concordance(pos: readonly number[], neg: readonly number[]): [number, number] {
  const a = auroc(pos, neg);
  return a === null ? [0, 0] : [a.u, a.nPos * a.nNeg];
}

/** The runs of each task (a run naming no task is one of its own), in first-seen order. */
const taskGroups = (runs: readonly ScoredOutcome[]): ScoredOutcome[][] => [...groupBy(runs, (r) => (r.task === null ? `\u0000${runs.indexOf(r)}` : JSON.stringify([r.task]))).values()];

/** Percentile interval of `stat` over draws of `groups` with replacement (null below MIN_RESAMPLE_UNITS groups). */
function clusterInterval(groups: ReadonlyArray<readonly ScoredOutcome[]>, stat: (runs: readonly ScoredOutcome[]) => number | null, options: BootstrapOptions): Interval | null {
  if (!resamplable(groups.length)) return null;
  return spread(bootstrapDraws((random) => stat(resampleIndices(random, groups.length).flatMap((i) => groups[i]!)), options));
}

const aurocOf = (rs: readonly ScoredOutcome[]): number | null => {
  const [p, n] = split(rs);
  return auroc(p, n)?.auroc ?? null;
};

/** Each run scored by its source's mean score over `runs`. */
function sourceMeans(runs: readonly ScoredOutcome[]): [number[], number[]] {
  const sums = new Map<string, [number, number]>();
  for (const r of runs) {
    const s = sums.get(r.source);
    if (s) {
      s[0] += r.score;
      s[1] += 1;
    } else sums.set(r.source, [r.score, 1]);
  }
  const meanOf = (r: ScoredOutcome) => {
    const [sum, n] = sums.get(r.source)!; // every run's source was summed above
    return sum / n;
  };
  return [runs.filter((r) => r.pass).map(meanOf), runs.filter((r) => !r.pass).map(meanOf)];
}

/** The AUROC of knowing only each run's source, the means taken over `runs` (one draw's runs in a bootstrap). */
const sourceOnlyOf = (runs: readonly ScoredOutcome[]): number | null => {
  const [p, n] = sourceMeans(runs);
  return auroc(p, n)?.auroc ?? null;
};

/** The within-source, within-task and pooled separation of `runs` (deterministic for a seed). */
export function separation(runs: readonly ScoredOutcome[], options: SeparationOptions = {}): Separation {
  const minPerClass = options.minPerClass ?? MIN_PER_CLASS;
  const byTask = options.unit === 'task';
  const bySource = [...groupBy(runs, (r) => r.source)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sources: SourceSeparation[] = bySource.map(([source, rs]) => {
    const [pos, neg] = split(rs);
    const ownInterval = byTask
      ? !resamplableStrata(pos.length, neg.length) || auroc(pos, neg) === null || oneScore(pos, neg)
        ? null
        : clusterInterval(taskGroups(rs), aurocOf, options)
      : aurocInterval(pos, neg, options);
    return {
      source,
      nPass: pos.length,
      nFail: neg.length,
      auroc: auroc(pos, neg)?.auroc ?? null,
      interval: ownInterval,
      counted: pos.length >= minPerClass && neg.length >= minPerClass,
    };
  });
  const countedStrata = bySource.filter((_, i) => sources[i]!.counted).map(([, rs]) => split(rs));
  const meanOf = (strata: ReadonlyArray<[number[], number[]]>): number | null => {
    if (strata.length === 0) return null;
    let s = 0;
    for (const [p, n] of strata) {
      const a = auroc(p, n);
      if (a === null) return null; // a NaN score: no mean of orders
      s += a.auroc;
    }
    return s / strata.length;
  };
  const mean = meanOf(countedStrata);
  // A side of one run resamples to itself: no interval (minPerClass may be set below MIN_PER_SIDE).
  // Every counted source scoring all its runs alike: a mean of 0.5s by construction, nothing to draw an interval of.
  const drawable = countedStrata.every(([p, n]) => resamplableStrata(p.length, n.length)) && !countedStrata.every(([p, n]) => oneScore(p, n));
  const countedNames = new Set(sources.filter((x) => x.counted).map((x) => x.source));
  // By task: one draw of tasks across the counted sources (they share tasks); a source a draw leaves without both outcomes: no value.
  const meanOfRuns = (rs: readonly ScoredOutcome[]): number | null => {
    const by = groupBy(rs, (r) => r.source);
    if (by.size < countedNames.size) return null;
    return meanOf([...by.values()].map(split));
  };
  const withinSource = {
    mean,
    interval:
      mean === null || !drawable
        ? null
        : byTask
          ? clusterInterval(taskGroups(runs.filter((r) => countedNames.has(r.source))), meanOfRuns, options)
          : spread(bootstrapDraws((random) => meanOf(countedStrata.map(([p, n]) => resampleStrata(random, p, n))), options)),
    sources,
    counted: countedStrata.length,
    minPerClass,
  };
  return { withinSource, withinTask: withinTask(runs, options), pooled: pooled(runs, bySource, options, byTask) };
}

function withinTask(runs: readonly ScoredOutcome[], options: BootstrapOptions): Separation['withinTask'] {
  const strata = [
    ...groupBy(
      runs.filter((r) => r.task !== null),
      (r) => JSON.stringify([r.source, r.task]),
    ).values(),
  ]
    .map(split)
    .filter(([p, n]) => p.length > 0 && n.length > 0);
  const groups = strata.map(([p, n]) => concordance(p, n));
  const ratio = (gs: ReadonlyArray<[number, number]>): number | null => {
    let u = 0;
    let pairs = 0;
    for (const [gu, gp] of gs) {
      u += gu;
      pairs += gp;
    }
    return pairs === 0 ? null : u / pairs;
  };
  const pairs = groups.reduce((s, [, p]) => s + p, 0);
  if (runs.some((r) => Number.isNaN(r.score))) return { auroc: null, interval: null, pairs, tasks: groups.length };
  // Tasks are the unit of resampling: pairs of one task are not independent of each other. Below MIN_RESAMPLE_UNITS tasks: no interval.
  // Every pair a tie (each group scores all its runs alike): 0.5 by construction, in every draw too.
  const allTies = strata.every(([p, n]) => oneScore(p, n));
  const interval = !resamplable(groups.length) || allTies ? null : spread(bootstrapDraws((random: Random) => ratio(resampleIndices(random, groups.length).map((i) => groups[i]!)), options));
  return { auroc: ratio(groups), interval, pairs, tasks: groups.length };
}

function pooled(runs: readonly ScoredOutcome[], bySource: ReadonlyArray<[string, ScoredOutcome[]]>, options: SeparationOptions, byTask: boolean): Separation['pooled'] {
  const [pos, neg] = split(runs);
  const [sPos, sNeg] = sourceMeans(runs);
  const sourceOnly = auroc(sPos, sNeg)?.auroc ?? null;
  return {
    auroc: auroc(pos, neg)?.auroc ?? null,
    interval: byTask
      ? !resamplableStrata(pos.length, neg.length) || auroc(pos, neg) === null || oneScore(pos, neg)
        ? null
        : clusterInterval(taskGroups(runs), aurocOf, options)
      : aurocInterval(pos, neg, options),
    nPass: pos.length,
    nFail: neg.length,
    sourceOnly,
    sourceOnlyInterval: options.sourceOnlyInterval === true && bySource.length > 1 && sourceOnly !== null ? sourceOnlyInterval(runs, options, byTask) : null,
  };
}

/** The source-only AUROC's interval: tasks resampled (byTask) or each outcome's runs, the source means drawn anew each time. */
function sourceOnlyInterval(runs: readonly ScoredOutcome[], options: SeparationOptions, byTask: boolean): Interval | null {
  if (byTask) return clusterInterval(taskGroups(runs), sourceOnlyOf, options);
  const pass = runs.filter((r) => r.pass);
  const fail = runs.filter((r) => !r.pass);
  if (!resamplableStrata(pass.length, fail.length)) return null;
  return spread(bootstrapDraws((random) => sourceOnlyOf([...resampleIndices(random, pass.length).map((i) => pass[i]!), ...resampleIndices(random, fail.length).map((i) => fail[i]!)]), options));
}

/**
 * Best-of-N selection: among N runs of one task by one source (N rollouts), pick the top-scored one.
 * Per group (source + task, at least 2 runs): the top pick resolves (ties at the top: the share of the
 * tied runs that pass), a random pick resolves with the group's pass rate (its expectation), the oracle
 * resolves when any run passes. `gapClosed` = (top − random) / (oracle − random): 0 is no better than
 * chance, 1 is the oracle. Intervals resample the groups (a task is the unit), seeded; none below MIN_RESAMPLE_UNITS groups,
 * nor where every draw gives the same value (`spread`). Only groups with a
 * passing and a failing run (`informative`) move the gap: all-pass and all-fail groups add 0 to both sides.
 */
import { bootstrapDraws, resamplable, resampleIndices, spread, type BootstrapOptions } from './bootstrap.js';
import type { Interval } from './interval.js';
import type { ScoredOutcome } from './separation.js';

/** One group's three picks (expected resolved, each in [0, 1]). */
export interface GroupPick {
  key: string;
  runs: number;
  passing: number;
  top: number;
  random: number;
  oracle: number;
}

/** The totals over groups, each with a bootstrap interval of its rate (resolved / groups). */
export interface BestOfN {
  groups: number;
  runs: number;
  /** Groups with a passing and a failing run: the n of `gapClosed` (the others add nothing to it). */
  informative: number;
  /** Null figures when a run's score is NaN (an unscored run cannot be ranked). */
  top: { resolved: number | null; rate: number | null; interval: Interval | null };
  random: { resolved: number; rate: number | null; interval: Interval | null };
  oracle: { resolved: number; rate: number | null; interval: Interval | null };
  /** Null when the oracle gains nothing over a random pick (every group all-pass or all-fail). */
  gapClosed: number | null;
  /** Null below MIN_RESAMPLE_UNITS informative groups: resampling 2 or 3 such groups gives their own gap nearly every time, a zero-width "interval". */
  gapInterval: Interval | null;
}

/** The picks of one group of runs (at least one run). */
export function groupPick(key: string, runs: readonly ScoredOutcome[]): GroupPick {
  const best = Math.max(...runs.map((r) => r.score));
  const tied = runs.filter((r) => r.score === best);
  const passing = runs.filter((r) => r.pass).length;
  return { key, runs: runs.length, passing, top: tied.filter((r) => r.pass).length / tied.length, random: passing / runs.length, oracle: passing > 0 ? 1 : 0 };
}

/** The groups of `runs` by source + task with at least `minRuns` (default 2) runs, in key order. */
export function pickGroups(runs: readonly ScoredOutcome[], minRuns = 2): GroupPick[] {
  const m = new Map<string, ScoredOutcome[]>();
  for (const r of runs) {
    if (r.task === null) continue;
    const k = JSON.stringify([r.source, r.task]);
    const g = m.get(k);
    if (g) g.push(r);
    else m.set(k, [r]);
  }
  return [...m]
    .filter(([, g]) => g.length >= minRuns)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, g]) => groupPick(k, g));
}

function sums(gs: readonly GroupPick[]): { top: number; random: number; oracle: number } {
  let top = 0;
  let random = 0;
  let oracle = 0;
  for (const g of gs) {
    top += g.top;
    random += g.random;
    oracle += g.oracle;
  }
  return { top, random, oracle };
}

const gap = (s: { top: number; random: number; oracle: number }): number | null => (s.oracle - s.random > 1e-12 ? (s.top - s.random) / (s.oracle - s.random) : null);

/** Best-of-N over the source + task groups of `runs`. */
export function bestOfN(runs: readonly ScoredOutcome[], options: BootstrapOptions & { minRuns?: number } = {}): BestOfN {
  const gs = pickGroups(runs, options.minRuns);
  const s = sums(gs);
  const n = gs.length;
  // Groups are the unit of resampling: 2 or 3 groups resample to a handful of values, so no interval below MIN_RESAMPLE_UNITS groups.
  const rateInterval = (field: 'top' | 'random' | 'oracle'): Interval | null =>
    !resamplable(n) ? null : spread(bootstrapDraws((random) => sums(resampleIndices(random, n).map((i) => gs[i]!))[field] / n, options));
  const figures = (field: 'top' | 'random' | 'oracle') => ({ resolved: s[field], rate: n === 0 ? null : s[field] / n, interval: rateInterval(field) });
  const ranked = !Number.isNaN(s.top);
  const informative = gs.filter((g) => g.passing > 0 && g.passing < g.runs).length;
  return {
    groups: n,
    runs: gs.reduce((a, g) => a + g.runs, 0),
    informative,
    top: ranked ? figures('top') : { resolved: null, rate: null, interval: null },
    random: figures('random'),
    oracle: figures('oracle'),
    gapClosed: ranked ? gap(s) : null,
    gapInterval: !resamplable(informative) || !ranked ? null : spread(bootstrapDraws((random) => gap(sums(resampleIndices(random, n).map((i) => gs[i]!))), options)),
  };
}

/**
 * Choosing the reference-free composite's weights (issue 15, deliverable 1)
 * by leave-one-source-out AUROC: for each source (agent + model), the grid
 * point chosen on the OTHER sources scores it; the result is set beside run
 * length alone, the paper's weights (Φcoh 0.30, Φtemp 0.35 renormalised) and
 * each signal alone. AUROC is taken within a source because sources differ
 * in pass rate and typical length: pooling them would reward telling sources
 * apart, not runs.
 *
 * The choice maximises the worst margin over run length alone across the
 * training sources (ties: the larger mean margin, then the earlier point):
 * the target is to beat run length on every unseen source, and a mean would
 * let one easy source carry the others.
 */
import { priorTotal, priorWeightSum } from '../composite.js';
import type { PriorWeights } from '../config.js';
import { auroc } from '../stats/auroc.js';
import { sortedAuroc, type ScoredGroup } from './grid-auroc.js';
import type { Interval } from '../stats/interval.js';
import { chooseMaximin, heldOutGroups } from './maximin.js';

/** The reference-free signals, in the order of `PriorWeights` (the grid's axes). */
export const PRIOR_SIGNAL_NAMES = ['coh', 'temp', 'focus', 'verify', 'brevity', 'edit', 'settle'] as const;
export type PriorSignalName = (typeof PRIOR_SIGNAL_NAMES)[number];

/** One run's final reference-free signals (brevity is derived from `steps` and L). */
export interface PriorSample {
  source: string;
  /** The run's task, the unit the intervals resample (prior-intervals.ts); none: a task of its own. */
  task?: string;
  passed: boolean;
  coh: number;
  temp: number;
  focus: number;
  verify: number;
  edit: number;
  settle: number;
  steps: number;
}

export interface PriorChoice {
  weights: PriorWeights;
  brevitySteps: number;
}

export interface SourceResult {
  source: string;
  runs: number;
  passing: number;
  /** Weights chosen without this source (the choice on every source when `heldOutPossible` is false). */
  chosen: PriorChoice;
  /** AUROC on this source of the weights chosen without it; null when no source can be left out. */
  heldOut: number | null;
  lengthAlone: number | null;
  paper: number | null;
  /** The choice made on every source (in-sample for this one). */
  final: number | null;
  /** Each signal alone (brevity alone is run length alone). */
  single: Record<Exclude<PriorSignalName, 'brevity'>, number | null>;
}

export interface PriorWeightsReport {
  /** Sources with fewer runs than this (or one outcome only) are pooled into `other`. */
  minRuns: number;
  /** What the choice maximises over the training sources. */
  objective: 'worst margin over run length alone (ties: mean margin)';
  sources: SourceResult[];
  /** Means over sources of the held-out, length, paper, in-sample and single-signal AUROCs. */
  mean: { heldOut: number | null; lengthAlone: number | null; paper: number | null; final: number | null; single: SourceResult['single'] };
  /** Chosen on every source: what to ship. */
  chosen: PriorChoice;
  /**
   * False when fewer than 2 groups have both passing and failing runs (every source pooled into `other`, one source,
   * or the others all of one outcome, where every grid point ties): nothing can be left out and chosen without, so
   * there is no held-out figure and every AUROC here is measured on the runs the weights were chosen on.
   */
  heldOutPossible: boolean;
  /** 95 % intervals of the AUROCs above, tasks resampled (prior-intervals.ts); absent where not drawn. */
  intervals?: PriorIntervals;
}

/** The columns given an interval (prior-intervals.ts): held out, run length alone, the paper's weights, the choice on every source, each signal alone. */
export type PriorColumn = 'heldOut' | 'lengthAlone' | 'paper' | 'final' | Exclude<PriorSignalName, 'brevity'>;

export interface PriorIntervals {
  /** Per source (the report's names, `other` included), per column; null below the resampling floor. */
  bySource: Record<string, Record<PriorColumn, Interval | null>>;
  mean: Record<PriorColumn, Interval | null>;
}

export const OTHER_SOURCE = 'other';
const ZERO: PriorWeights = { coh: 0, temp: 0, focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0 };
export const PAPER_PRIOR_WEIGHTS: PriorWeights = { ...ZERO, coh: 0.3, temp: 0.35 };
export const SINGLE_SIGNALS = PRIOR_SIGNAL_NAMES.filter((n): n is Exclude<PriorSignalName, 'brevity'> => n !== 'brevity');

/** Simplex grid over the seven weights (step 0.1) × brevity lengths; points without brevity once. */
export function priorGrid(lengths: readonly number[] = [15, 30, 60], step = 0.1): PriorChoice[] {
  const n = Math.round(1 / step);
  const k = PRIOR_SIGNAL_NAMES.length;
  const out: PriorChoice[] = [];
  const parts: number[] = [];
  const emit = (L: number) => {
    const w = { ...ZERO };
    PRIOR_SIGNAL_NAMES.forEach((name, i) => {
      w[name] = Number((parts[i]! / n).toFixed(10));
    });
    out.push({ weights: w, brevitySteps: L });
  };
  const walk = (i: number, left: number, L: number) => {
    if (i === k - 1) {
      parts[i] = left;
      // Without brevity the length does not matter: keep one copy of those points.
      if (parts[PRIOR_SIGNAL_NAMES.indexOf('brevity')] === 0 && L !== lengths[0]) return;
      emit(L);
      return;
    }
    for (let a = 0; a <= left; a++) {
      parts[i] = a;
      walk(i + 1, left - a, L);
    }
  };
  for (const L of lengths) walk(0, n, L);
  return out;
}

/** The composite a run would get under `c` (the scorer's own formula, so ties are the scorer's ties). */
export function priorScore(s: PriorSample, c: PriorChoice): number {
  const L = c.brevitySteps;
  return priorTotal(c.weights, priorWeightSum(c.weights), s.coh, s.temp, s.focus, s.verify, L / (L + s.steps), s.edit, s.settle);
}

function aurocBy(samples: readonly PriorSample[], score: (s: PriorSample) => number): number | null {
  return auroc(samples.filter((s) => s.passed).map(score), samples.filter((s) => !s.passed).map(score))?.auroc ?? null;
}

function mean(xs: ReadonlyArray<number | null>): number | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

/** Groups samples by source, pooling small or one-outcome sources into `other`. */
export function groupSources(samples: readonly PriorSample[], minRuns: number): Map<string, PriorSample[]> {
  const by = new Map<string, PriorSample[]>();
  for (const s of samples) {
    const list = by.get(s.source);
    if (list) list.push(s);
    else by.set(s.source, [s]);
  }
  const out = new Map<string, PriorSample[]>();
  for (const [k, v] of by) {
    const ok = v.length >= minRuns && v.some((s) => s.passed) && v.some((s) => !s.passed);
    const key = ok ? k : OTHER_SOURCE;
    out.set(key, [...(out.get(key) ?? []), ...v]);
  }
  return out;
}

/** Leave-one-source-out choice of the reference-free weights. */
export function choosePriorWeights(samples: readonly PriorSample[], minRuns = 20, grid = priorGrid()): PriorWeightsReport {
  const groups = groupSources(samples, minRuns);
  const names = [...groups.keys()].sort();
  const scored: Array<ScoredGroup<PriorSample>> = names.map((n) => ({ pos: groups.get(n)!.filter((s) => s.passed), neg: groups.get(n)!.filter((s) => !s.passed) }));
  const lengthAlone = names.map((n) => aurocBy(groups.get(n)!, (s) => -s.steps));
  const dens = grid.map((c) => priorWeightSum(c.weights));
  const all = names.map((_, i) => i);
  // One pass over the grid chooses for every training set at once: all sources (what ships), and each source left out.
  const sets = [all, ...(names.length > 1 ? all.map((i) => all.filter((j) => j !== i)) : [])];
  const picks = chooseMaximin(
    scored.map((g, i) => ({ ...g, baseline: lengthAlone[i] ?? null })),
    grid.length,
    (s, k) => priorTotal(grid[k]!.weights, dens[k]!, s.coh, s.temp, s.focus, s.verify, grid[k]!.brevitySteps / (grid[k]!.brevitySteps + s.steps), s.edit, s.settle),
    sets,
  );
  const final = grid[picks[0]!]!;
  // A source is held out only where another group has both outcomes: on groups of one outcome every point ties and
  // chooseMaximin returns the grid's first point, a choice made on nothing.
  const heldOutPossible = heldOutGroups(scored) >= 2;
  const sources = names.map((name, i): SourceResult => {
    const held = groups.get(name)!;
    const chosen = heldOutPossible ? grid[picks[i + 1]!]! : final;
    const single = Object.fromEntries(SINGLE_SIGNALS.map((k) => [k, aurocBy(held, (s) => s[k])])) as SourceResult['single'];
    return {
      source: name,
      runs: held.length,
      passing: held.filter((s) => s.passed).length,
      chosen,
      heldOut: heldOutPossible ? sortedAuroc(scored[i]!, (s) => priorScore(s, chosen)) : null,
      lengthAlone: lengthAlone[i]!,
      paper: sortedAuroc(scored[i]!, (s) => priorScore(s, { weights: PAPER_PRIOR_WEIGHTS, brevitySteps: 30 })),
      final: sortedAuroc(scored[i]!, (s) => priorScore(s, final)),
      single,
    };
  });
  const meanOf = (f: (s: SourceResult) => number | null) => mean(sources.map(f));
  return {
    minRuns,
    objective: 'worst margin over run length alone (ties: mean margin)',
    sources,
    mean: {
      heldOut: meanOf((s) => s.heldOut),
      lengthAlone: meanOf((s) => s.lengthAlone),
      paper: meanOf((s) => s.paper),
      final: meanOf((s) => s.final),
      single: Object.fromEntries(SINGLE_SIGNALS.map((k) => [k, meanOf((s) => s.single[k])])) as SourceResult['single'],
    },
    chosen: final,
    heldOutPossible,
  };
}

/**
 * Composite weights for scoring against a reference (PTA mode, method.md
 * section 7), chosen leave one source out on runs that have a leave-one-out
 * reference (the PTA of the other passing runs of their task, the rule
 * `report` and `calibrate` score with). For each held-out source, the point
 * of the simplex grid over (Φstruct, Φcov, Φcoh, Φtemp) chosen on the OTHER
 * sources scores it; the choice maximises the worst margin, across the
 * training sources, over the best single signal of each (the target: no
 * single signal beats the composite held out), ties to the larger mean
 * margin. Reported beside the shipped weights and each signal alone, within
 * each source (sources under `minRuns` runs or with fewer than 3 runs of
 * either outcome pooled as "other").
 */
import { composite } from '../composite.js';
import type { Weights } from '../config.js';
import { sortedAuroc, type ScoredGroup } from './grid-auroc.js';
import { chooseMaximin, heldOutGroups } from './maximin.js';
import { OTHER_SOURCE } from './prior-weights.js';
import type { Interval } from '../stats/interval.js';
import { MIN_PER_CLASS } from '../stats/separation.js';

export const PTA_SIGNALS = ['struct', 'cov', 'coh', 'temp'] as const;
export type PtaSignal = (typeof PTA_SIGNALS)[number];

/** One run's final signals against its leave-one-out reference. */
export interface PtaSample {
  /** The run's id, when the caller has one (benches join samples to other per-run figures by it). */
  id?: string;
  source: string;
  task?: string;
  passed: boolean;
  struct: number;
  cov: number;
  coh: number;
  temp: number;
  steps: number;
}

export interface PtaSourceResult {
  source: string;
  runs: number;
  passing: number;
  /** Weights chosen without this source, and their AUROC on it (null when no source can be left out). */
  chosen: Weights;
  heldOut: number | null;
  /** The weights in force (the scoring config's). */
  shipped: number | null;
  /** The weights chosen on every source (in-sample here). */
  final: number | null;
  single: Record<PtaSignal, number | null>;
  lengthAlone: number | null;
}

export interface PtaWeightsReport {
  minRuns: number;
  objective: 'worst margin over the best single signal (ties: mean margin)';
  sources: PtaSourceResult[];
  mean: { heldOut: number | null; shipped: number | null; final: number | null; single: Record<PtaSignal, number | null>; lengthAlone: number | null };
  chosen: Weights;
  /** True when, held out, the composite is at least every single signal on every source with both outcomes. */
  holds: boolean;
  /** False when fewer than 2 groups have both passing and failing runs: a choice without one would be made on no AUROC, so there is no held-out figure. */
  heldOutPossible: boolean;
  /** 95 % intervals of the AUROCs above, tasks resampled (pta-intervals.ts); absent where not drawn. */
  intervals?: PtaIntervals;
}

/** The columns given an interval (pta-intervals.ts): held out, the weights in force, the choice on every source, each signal alone, run length. */
export type PtaColumn = 'heldOut' | 'shipped' | 'final' | PtaSignal | 'lengthAlone';

export interface PtaIntervals {
  /** Per source (the report's names, `other` included), per column; null below the resampling floor. */
  bySource: Record<string, Record<PtaColumn, Interval | null>>;
  mean: Record<PtaColumn, Interval | null>;
}

/** Every weight vector on the simplex with the given step. */
export function ptaGrid(step = 0.05): Weights[] {
  const n = Math.round(1 / step);
  const w = (k: number) => Number((k / n).toFixed(10));
  const out: Weights[] = [];
  for (let a = 0; a <= n; a++) for (let b = 0; a + b <= n; b++) for (let c = 0; a + b + c <= n; c++) out.push({ struct: w(a), cov: w(b), coh: w(c), temp: w(n - a - b - c) });
  return out;
}

export const ptaScore = (s: PtaSample, w: Weights): number => composite({ struct: s.struct, cov: s.cov, coh: s.coh, temp: s.temp }, w).total;

const mean = (xs: ReadonlyArray<number | null>): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
};

/** The samples by source; sources under `minRuns` runs or with fewer than MIN_PER_CLASS runs of either outcome pooled as OTHER_SOURCE. */
export function ptaGroups(samples: readonly PtaSample[], minRuns: number): Map<string, PtaSample[]> {
  const by = new Map<string, PtaSample[]>();
  for (const s of samples) by.set(s.source, [...(by.get(s.source) ?? []), s]);
  const out = new Map<string, PtaSample[]>();
  for (const [k, v] of by) {
    const pass = v.filter((s) => s.passed).length;
    const key = v.length >= minRuns && pass >= MIN_PER_CLASS && v.length - pass >= MIN_PER_CLASS ? k : OTHER_SOURCE;
    out.set(key, [...(out.get(key) ?? []), ...v]);
  }
  return out;
}

/** Leave-one-source-out choice of the PTA-mode weights (see the file comment). */
export function choosePtaWeights(samples: readonly PtaSample[], shipped: Weights, minRuns = 20, grid = ptaGrid()): PtaWeightsReport {
  const groups = ptaGroups(samples, minRuns);
  const names = [...groups.keys()].sort();
  const scored: Array<ScoredGroup<PtaSample>> = names.map((n) => ({ pos: groups.get(n)!.filter((s) => s.passed), neg: groups.get(n)!.filter((s) => !s.passed) }));
  const single = scored.map((g) => Object.fromEntries(PTA_SIGNALS.map((k) => [k, sortedAuroc(g, (s) => s[k])])) as Record<PtaSignal, number | null>);
  const bestSingle = single.map((s) => {
    const v = PTA_SIGNALS.map((k) => s[k]).filter((x): x is number => x !== null);
    return v.length === 0 ? null : Math.max(...v);
  });
  const all = names.map((_, i) => i);
  const sets = [all, ...(names.length > 1 ? all.map((i) => all.filter((j) => j !== i)) : [])];
  const picks = chooseMaximin(
    scored.map((g, i) => ({ ...g, baseline: bestSingle[i] ?? null })),
    grid.length,
    (s, k) => ptaScore(s, grid[k]!),
    sets,
  );
  const final = grid[picks[0]!]!;
  // A source is held out only where another group has both outcomes: on groups of one outcome every point ties and
  // chooseMaximin returns the grid's first point, a choice made on nothing.
  const heldOutPossible = heldOutGroups(scored) >= 2;
  const sources = names.map((name, i): PtaSourceResult => {
    const chosen = heldOutPossible ? grid[picks[i + 1]!]! : final;
    const g = scored[i]!;
    return {
      source: name,
      runs: g.pos.length + g.neg.length,
      passing: g.pos.length,
      chosen,
      heldOut: heldOutPossible ? sortedAuroc(g, (s) => ptaScore(s, chosen)) : null,
      shipped: sortedAuroc(g, (s) => ptaScore(s, shipped)),
      final: sortedAuroc(g, (s) => ptaScore(s, final)),
      single: single[i]!,
      lengthAlone: sortedAuroc(g, (s) => -s.steps),
    };
  });
  const holds = heldOutPossible && sources.every((s) => s.heldOut === null || PTA_SIGNALS.every((k) => s.single[k] === null || s.heldOut! >= s.single[k] - 1e-12));
  return {
    minRuns,
    objective: 'worst margin over the best single signal (ties: mean margin)',
    sources,
    mean: {
      heldOut: mean(sources.map((s) => s.heldOut)),
      shipped: mean(sources.map((s) => s.shipped)),
      final: mean(sources.map((s) => s.final)),
      single: Object.fromEntries(PTA_SIGNALS.map((k) => [k, mean(sources.map((s) => s.single[k]))])) as Record<PtaSignal, number | null>,
      lengthAlone: mean(sources.map((s) => s.lengthAlone)),
    },
    chosen: final,
    holds,
    heldOutPossible,
  };
}

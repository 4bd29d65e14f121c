/**
 * Choosing the reference-free composite's weights (issue 15, deliverable 1)
 * by leave-one-source-out AUROC: for each source (agent + model), the grid
 * point with the best mean within-source AUROC on the OTHER sources scores
 * it; the result is set beside run length alone and the paper's weights
 * (Φcoh 0.30, Φtemp 0.35 renormalised). AUROC is taken within a source
 * because sources differ in pass rate and typical length: pooling them
 * would reward telling sources apart, not runs.
 */
import { priorComposite, type PriorSignals } from '../composite.js';
import type { PriorWeights } from '../config.js';
import { auroc } from '../stats/auroc.js';

/** One run's final reference-free signals. */
export interface PriorSample {
  source: string;
  passed: boolean;
  coh: number;
  temp: number;
  focus: number;
  verify: number;
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
  /** Weights chosen without this source. */
  chosen: PriorChoice;
  heldOut: number | null;
  lengthAlone: number | null;
  paper: number | null;
  /** The choice made on every source (in-sample for this one). */
  final: number | null;
}

export interface PriorWeightsReport {
  /** Sources with fewer runs than this (or one outcome only) are pooled into `other`. */
  minRuns: number;
  sources: SourceResult[];
  /** Means over sources of the held-out, length and paper AUROCs. */
  mean: { heldOut: number | null; lengthAlone: number | null; paper: number | null };
  /** Chosen on every source: what to ship. */
  chosen: PriorChoice;
}

export const OTHER_SOURCE = 'other';
const PAPER: PriorWeights = { coh: 0.3, temp: 0.35, focus: 0, verify: 0, brevity: 0 };

/** Simplex grid over the five weights (step 0.1) × brevity lengths. */
export function priorGrid(lengths: readonly number[] = [15, 30, 60], step = 0.1): PriorChoice[] {
  const n = Math.round(1 / step);
  const w = (k: number) => Number((k / n).toFixed(10));
  const out: PriorChoice[] = [];
  for (const L of lengths) {
    for (let a = 0; a <= n; a++) for (let b = 0; a + b <= n; b++) for (let c = 0; a + b + c <= n; c++) for (let d = 0; a + b + c + d <= n; d++) {
      const e = n - a - b - c - d;
      // Without brevity the length does not matter: keep one copy of those points.
      if (e === 0 && L !== lengths[0]) continue;
      out.push({ weights: { coh: w(a), temp: w(b), focus: w(c), verify: w(d), brevity: w(e) }, brevitySteps: L });
    }
  }
  return out;
}

const scoreOf = (s: PriorSample, c: PriorChoice): number => {
  const sig: PriorSignals = { focus: s.focus, verify: s.verify, brevity: c.brevitySteps / (c.brevitySteps + s.steps) };
  return priorComposite({ struct: null, cov: null, coh: s.coh, temp: s.temp }, c.weights, sig).total;
};

function aurocBy(samples: readonly PriorSample[], score: (s: PriorSample) => number): number | null {
  return auroc(samples.filter((s) => s.passed).map(score), samples.filter((s) => !s.passed).map(score))?.auroc ?? null;
}

function mean(xs: readonly (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

/** Groups samples by source, pooling small or one-outcome sources into `other`. */
export function groupSources(samples: readonly PriorSample[], minRuns: number): Map<string, PriorSample[]> {
  const by = new Map<string, PriorSample[]>();
  for (const s of samples) by.set(s.source, [...(by.get(s.source) ?? []), s]);
  const out = new Map<string, PriorSample[]>();
  for (const [k, v] of by) {
    const ok = v.length >= minRuns && v.some((s) => s.passed) && v.some((s) => !s.passed);
    const key = ok ? k : OTHER_SOURCE;
    out.set(key, [...(out.get(key) ?? []), ...v]);
  }
  return out;
}

/** Best grid point by mean within-source AUROC over `groups`; ties keep the earlier point. */
function choose(grid: readonly PriorChoice[], groups: readonly PriorSample[][]): PriorChoice {
  let best = grid[0]!;
  let top = -Infinity;
  for (const c of grid) {
    const m = mean(groups.map((g) => aurocBy(g, (s) => scoreOf(s, c)))) ?? -Infinity;
    if (m > top + 1e-12) {
      top = m;
      best = c;
    }
  }
  return best;
}

/** Leave-one-source-out choice of the reference-free weights. */
export function choosePriorWeights(samples: readonly PriorSample[], minRuns = 20, grid = priorGrid()): PriorWeightsReport {
  const groups = groupSources(samples, minRuns);
  const names = [...groups.keys()].sort();
  const final = choose(grid, names.map((n) => groups.get(n)!));
  const sources = names.map((name): SourceResult => {
    const held = groups.get(name)!;
    const chosen = names.length > 1 ? choose(grid, names.filter((n) => n !== name).map((n) => groups.get(n)!)) : final;
    return {
      source: name,
      runs: held.length,
      passing: held.filter((s) => s.passed).length,
      chosen,
      heldOut: aurocBy(held, (s) => scoreOf(s, chosen)),
      lengthAlone: aurocBy(held, (s) => -s.steps),
      paper: aurocBy(held, (s) => scoreOf(s, { weights: PAPER, brevitySteps: 30 })),
      final: aurocBy(held, (s) => scoreOf(s, final)),
    };
  });
  return {
    minRuns,
    sources,
    mean: { heldOut: mean(sources.map((s) => s.heldOut)), lengthAlone: mean(sources.map((s) => s.lengthAlone)), paper: mean(sources.map((s) => s.paper)) },
    chosen: final,
  };
}

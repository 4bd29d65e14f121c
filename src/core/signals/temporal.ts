/**
 * Temporal profile similarity Φtemp (method.md section 5.4): stage
 * distributions over three contiguous windows compared with Jensen-Shannon
 * divergence, kept incrementally with per-stage prefix sums.
 */
import type { Pta } from '../scorer-api.js';
import type { Stage, StageDist } from '../types.js';

/** Default Laplace smoothing α of the window distributions. */
export const DEFAULT_ALPHA = 0.01;

/** Stage counts over E, I, V, O (in that order). */
export type StageCounts = [number, number, number, number];
/** One stage distribution per window (beginning, middle, end). */
export type Windows = [StageDist, StageDist, StageDist];

const STAGE_INDEX: Record<Stage, number> = { E: 0, I: 1, V: 2, O: 3 };
const UNIFORM: StageDist = [0.25, 0.25, 0.25, 0.25];

/** Index 0..3 of a stage in a {@link StageDist}. */
export function stageIndex(stage: Stage): number {
  return STAGE_INDEX[stage];
}

/** Half-open index bounds of the three windows of `n` states: window k covers [floor((k−1)n/3), floor(kn/3)). */
export function windowBounds(n: number): [[number, number], [number, number], [number, number]] {
  const a = Math.floor(n / 3);
  const b = Math.floor((2 * n) / 3);
  return [[0, a], [a, b], [b, n]];
}

/** Laplace-smoothed distribution (c + α) / (n + 4α); an empty window is uniform. */
export function windowDistribution(counts: StageCounts, alpha: number): StageDist {
  const n = counts[0] + counts[1] + counts[2] + counts[3];
  if (n === 0) return [...UNIFORM];
  const d = n + 4 * alpha;
  return [(counts[0] + alpha) / d, (counts[1] + alpha) / d, (counts[2] + alpha) / d, (counts[3] + alpha) / d];
}

/** The three window distributions of a whole stage sequence (all stages, O included). */
export function windowDistributions(stages: readonly Stage[], alpha: number): Windows {
  const bounds = windowBounds(stages.length);
  const out = bounds.map(([lo, hi]) => {
    const c: StageCounts = [0, 0, 0, 0];
    for (let i = lo; i < hi; i++) {
      const k = STAGE_INDEX[stages[i]!];
      c[k] = c[k]! + 1;
    }
    return windowDistribution(c, alpha);
  });
  return out as Windows;
}

function klTerm(p: number, m: number): number {
  return p > 0 ? p * Math.log2(p / m) : 0;
}

/** Jensen-Shannon divergence in bits (base 2), in [0, 1]; 0·log 0 = 0. */
export function jsd(p: StageDist, q: StageDist): number {
  let s = 0;
  for (let i = 0; i < 4; i++) {
    const pi = p[i]!;
    const qi = q[i]!;
    const m = (pi + qi) / 2;
    s += 0.5 * klTerm(pi, m) + 0.5 * klTerm(qi, m);
  }
  return Math.min(1, Math.max(0, s));
}

/** Φtemp = 1 − (1/3)·Σ_k JSD(cand_k ‖ ref_k), computed as 1 − (j1 + j2 + j3) / 3. */
export function temporalFromWindows(candidate: Windows, reference: Windows): number {
  const sum = jsd(candidate[0], reference[0]) + jsd(candidate[1], reference[1]) + jsd(candidate[2], reference[2]);
  return 1 - sum / 3;
}

/** Batch Φtemp of a whole stage sequence against reference windows. */
export function temporalSimilarity(stages: readonly Stage[], reference: Windows, alpha: number): number {
  return temporalFromWindows(windowDistributions(stages, alpha), reference);
}

/** The PTA's reference windows: `windowSums / k`; uniform when the PTA has no reference. */
export function referenceWindows(pta: Pta): Windows {
  const k = pta.references.length;
  if (k === 0) return [[...UNIFORM], [...UNIFORM], [...UNIFORM]];
  return pta.windowSums.map((w) => w.map((x) => x / k)) as Windows;
}

/** Incremental Φtemp tracker. */
export interface TemporalTracker {
  add(stage: Stage): void;
  /** Φtemp of the states added so far, O(1). */
  value(): number;
  readonly length: number;
}

/**
 * Creates an incremental Φtemp tracker: per-stage prefix sums make each
 * `value()` O(1) although window boundaries move as `n` grows, and every value
 * equals {@link temporalSimilarity} of the prefix exactly. With no state added
 * all three windows are empty, hence uniform, and `value()` is the similarity
 * of the uniform profile to the reference.
 */
export function createTemporalTracker(reference: Windows, alpha: number): TemporalTracker {
  const prefix: number[][] = [[0], [0], [0], [0]];
  let n = 0;
  const countsIn = (lo: number, hi: number): StageCounts =>
    prefix.map((p) => p[hi]! - p[lo]!) as StageCounts;
  return {
    add(stage: Stage): void {
      const k = STAGE_INDEX[stage];
      for (let s = 0; s < 4; s++) {
        const p = prefix[s]!;
        p.push(p[n]! + (s === k ? 1 : 0));
      }
      n++;
    },
    value(): number {
      const windows = windowBounds(n).map(([lo, hi]) => windowDistribution(countsIn(lo, hi), alpha)) as Windows;
      return temporalFromWindows(windows, reference);
    },
    get length() {
      return n;
    },
  };
}

/**
 * Stage distributions over the three contiguous windows of a state sequence
 * (method.md section 5.4): what a PTA stores of its references (`windowSums`)
 * and what Φtemp compares. Below both `pta/` and `signals/`, which use it.
 */
import type { Stage, StageDist } from './types.js';

/** Default Laplace smoothing α of the window distributions. */
export const DEFAULT_ALPHA = 0.01;

/** Stage counts over E, I, V, O (in that order). */
export type StageCounts = [number, number, number, number];
/** One stage distribution per window (beginning, middle, end). */
export type Windows = [StageDist, StageDist, StageDist];

/** Index 0..3 of each stage in a {@link StageDist}. */
export const STAGE_INDEX: Readonly<Record<Stage, number>> = { E: 0, I: 1, V: 2, O: 3 };
/** The distribution of an empty window. */
export const UNIFORM: StageDist = [0.25, 0.25, 0.25, 0.25];

/** Half-open index bounds of the three windows of `n` states: window k covers [floor((k−1)n/3), floor(kn/3)). */
export function windowBounds(n: number): [[number, number], [number, number], [number, number]] {
  const a = Math.floor(n / 3);
  const b = Math.floor((2 * n) / 3);
  return [
    [0, a],
    [a, b],
    [b, n],
  ];
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

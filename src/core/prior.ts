/**
 * The reference-free temporal prior (method.md section 8): the stage profile
 * pooled over every reference trajectory of every PTA a server holds.
 */
import type { Pta, TemporalPrior } from './scorer-api.js';
import type { StageDist } from './types.js';

const uniform = (): StageDist => [0.25, 0.25, 0.25, 0.25];

/** The prior with no reference at all: uniform stage distributions. */
export const UNIFORM_PRIOR: TemporalPrior = Object.freeze({
  windows: [uniform(), uniform(), uniform()],
  references: 0,
}) as TemporalPrior;

/**
 * Pools all references' window distributions: per window, the sum of every
 * PTA's `windowSums` divided by the total number of references. Uniform
 * (`UNIFORM_PRIOR`) when the PTAs hold no reference.
 */
export function priorFromPtas(ptas: readonly Pta[]): TemporalPrior {
  const sums: [StageDist, StageDist, StageDist] = [
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ];
  let k = 0;
  for (const pta of ptas) {
    k += pta.references.length;
    for (let w = 0; w < 3; w++) {
      const from = pta.windowSums[w]!;
      const to = sums[w]!;
      for (let i = 0; i < 4; i++) to[i] = to[i]! + from[i]!;
    }
  }
  if (k === 0) return { windows: [uniform(), uniform(), uniform()], references: 0 };
  return { windows: sums.map((d) => d.map((x) => x / k)) as TemporalPrior['windows'], references: k };
}

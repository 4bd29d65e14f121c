/**
 * 95 % intervals for the ratios the benches compare against targets. Each bench
 * measures its two variants alternately, so pass (or round) i of one and pass i
 * of the other saw the same moment of the machine: they are resampled in pairs.
 * Seeded (core/stats bootstrap, seed 1): the same measurements give the same interval.
 */
import { bootstrapDraws, resampleIndices } from '../src/core/stats/bootstrap.js';
import { median } from './timing.js';

/** The statistic a ratio is taken of: Σa / Σb (the ratio of means over equal counts) or median(a) / median(b). */
export type RatioOf = 'mean' | 'median';

/** Fewest pairs an interval is given for: below it a percentile bootstrap has too few distinct resamples to mean anything. */
export const MIN_PAIRS = 5;

/**
 * 95 % interval of stat(a) / stat(b) over pairs resampled together (2,000 draws, seed 1), or undefined with
 * fewer than {@link MIN_PAIRS} pairs or unequal lengths.
 */
export function pairedRatioInterval(a: readonly number[], b: readonly number[], of: RatioOf): [number, number] | undefined {
  if (a.length !== b.length || a.length < MIN_PAIRS) return undefined;
  const iv = bootstrapDraws(
    (random) => {
      const idx = resampleIndices(random, a.length);
      if (of === 'mean') {
        let sa = 0;
        let sb = 0;
        for (const j of idx) {
          sa += a[j]!;
          sb += b[j]!;
        }
        return sa / sb;
      }
      return median(idx.map((j) => a[j]!)) / median(idx.map((j) => b[j]!));
    },
    { reps: 2000, seed: 1 },
  );
  return iv === null ? undefined : [iv.lo, iv.hi];
}

/**
 * 95 % interval of stat(pool of a's groups) / stat(pool of b's groups), resampling whole groups in pairs (2,000
 * draws, seed 1): for a ratio of medians pooled over repeats whose samples hang together within a repeat (the 16
 * pushes of one window in one scorer run share its moment of the machine and its heap), so the repeat, not the
 * sample, is what is drawn. Undefined with fewer than {@link MIN_PAIRS} groups or unequal counts.
 */
export function pairedGroupRatioInterval(a: ReadonlyArray<readonly number[]>, b: ReadonlyArray<readonly number[]>, of: RatioOf): [number, number] | undefined {
  if (a.length !== b.length || a.length < MIN_PAIRS) return undefined;
  const stat = (xs: number[]): number => (of === 'mean' ? xs.reduce((s, x) => s + x, 0) / xs.length : median(xs));
  const iv = bootstrapDraws(
    (random) => {
      const idx = resampleIndices(random, a.length);
      return stat(idx.flatMap((j) => a[j]!)) / stat(idx.flatMap((j) => b[j]!));
    },
    { reps: 2000, seed: 1 },
  );
  return iv === null ? undefined : [iv.lo, iv.hi];
}

/** One round's total of a cost (e.g. CPU seconds) and its count (e.g. steps). */
export interface CostCount {
  cost: number;
  count: number;
}

/**
 * 95 % interval of (Σa.cost / Σa.count) / (Σb.cost / Σb.count), a ratio of pooled costs per unit (ws-load's CPU
 * per step of the echo over steplens'), over pairs resampled together; undefined as {@link pairedRatioInterval}.
 */
export function pairedPooledRatioInterval(a: readonly CostCount[], b: readonly CostCount[]): [number, number] | undefined {
  if (a.length !== b.length || a.length < MIN_PAIRS) return undefined;
  const iv = bootstrapDraws(
    (random) => {
      let ac = 0;
      let an = 0;
      let bc = 0;
      let bn = 0;
      for (const j of resampleIndices(random, a.length)) {
        ac += a[j]!.cost;
        an += a[j]!.count;
        bc += b[j]!.cost;
        bn += b[j]!.count;
      }
      return an > 0 && bn > 0 && bc > 0 ? ac / an / (bc / bn) : null;
    },
    { reps: 2000, seed: 1 },
  );
  return iv === null ? undefined : [iv.lo, iv.hi];
}

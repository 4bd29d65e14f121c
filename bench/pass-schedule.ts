/**
 * The order of a two-variant bench's passes (fcst21): blocks of four, A B B A. Under strict alternation
 * (A B A B ...) every pass follows one of the other variant, so what a pass leaves behind (caches, branch history,
 * garbage) is paid by the other: forecast.ts's pass without a model read 3-7 % dearer after one with a model than
 * after one without, which lowered the with / without ratio by ~0.05 (bench/README.md, "fcst21"). In A B B A each
 * variant has one pass a block after its own kind (its steady state, as a server with or without a model runs) and
 * one after the other (the old setting), so both ratios come from one run.
 */

/** The variant (0 = A, 1 = B) of pass `i` of the schedule. */
export const variantOfPass = (i: number): 0 | 1 => (i % 4 === 1 || i % 4 === 2 ? 1 : 0);

/** Per-pass values of one schedule, split into pairs by block. */
export interface SplitPasses {
  /** [A, B]: the passes after one of their own variant (A at a block's start after the last block's A; B second). */
  steady: [number[], number[]];
  /** [A, B]: the passes after one of the other variant (B first in a block, A last): strict alternation's setting. */
  alternated: [number[], number[]];
}

/**
 * Splits the values of passes `0 .. values.length - 1` of the schedule into {@link SplitPasses}, pass k of each list
 * from block k (four passes; an incomplete last block left out). The first block's A pass follows no pass, so a
 * caller discards its warm-up blocks first (values of whole blocks, starting at a block's first pass).
 */
export function splitPasses(values: readonly number[], warmupBlocks = 0): SplitPasses {
  const out: SplitPasses = { steady: [[], []], alternated: [[], []] };
  for (let b = warmupBlocks; 4 * b + 3 < values.length; b++) {
    const i = 4 * b;
    out.steady[0].push(values[i]!);
    out.alternated[1].push(values[i + 1]!);
    out.steady[1].push(values[i + 2]!);
    out.alternated[0].push(values[i + 3]!);
  }
  return out;
}

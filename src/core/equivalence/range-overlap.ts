import type { LineRange } from '../types.js';

/** Normalised length of an inclusive line range (a reversed range is read as its sorted form). */
function bounds(r: LineRange): [number, number] {
  return r[0] <= r[1] ? [r[0], r[1]] : [r[1], r[0]];
}

/**
 * Overlap ratio of two line ranges of the same file, in [0, 1]:
 * overlap length / length of the shorter range (inclusive line counts).
 *
 * A missing range means the whole file, whose length is unknown; it is read as
 * the unbounded range [1, +inf). So when one side has no range the shorter
 * range is the other side, which lies entirely inside the whole file: the
 * overlap is 1. Two missing ranges (two whole-file states) also overlap 1.
 */
export function rangeOverlap(a: LineRange | undefined, b: LineRange | undefined): number {
  if (a === undefined || b === undefined) return 1;
  const [as, ae] = bounds(a);
  const [bs, be] = bounds(b);
  const shorter = Math.min(ae - as + 1, be - bs + 1);
  const overlap = Math.min(ae, be) - Math.max(as, bs) + 1;
  if (overlap <= 0 || shorter <= 0) return 0;
  return overlap / shorter;
}

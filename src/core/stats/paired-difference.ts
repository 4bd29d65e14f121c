/**
 * Two sources compared on the tasks both ran: the mean over shared tasks of (A's mean on the task − B's mean on
 * the task), each task weighted once however many runs either side has there, with a percentile bootstrap
 * interval resampling tasks. Comparing each source's own figure over its own tasks also compares how hard those
 * tasks were; on shared tasks it does not, and pairing by task takes the task's difficulty out of the interval.
 */
import { bootstrapDraws, resamplable, resampleIndices, type BootstrapOptions } from './bootstrap.js';
import type { Interval } from './interval.js';

export interface PairedDifference {
  /** Tasks both sides ran (with at least one value each). */
  tasks: number;
  /** Mean over those tasks of A's task mean minus B's; null without a shared task. */
  estimate: number | null;
  /** Null below MIN_RESAMPLE_UNITS shared tasks. */
  interval: Interval | null;
}

const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** `a` and `b`: each side's values by task; tasks one side lacks (or holds no value for) are left out. */
export function pairedTaskDifference(a: ReadonlyMap<string, readonly number[]>, b: ReadonlyMap<string, readonly number[]>, options: BootstrapOptions = {}): PairedDifference {
  const diffs: number[] = [];
  for (const [task, xs] of [...a].sort(([s], [t]) => (s < t ? -1 : s > t ? 1 : 0))) {
    const ys = b.get(task);
    if (xs.length > 0 && ys !== undefined && ys.length > 0) diffs.push(meanOf(xs) - meanOf(ys));
  }
  if (diffs.length === 0) return { tasks: 0, estimate: null, interval: null };
  const interval = resamplable(diffs.length) ? bootstrapDraws((random) => meanOf(resampleIndices(random, diffs.length).map((i) => diffs[i]!)), options) : null;
  return { tasks: diffs.length, estimate: meanOf(diffs), interval };
}

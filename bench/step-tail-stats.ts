/**
 * The numbers `step-tail` prints: a distribution's tail (p50 … p99.9, max) and the steps whose own cost is
 * highest (the median over repeats of one step, so a GC pause that lands on a step once does not name it).
 */
import { median, quantiles } from './timing.js';

/** The tail of a distribution of per-step costs. */
export interface Tail {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

/** p50, p90, p99, p99.9 (linear between order statistics, as `quantiles`) and the max of `xs`; NaN when empty. */
export function tailOf(xs: readonly number[]): Tail {
  const [p50, p90, p99, p999] = quantiles(Float64Array.from(xs), [0.5, 0.9, 0.99, 0.999]) as [number, number, number, number];
  return { n: xs.length, p50, p90, p99, p999, max: xs.length === 0 ? Number.NaN : xs.reduce((a, b) => (b > a ? b : a), -Infinity) };
}

/** One step's samples over the repeats, with the name the report gives it. */
export interface StepSamples<K> {
  key: K;
  samples: number[];
}

/** The `k` steps with the highest median sample, highest first (ties keep input order). */
export function slowestSteps<K>(steps: ReadonlyArray<StepSamples<K>>, k: number): Array<{ key: K; median: number }> {
  return steps
    .map((s) => ({ key: s.key, median: median(s.samples) }))
    .sort((a, b) => b.median - a.median)
    .slice(0, Math.max(0, k));
}

/** How many samples exceed `limit`, and the distinct indices (seqs) they were taken at, in order. */
export function overThreshold(perSeq: ReadonlyArray<readonly number[]>, limit: number): { count: number; seqs: number[] } {
  let count = 0;
  const seqs: number[] = [];
  perSeq.forEach((xs, seq) => {
    const n = xs.filter((x) => x > limit).length;
    count += n;
    if (n > 0) seqs.push(seq);
  });
  return { count, seqs };
}

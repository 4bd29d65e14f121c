/**
 * A histogram's `observe` without prom-client's per-call work. Its `observe(value)` makes a closure and a labels
 * object, validates the labels, hashes them and writes the bucket's bound as a string, ~0.4 µs a call hot: the
 * step latency's is once a step, the largest item of the step path outside scoring (bench/README.md, "life23").
 * For a histogram without labels or exemplars this does what that `observe` does to its one entry (the first
 * bucket whose bound is at or above the value, the sum, the count), in the same order, so the scrape reads the
 * same text; anything else (labels, a value that is not finite, an entry a `reset` dropped) goes to prom-client's.
 */
import type { Histogram } from 'prom-client';

/** The parts of prom-client's `Histogram` (lib/histogram.js) that its `observe` writes for an unlabelled one. */
interface Entry {
  sum: number;
  count: number;
  bucketValues: Record<string, number>;
}
interface Inner {
  hashMap?: Record<string, Entry | undefined>;
  upperBounds?: readonly number[];
  labelNames?: readonly string[];
  enableExemplars?: boolean;
}

type Observe = (a: unknown, b?: unknown) => void;

/** Gives `h` the fast `observe` when it has no labels nor exemplars (else leaves it as it is); returns `h`. */
export function withFastObserve<T extends string>(h: Histogram<T>): Histogram<T> {
  const inner = h as unknown as Inner;
  const bounds = inner.upperBounds;
  const map = inner.hashMap;
  if (bounds === undefined || map === undefined || inner.labelNames?.length !== 0 || inner.enableExemplars !== false) return h;
  const hashes = Object.keys(map);
  if (hashes.length !== 1) return h;
  const hash = hashes[0]!; // one entry: checked above
  const slow = (h.observe as Observe).bind(h);
  // The entry's keys: prom-client keys its buckets by the bound as a number, which an object key makes `String(bound)`.
  const keys = bounds.map(String);
  const n = bounds.length;
  const fast: Observe = (a, b) => {
    const entry = inner.hashMap?.[hash];
    if (typeof a !== 'number' || b !== undefined || !Number.isFinite(a) || entry === undefined) return slow(a, b);
    let i = 0;
    while (i < n && !(a <= bounds[i]!)) i++;
    entry.sum += a;
    entry.count += 1;
    if (i < n) entry.bucketValues[keys[i]!]! += 1;
  };
  (h as unknown as { observe: Observe }).observe = fast;
  return h;
}

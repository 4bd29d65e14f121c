/**
 * Percentile bootstrap intervals, seeded so a report prints the same interval every time it is run on
 * the same data. A statistic is computed on resampled indices; draws where it is undefined (e.g. an
 * AUROC with no positive in the resample) are skipped, and the interval is null when fewer than half
 * of the draws give a value. Below MIN_UNITS resampled units (runs of a side, groups) there is no interval: every
 * resample of one unit is that unit, so the "interval" is the estimate itself, zero-width, and it would rank
 * two one-run sources as clearly apart.
 */
import { auroc } from './auroc.js';
import type { Interval } from './interval.js';
import { randomIndex, seededRandom, type Random } from './rng.js';

/** How to bootstrap: number of resamples, seed and level. Defaults: 1,000 draws, seed 1, 95 %. */
export interface BootstrapOptions {
  reps?: number;
  seed?: number;
  level?: number;
}

export const BOOTSTRAP_DEFAULTS = { reps: 1000, seed: 1, level: 0.95 } as const;

/** The fewest units (runs of each side, groups) a bootstrap interval is drawn from. */
export const MIN_UNITS = 2;

/** The resolved options. */
export function bootstrapSettings(o: BootstrapOptions = {}): Required<BootstrapOptions> {
  return { reps: o.reps ?? BOOTSTRAP_DEFAULTS.reps, seed: o.seed ?? BOOTSTRAP_DEFAULTS.seed, level: o.level ?? BOOTSTRAP_DEFAULTS.level };
}

/** Percentile interval of the values `draw(random)` gives over `reps` draws (null values skipped). */
export function bootstrapDraws(draw: (random: Random) => number | null, options: BootstrapOptions = {}): Interval | null {
  const { reps, seed, level } = bootstrapSettings(options);
  const random = seededRandom(seed);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    const v = draw(random);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length < reps / 2 || values.length === 0) return null;
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))]!;
  return { lo: at(tail), hi: at(1 - tail - 1e-12), level };
}

/** n indices drawn with replacement from [0, n). */
export function resampleIndices(random: Random, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = randomIndex(random, n);
  return out;
}

/** Bootstrap interval of the mean of `xs` (null below MIN_UNITS values). */
export function meanInterval(xs: readonly number[], options: BootstrapOptions = {}): Interval | null {
  if (xs.length < MIN_UNITS) return null;
  return bootstrapDraws((random) => {
    let s = 0;
    for (const _ of xs) s += xs[randomIndex(random, xs.length)]!;
    return s / xs.length;
  }, options);
}

/** Draws `pos.length` positives and `neg.length` negatives with replacement (stratified: both stay non-empty). */
export function resampleStrata(random: Random, pos: readonly number[], neg: readonly number[]): [number[], number[]] {
  return [resampleIndices(random, pos.length).map((i) => pos[i]!), resampleIndices(random, neg.length).map((i) => neg[i]!)];
}

/** Stratified bootstrap interval of the AUROC of `pos` against `neg` (null when either has fewer than MIN_UNITS or holds a NaN). */
export function aurocInterval(pos: readonly number[], neg: readonly number[], options: BootstrapOptions = {}): Interval | null {
  if (pos.length < MIN_UNITS || neg.length < MIN_UNITS || auroc(pos, neg) === null) return null;
  return bootstrapDraws((random) => {
    const [p, n] = resampleStrata(random, pos, neg);
    return auroc(p, n)?.auroc ?? null;
  }, options);
}

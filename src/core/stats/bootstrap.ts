/**
 * Percentile bootstrap intervals, seeded so a report prints the same interval every time it is run on
 * the same data. A statistic is computed on resampled indices; draws where it is undefined (e.g. an
 * AUROC with no positive in the resample) are skipped, and the interval is null when fewer than half
 * of the draws give a value. Below MIN_RESAMPLE_UNITS resampled units (groups, tasks, the runs of a mean, and the
 * runs of both sides of a stratified AUROC together) there is no interval: a resample of 2 or 3 units takes only a
 * handful of distinct values, so the percentile "interval" collapses onto the estimate (best-of-N over 2 groups
 * printed `1.000 [1.000, 1.000]`; one run resamples to itself, zero-width, and ranked two one-run sources apart),
 * which reads as certainty where the data hold almost none. Each side of a stratified draw also needs MIN_PER_SIDE runs.
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

/**
 * The fewest units a bootstrap interval is drawn from: groups (best-of-N), tasks (within task, task clusters), the
 * runs of a mean, the predictions of an ECE, the runs of a stratified AUROC (both sides together). Below it the figure
 * is printed without an interval (`[-]`, `null` in JSON). 5 units give 126 distinct resamples; 2 give 3, and every
 * percentile interval of 2 or 3 all-pass groups is the estimate itself.
 */
export const MIN_RESAMPLE_UNITS = 5;

/** The fewest runs of each side of a stratified draw (a side of one run resamples to itself). */
export const MIN_PER_SIDE = 2;

/** True when `n` units are enough to draw an interval from. */
export const resamplable = (n: number): boolean => n >= MIN_RESAMPLE_UNITS;

/** True when a stratified draw of `pos` and `neg` runs can give an interval (each side MIN_PER_SIDE, both MIN_RESAMPLE_UNITS). */
export const resamplableStrata = (pos: number, neg: number): boolean => pos >= MIN_PER_SIDE && neg >= MIN_PER_SIDE && resamplable(pos + neg);

/** The resolved options. */
export function bootstrapSettings(o: BootstrapOptions = {}): Required<BootstrapOptions> {
  return { reps: o.reps ?? BOOTSTRAP_DEFAULTS.reps, seed: o.seed ?? BOOTSTRAP_DEFAULTS.seed, level: o.level ?? BOOTSTRAP_DEFAULTS.level };
}

/** Percentile interval of the values `draw(random)` gives over `reps` draws (null values skipped). */
export function bootstrapDraws(draw: (random: Random) => number | null, options: BootstrapOptions = {}): Interval | null {
  const values = bootstrapValues(draw, options);
  const { level } = bootstrapSettings(options);
  if (values === null) return null;
  const tail = (1 - level) / 2;
  return { lo: sortedQuantile(values, tail), hi: sortedQuantile(values, 1 - tail - 1e-12), level };
}

/** The finite values `draw(random)` gives over `reps` seeded draws, sorted; null when fewer than half give one. */
export function bootstrapValues(draw: (random: Random) => number | null, options: BootstrapOptions = {}): number[] | null {
  const { reps, seed } = bootstrapSettings(options);
  const random = seededRandom(seed);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    const v = draw(random);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length < reps / 2 || values.length === 0) return null;
  return values.sort((a, b) => a - b);
}

/** The `q` quantile of sorted `values` (the value at floor(q · n), as the percentile interval reads it). */
export const sortedQuantile = (values: readonly number[], q: number): number => values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))]!;

/** n indices drawn with replacement from [0, n). */
export function resampleIndices(random: Random, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = randomIndex(random, n);
  return out;
}

/** Bootstrap interval of the mean of `xs` (null below MIN_RESAMPLE_UNITS values). */
export function meanInterval(xs: readonly number[], options: BootstrapOptions = {}): Interval | null {
  if (!resamplable(xs.length)) return null;
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

/**
 * No interval where the draws collapse onto one value: every unit alike (a score constant over the runs, every pair
 * of every task ordered right, the oracle over groups that all hold a pass) resamples to that value every time, and
 * `1.000 [1.000, 1.000]` reads as certainty where a percentile bootstrap cannot show the spread of a figure at its bound.
 */
export const spread = (interval: Interval | null): Interval | null => (interval !== null && interval.lo === interval.hi ? null : interval);

/**
 * True when every score of `pos` and `neg` is the same: their AUROC is 0.5 by construction (every pair a tie), and every
 * resample gives 0.5 again, a zero-width "interval" (`0.500 [0.50, 0.50]`) that reads as certainty where nothing is measured.
 */
export function oneScore(pos: readonly number[], neg: readonly number[]): boolean {
  const first = pos[0] ?? neg[0];
  return pos.every((x) => x === first) && neg.every((x) => x === first);
}

/** Stratified bootstrap interval of the AUROC of `pos` against `neg` (null below {@link resamplableStrata}, with a NaN, or one score for all: {@link oneScore}). */
export function aurocInterval(pos: readonly number[], neg: readonly number[], options: BootstrapOptions = {}): Interval | null {
  if (!resamplableStrata(pos.length, neg.length) || auroc(pos, neg) === null || oneScore(pos, neg)) return null;
  return spread(
    bootstrapDraws((random) => {
      const [p, n] = resampleStrata(random, pos, neg);
      return auroc(p, n)?.auroc ?? null;
    }, options),
  );
}

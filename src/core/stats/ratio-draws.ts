/**
 * Bootstrap intervals of many ratios of sums over the same runs, from one set of draws: the share of the failing runs'
 * steps (or tokens) that each of a calibration's stop policies saves, every policy over the same failing runs. Each
 * interval is clusteredRatioInterval's over runs (one part each; the same seeded draws, so the same interval up to the
 * order of a float sum), but the draws are made once and each draw's multiplicity of every run kept: a ratio whose
 * numerator is nonzero on k runs then costs k a draw instead of n (calibrate printed ~250 points of 810 failing runs,
 * 2 × 810,000 draws each, twice its CPU).
 */
import { bootstrapDraws, bootstrapSettings, resamplable, type BootstrapOptions } from './bootstrap.js';
import type { Interval } from './interval.js';
import { randomIndex, seededRandom } from './rng.js';

export class RatioDraws {
  readonly n: number;
  /** counts[r * n + j]: how often draw r took run j. */
  private readonly counts: Uint16Array;
  /** Per denominator, its sum in each draw. */
  private readonly denSums: Float64Array[];

  /** `dens`: one denominator per run for each ratio family (e.g. steps, tokens), all of length n. */
  constructor(
    n: number,
    dens: ReadonlyArray<ArrayLike<number>>,
    private readonly options: BootstrapOptions = {},
  ) {
    const { reps, seed } = bootstrapSettings(options);
    this.n = n;
    this.counts = new Uint16Array(resamplable(n) ? reps * n : 0);
    this.denSums = dens.map(() => new Float64Array(reps));
    if (!resamplable(n)) return;
    const random = seededRandom(seed);
    for (let r = 0; r < reps; r++)
      for (let i = 0; i < n; i++) {
        const j = randomIndex(random, n);
        this.counts[r * n + j] = this.counts[r * n + j]! + 1;
        for (let f = 0; f < dens.length; f++) this.denSums[f]![r] = this.denSums[f]![r]! + dens[f]![j]!;
      }
  }

  /**
   * The interval of Σnum / Σ(den `family`), `nums` the runs whose numerator is not 0 as [run, value] (null below
   * MIN_RESAMPLE_UNITS runs, or when fewer than half the draws have a denominator).
   */
  interval(family: number, nums: ReadonlyArray<readonly [number, number]>): Interval | null {
    return this.intervals(family, nums, [undefined])[0]!;
  }

  /**
   * The intervals of one numerator over several denominators: Σ(den `family`) plus, per entry of `pluses`, that
   * array's value in each draw (another stratum's sum drawn apart, sumDraws; undefined: nothing). The numerator's sums
   * are the cost, made once (calibrate's share of all runs' tokens beside that of the failing runs'; audit27).
   */
  intervals(family: number, nums: ReadonlyArray<readonly [number, number]>, pluses: ReadonlyArray<Float64Array | undefined>): Array<Interval | null> {
    if (!resamplable(this.n)) return pluses.map(() => null);
    const dens = this.denSums[family]!;
    const sums = new Float64Array(dens.length);
    for (let r = 0; r < dens.length; r++) {
      let s = 0;
      for (const [j, x] of nums) s += this.counts[r * this.n + j]! * x;
      sums[r] = s;
    }
    return pluses.map((plus) => {
      let r = 0;
      return bootstrapDraws(() => {
        const d = dens[r]! + (plus?.[r] ?? 0);
        const s = sums[r]!;
        r += 1;
        return d === 0 ? null : s / d;
      }, this.options);
    });
  }
}

/**
 * The sum of `xs` in each of `reps` resamples of them (seeded; all zeros for none): one stratum's denominator beside a
 * RatioDraws of another, without keeping each draw's counts.
 */
export function sumDraws(xs: readonly number[], options: BootstrapOptions = {}): Float64Array {
  const { reps, seed } = bootstrapSettings(options);
  const out = new Float64Array(reps);
  if (xs.length === 0) return out;
  const random = seededRandom(seed);
  for (let r = 0; r < reps; r++) {
    let s = 0;
    for (const _ of xs) s += xs[randomIndex(random, xs.length)]!;
    out[r] = s;
  }
  return out;
}

/**
 * What an ECE can show at its n. The ECE of a finite sample is biased upward: even a perfectly calibrated
 * forecaster shows a positive ECE, larger the fewer runs per bin (at 31 runs in 10 bins, about 0.1). So beside
 * the observed ECE (with a percentile bootstrap interval over the runs) this gives the ECE a perfectly calibrated
 * forecaster shows at the same predictions (outcomes drawn as Bernoulli(p) from each prediction: the mean and the
 * upper quantile of that ECE) and the Monte Carlo p-value of the observed one, (1 + such draws at least as large) /
 * (1 + draws) (a calibration test: small when the observed ECE is more than sampling noise; never 0). Seeded, so it prints the same every time.
 * Beside them the debiased ECE: the observed ECE less the noise floor (that perfect forecaster's mean ECE at these
 * predictions), with the ECE's percentile interval, its lower end less the same floor (ece30: core/stats/ece-interval.ts
 * says why the upper end is not), widened where needed to hold the point.
 * Why subtract the floor rather than Kumar et al. 2019's debiased estimator: theirs estimates the squared (L2)
 * calibration error, another figure than the ECE printed beside it, and its square root is biased again; the floor
 * is already drawn here, and ECE − floor is unbiased for a calibrated forecaster (where the bias is largest) and,
 * since per bin E|gap + noise| − |gap| ≤ E|noise|, never above the true ECE on average: it can understate a badly
 * calibrated source by up to the floor, never overstate one. It can be below 0 (then the data show no miscalibration).
 * Why that interval and not Efron's bias-corrected (BC) one: on outcomes drawn from real pPass values (calibrated by
 * construction; test/stats/ece-debiased.test.ts, bench/ece) BC held 0 in about 70 % of draws, the percentile
 * interval less the floor in 93-95 %. The ECE sits at its bound 0 there, where a pivot-like interval undercovers.
 * Predictions that name their task are resampled by task, as every other interval of the method: runs of one
 * task are not independent (SWE-agent 0.x: 721 runs of 241 tasks), and resampling runs drew too narrow an interval.
 */
import { bootstrapSettings, bootstrapValues, resamplable, resampleIndices, sortedQuantile, type BootstrapOptions } from './bootstrap.js';
import { calibrationError, type Prediction } from './calibration-error.js';
import { clusteredRateInterval } from './clustered.js';
import { debiasedEceInterval } from './ece-interval.js';
import type { Interval } from './interval.js';
import { seededRandom } from './rng.js';

/** A prediction and, when known, its run's task (the unit its interval resamples). */
export type TaskPrediction = Prediction & { task?: string | null };

export interface CalibrationCheck {
  n: number;
  ece: number | null;
  /** Bootstrap interval of the ECE (resampling tasks; a run naming no task is a unit of its own). */
  interval: Interval | null;
  /**
   * Wilson's interval of the observed pass rate with the tasks' design effect (clusteredRateInterval, as the report's
   * rates): null with no prediction, or too few tasks where tasks repeat.
   */
  passRate: Interval | null;
  /** ECE of a perfectly calibrated forecaster with these predictions: mean and the `level` quantile of its draws. */
  perfect: { mean: number; hi: number } | null;
  /**
   * Monte Carlo p-value: (1 + the perfect forecaster's draws with an ECE at least the observed one) / (1 + draws), never
   * 0: no draw as large says p is below about 1 / draws, not that it is 0 (printed `p 0` where all 20 runs passed).
   */
  p: number | null;
  /**
   * The ECE less the noise floor (`perfect.mean`), with `interval` (widened to hold the ECE), its lower end less the same
   * floor (debiasedEceInterval; null where `interval` is). Null where `perfect` is.
   */
  debiased: { ece: number; interval: Interval | null } | null;
}

/** ECE of `preds` with its interval, beside a perfectly calibrated forecaster's at the same predictions (`reps` draws each). */
export function calibrationCheck(preds: readonly TaskPrediction[], options: BootstrapOptions = {}, bins = 10): CalibrationCheck {
  const n = preds.length;
  const ece = calibrationError(preds, bins).ece;
  const { reps, seed, level } = bootstrapSettings(options);
  const units = byTask(preds);
  const passRate =
    n === 0
      ? null
      : clusteredRateInterval(
          units.map((u) => ({ k: u.filter((x) => x.pass).length, n: u.length })),
          level,
        );
  if (n === 0 || ece === null) return { n, ece: null, interval: null, passRate, perfect: null, p: null, debiased: null };
  // A few tasks resample to a handful of values: no interval below MIN_RESAMPLE_UNITS.
  const values = !resamplable(units.length)
    ? null
    : bootstrapValues(
        (random) =>
          calibrationError(
            resampleIndices(random, units.length).flatMap((i) => units[i]!),
            bins,
          ).ece,
        options,
      );
  const tail = (1 - level) / 2;
  const interval = values === null ? null : { lo: sortedQuantile(values, tail), hi: sortedQuantile(values, 1 - tail - 1e-12), level };
  const random = seededRandom(seed + 7919);
  const draws: number[] = [];
  for (let r = 0; r < reps; r++)
    draws.push(
      calibrationError(
        preds.map(({ p }) => ({ p, pass: random() < p })),
        bins,
      ).ece!,
    );
  if (draws.length === 0) return { n, ece, interval, passRate, perfect: null, p: null, debiased: null };
  draws.sort((a, b) => a - b);
  const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
  const hi = draws[Math.min(draws.length - 1, Math.floor(level * draws.length))]!;
  const p = (1 + draws.filter((d) => d >= ece - 1e-12).length) / (1 + draws.length);
  const debiased = { ece: ece - mean, interval: interval === null ? null : debiasedEceInterval(interval, ece, mean) };
  return { n, ece, interval, passRate, perfect: { mean, hi }, p, debiased };
}

/** The predictions of each task, in first-seen order; one naming no task is a unit of its own. */
function byTask(preds: readonly TaskPrediction[]): TaskPrediction[][] {
  const groups = new Map<string, TaskPrediction[]>();
  preds.forEach((x, i) => {
    const key = x.task == null ? `\u0000${i}` : `t${x.task}`;
    const g = groups.get(key);
    if (g) g.push(x);
    else groups.set(key, [x]);
  });
  return [...groups.values()];
}

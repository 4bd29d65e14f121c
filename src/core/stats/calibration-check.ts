/**
 * What an ECE can show at its n. The ECE of a finite sample is biased upward: even a perfectly calibrated
 * forecaster shows a positive ECE, larger the fewer runs per bin (at 31 runs in 10 bins, about 0.1). So beside
 * the observed ECE (with a percentile bootstrap interval over the runs) this gives the ECE a perfectly calibrated
 * forecaster shows at the same predictions (outcomes drawn as Bernoulli(p) from each prediction: the mean and the
 * upper quantile of that ECE) and the Monte Carlo p-value of the observed one, (1 + such draws at least as large) /
 * (1 + draws) (a calibration test: small when the observed ECE is more than sampling noise; never 0). Seeded, so it prints the same every time.
 * Predictions that name their task are resampled by task, as every other interval of the method: runs of one
 * task are not independent (SWE-agent 0.x: 721 runs of 241 tasks), and resampling runs drew too narrow an interval.
 */
import { bootstrapDraws, bootstrapSettings, resamplable, resampleIndices, type BootstrapOptions } from './bootstrap.js';
import { calibrationError, type Prediction } from './calibration-error.js';
import { clusteredRateInterval } from './clustered.js';
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
  if (n === 0 || ece === null) return { n, ece: null, interval: null, passRate, perfect: null, p: null };
  // A few tasks resample to a handful of values: no interval below MIN_RESAMPLE_UNITS.
  const interval = !resamplable(units.length)
    ? null
    : bootstrapDraws(
        (random) =>
          calibrationError(
            resampleIndices(random, units.length).flatMap((i) => units[i]!),
            bins,
          ).ece,
        options,
      );
  const random = seededRandom(seed + 7919);
  const draws: number[] = [];
  for (let r = 0; r < reps; r++)
    draws.push(
      calibrationError(
        preds.map(({ p }) => ({ p, pass: random() < p })),
        bins,
      ).ece!,
    );
  if (draws.length === 0) return { n, ece, interval, passRate, perfect: null, p: null };
  draws.sort((a, b) => a - b);
  const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
  const hi = draws[Math.min(draws.length - 1, Math.floor(level * draws.length))]!;
  const p = (1 + draws.filter((d) => d >= ece - 1e-12).length) / (1 + draws.length);
  return { n, ece, interval, passRate, perfect: { mean, hi }, p };
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

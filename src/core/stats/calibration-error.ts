/**
 * Calibration of a predicted pass probability: the expected calibration error over equal-width bins
 * (ECE = Σ_b (n_b / n) · |mean predicted_b − observed rate_b|, 10 bins by default, as in Guo et al. 2017
 * and SWE-RM) and the reliability diagram's bins, each observed rate with its Wilson interval.
 */
import { wilsonInterval, type Interval } from './interval.js';

export interface Prediction {
  p: number;
  pass: boolean;
}

export interface ReliabilityBin {
  lo: number;
  hi: number;
  n: number;
  /** Mean predicted probability in the bin (null when empty). */
  predicted: number | null;
  /** Observed pass rate in the bin (null when empty). */
  observed: number | null;
  interval: Interval | null;
}

export interface CalibrationError {
  n: number;
  /** Null for no predictions. */
  ece: number | null;
  /** Mean predicted probability against the observed pass rate (calibration-in-the-large). */
  meanPredicted: number | null;
  observedRate: number | null;
  bins: ReliabilityBin[];
}

/**
 * ECE and reliability bins of `preds` over `bins` equal-width bins of [0, 1] (the last bin is closed). A `p`
 * outside [0, 1] (NaN: an unscored run) is no probability: the figures are then null and the bins empty.
 */
export function calibrationError(preds: readonly Prediction[], bins = 10): CalibrationError {
  if (preds.some(({ p }) => !(p >= 0 && p <= 1))) return { ...calibrationError([], bins), n: preds.length };
  const sumP = new Float64Array(bins);
  const passes = new Float64Array(bins);
  const counts = new Float64Array(bins);
  for (const { p, pass } of preds) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor(p * bins)));
    sumP[b] = sumP[b]! + p;
    passes[b] = passes[b]! + (pass ? 1 : 0);
    counts[b] = counts[b]! + 1;
  }
  const n = preds.length;
  let ece = 0;
  const out: ReliabilityBin[] = [];
  for (let b = 0; b < bins; b++) {
    const c = counts[b]!;
    const predicted = c > 0 ? sumP[b]! / c : null;
    const observed = c > 0 ? passes[b]! / c : null;
    if (c > 0) ece += (c / n) * Math.abs(predicted! - observed!);
    out.push({ lo: b / bins, hi: (b + 1) / bins, n: c, predicted, observed, interval: c > 0 ? wilsonInterval(passes[b]!, c) : null });
  }
  const total = passes.reduce((a, x) => a + x, 0);
  return {
    n,
    ece: n === 0 ? null : ece,
    meanPredicted: n === 0 ? null : sumP.reduce((a, x) => a + x, 0) / n,
    observedRate: n === 0 ? null : total / n,
    bins: out,
  };
}

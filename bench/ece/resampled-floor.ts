/**
 * Candidates of ece30's coverage bench (bench/ece-coverage.ts), not shipped: the ECE's noise floor computed exactly
 * (per bin E|S − μ| / n, S the bin's passes, a Poisson-binomial sum of its p; calibrationCheck draws it by Monte
 * Carlo), so that it can be recomputed on every bootstrap resample and the debiased ECE resampled as a statistic of
 * its own (percentile or basic interval). Both undercovered a miscalibrated source (bench/README "ece30").
 */
import { bootstrapValues, resamplable, resampleIndices, type BootstrapOptions } from '../../src/core/stats/bootstrap.js';
import { calibrationError, type Prediction } from '../../src/core/stats/calibration-error.js';

/** Mass below which an end of the Poisson-binomial table is dropped (keeps the table ~σ wide, the error far below 1e-12). */
const TAIL = 1e-17;

/**
 * E|S − μ| for S = Σ w_i·B_i, B_i independent Bernoulli(p_i), μ its mean (exact: the table of S). A weight is a
 * run's count in a bootstrap resample: a run drawn twice is one outcome counted twice, not two draws.
 */
export function expectedAbsDeviation(ps: readonly number[], ws?: readonly number[]): number {
  const total = ws === undefined ? ps.length : ws.reduce((a, w) => a + w, 0);
  const d = new Float64Array(total + 1);
  d[0] = 1;
  let lo = 0;
  let hi = 0;
  let mu = 0;
  ps.forEach((p, i) => {
    const w = ws === undefined ? 1 : ws[i]!;
    mu += w * p;
    d.fill(0, hi + 1, hi + w + 1);
    for (let k = hi + w; k >= lo; k--) d[k] = d[k]! * (1 - p) + (k - w >= lo ? d[k - w]! * p : 0);
    hi += w;
    while (lo < hi && d[lo]! < TAIL) lo++;
    while (hi > lo && d[hi]! < TAIL) hi--;
  });
  let e = 0;
  for (let k = lo; k <= hi; k++) e += d[k]! * Math.abs(k - mu);
  return e;
}

/**
 * The exact noise floor: the mean ECE (over `bins` equal-width bins) of a perfectly calibrated forecaster at `ps`,
 * each counted `ws[i]` times (1 without `ws`).
 */
export function eceFloor(ps: readonly number[], bins = 10, ws?: readonly number[]): number | null {
  if (ps.length === 0 || ps.some((p) => !(p >= 0 && p <= 1))) return null;
  const byBin = Array.from({ length: bins }, () => ({ ps: [] as number[], ws: [] as number[] }));
  ps.forEach((p, i) => {
    const b = byBin[Math.min(bins - 1, Math.floor(p * bins))]!;
    b.ps.push(p);
    b.ws.push(ws === undefined ? 1 : ws[i]!);
  });
  const n = ws === undefined ? ps.length : ws.reduce((a, w) => a + w, 0);
  return byBin.reduce((e, b) => e + expectedAbsDeviation(b.ps, b.ws), 0) / n;
}

/** ECE less its exact floor (null where either is). */
export function debiasedEce(preds: readonly Prediction[], bins = 10): number | null {
  const ece = calibrationError(preds, bins).ece;
  const floor = eceFloor(
    preds.map(({ p }) => p),
    bins,
  );
  return ece === null || floor === null ? null : ece - floor;
}

/** ECE of a resample (unit i drawn counts[i] times) less its floor with the runs so weighted. */
function resampledDebiased(units: ReadonlyArray<readonly Prediction[]>, counts: readonly number[], bins: number): number | null {
  const preds: Prediction[] = [];
  const ps: number[] = [];
  const ws: number[] = [];
  units.forEach((u, i) => {
    const m = counts[i]!;
    if (m === 0) return;
    for (const x of u) {
      for (let j = 0; j < m; j++) preds.push(x);
      ps.push(x.p);
      ws.push(m);
    }
  });
  const ece = calibrationError(preds, bins).ece;
  const floor = eceFloor(ps, bins, ws);
  return ece === null || floor === null ? null : ece - floor;
}

/**
 * The sorted debiased ECEs of `reps` resamples of `units` (tasks), each less the floor of its own resample with its
 * duplicates as one outcome counted m times (null below MIN_RESAMPLE_UNITS).
 */
export function debiasedEceDrawsWeighted(units: ReadonlyArray<readonly Prediction[]>, options: BootstrapOptions = {}, bins = 10): number[] | null {
  if (!resamplable(units.length)) return null;
  return bootstrapValues((random) => {
    const counts = new Array<number>(units.length).fill(0);
    for (const i of resampleIndices(random, units.length)) counts[i]!++;
    return resampledDebiased(units, counts, bins);
  }, options);
}

/** The sorted debiased ECEs of `reps` resamples of `units` (tasks), the floor recomputed in each (null below MIN_RESAMPLE_UNITS). */
export function debiasedEceDraws(units: ReadonlyArray<readonly Prediction[]>, options: BootstrapOptions = {}, bins = 10): number[] | null {
  if (!resamplable(units.length)) return null;
  return bootstrapValues(
    (random) =>
      debiasedEce(
        resampleIndices(random, units.length).flatMap((i) => units[i]!),
        bins,
      ),
    options,
  );
}

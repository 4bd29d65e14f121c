/**
 * The 95 % interval printed beside the debiased ECE (ECE − the noise floor). The true calibration error E lies,
 * bin by bin, between the ECE's expectation less the floor and that expectation: E|gap + noise| ≥ |gap| (Jensen)
 * and E|gap + noise| − |gap| ≤ E|noise| (the triangle inequality), the floor being Σ_b (n_b / n)·E|noise_b|. So the
 * interval takes the ECE's bootstrap interval, its lower end less the floor and its upper end not: it holds E
 * whether the source is calibrated (E = 0, near the debiased point) or far from it (E near the plain ECE).
 * Until ece30 both ends were less the floor: that held 0 for a calibrated source (92-94 %) but a miscalibrated
 * one's error in as few as ~60 % of draws (CodeR's predictions at a logit shift of 0.5; bench/ece-coverage.ts,
 * where this one held it in 94-100 % on every source and truth, at about 1.6 times the width). Candidates that
 * recompute the floor per bootstrap draw (percentile or basic) undercovered as badly (same bench).
 */
import type { Interval } from './interval.js';

/**
 * The debiased ECE's interval from the ECE's own `interval`, the `ece` and the noise `floor`: [lo − floor, hi], each
 * end widened where needed to hold the debiased point ece − floor.
 */
export function debiasedEceInterval(interval: Interval, ece: number, floor: number): Interval {
  const point = ece - floor;
  return { lo: Math.min(interval.lo, ece) - floor, hi: Math.max(interval.hi, point), level: interval.level };
}

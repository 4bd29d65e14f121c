/**
 * Recalibration of one source (agent + model) from its reported outcomes, the
 * rule `serve --forecast-learn` applies as outcomes come in and the bench
 * `bench/calibration-online.ts` measures: Platt scaling of the source's end
 * scores under the model in force, pulled toward that model's calibration
 * (for a source `train` never saw, the default model's pooled map) by a prior
 * worth {@link RECALIBRATION}.strength runs on the intercept and
 * `slopeStrength` on the slope. Monotone: it never reorders a source's runs,
 * so it changes no AUROC and no best-of-N pick, only the probabilities.
 */
import { fitPlatt, type Platt, type ScoredPoint } from './platt.js';

export interface RecalibrationRule {
  /** Pseudo-runs the prior's intercept counts as. */
  strength: number;
  /** Pseudo-runs the prior's slope counts as (Infinity: shift only). */
  slopeStrength: number;
}

/**
 * Chosen by bench/calibration-online.ts (docs/forecast.md, "Calibration per source"): the rule with the lowest
 * prequential log loss over the three calibration sources (each source's own figures there are taken with the
 * rule chosen on the other two). A weak prior on the intercept (3 runs) and a firm one on the slope (30): a
 * new source's pass rate moves its map within a few outcomes, its slope only with many.
 */
export const RECALIBRATION: RecalibrationRule = { strength: 3, slopeStrength: 30 };

/** Fewest reported outcomes of a source before its calibration moves off the model in force. */
export const MIN_RECALIBRATION_OUTCOMES = 5;

/** The source's recalibration from its outcomes `points` (end scores under the model in force), pulled toward `prior`. */
export function recalibrateSource(points: readonly ScoredPoint[], prior: Platt, rule: RecalibrationRule = RECALIBRATION): Platt {
  if (points.length === 0) return prior;
  return fitPlatt(points, prior, rule.strength, rule.slopeStrength);
}

/**
 * A source's pass rate estimated from its runs' pPass without their outcomes (label shift), and pPass moved to
 * that rate: the map a source has never reported outcomes for was calibrated at the training runs' pass rate π,
 * and under label shift (p(x | pass) the same, only the rate differs) the source's pPass is its logit moved by
 * logit(π') − logit(π) (Saerens, Latinne & Decaestecker 2002). Estimators of π':
 *   `em`   Saerens et al.'s EM: shift every pPass to the current π', take their mean as the next π', until fixed;
 *   `mean` the mean pPass (EM's first step);
 *   `bbse` black-box shift estimation (Lipton et al. 2018) with soft confusion: the mean pPass of the source, m,
 *          against the mean pPass of the training runs that passed (m1) and failed (m0): π' = (m − m0) / (m1 − m0);
 *   `bbse-hard` the same with Lipton et al.'s confusion matrix: a run counts as predicted to pass when its pPass is at
 *          least π (the training rate: no threshold chosen), q the source's share so predicted, and the training
 *          runs' true and false positive rates: π' = (q − fpr) / (tpr − fpr).
 * Tried, not shipped (docs/forecast.md): kept with its bench. Pure; the estimate is clamped to [PRIOR_MIN, 1 − PRIOR_MIN] so that a logit stays finite.
 */
import { sigmoid } from '../../src/core/forecast/logistic.js';

export type PriorShiftMethod = 'em' | 'mean' | 'bbse' | 'bbse-hard';
export const PRIOR_SHIFT_METHODS: readonly PriorShiftMethod[] = ['em', 'mean', 'bbse', 'bbse-hard'];
export const isPriorShiftMethod = (text: string): text is PriorShiftMethod => (PRIOR_SHIFT_METHODS as readonly string[]).includes(text);

/** Fixed before measuring (not tuned): a pass rate of 1 % or 99 % is as far as an estimate goes. */
export const PRIOR_MIN = 0.01;

/** What the map in force was calibrated on: the training runs' pass rate and, for `bbse`, their mean pPass by outcome. */
export interface TrainingPrior {
  prior: number;
  /** Mean pPass of the training runs that passed / failed (soft confusion). */
  passMean?: number;
  failMean?: number;
  /** Share of the training runs that passed (failed) with pPass at least `prior` (hard confusion). */
  tpr?: number;
  fpr?: number;
}

const clamp = (p: number): number => Math.min(1 - PRIOR_MIN, Math.max(PRIOR_MIN, p));
const logit = (p: number): number => Math.log(p / (1 - p));

/** `p` calibrated at pass rate `from`, moved to pass rate `to` (both in (0, 1)). */
export function shiftPPass(p: number, from: number, to: number): number {
  if (p <= 0 || p >= 1) return p;
  return sigmoid(logit(p) + logit(to) - logit(from));
}

/** The training pass rate and soft confusion of training runs' pPass `points` (the runs the map was fitted on). */
export function trainingPrior(points: ReadonlyArray<{ p: number; pass: boolean; weight?: number }>): TrainingPrior {
  let w = 0;
  let wPass = 0;
  let sPass = 0;
  let sFail = 0;
  for (const { p, pass, weight = 1 } of points) {
    w += weight;
    if (pass) {
      wPass += weight;
      sPass += weight * p;
    } else sFail += weight * p;
  }
  const wFail = w - wPass;
  const prior = w > 0 ? clamp(wPass / w) : 0.5;
  if (!(wPass > 0 && wFail > 0)) return { prior };
  let hitPass = 0;
  let hitFail = 0;
  for (const { p, pass, weight = 1 } of points) {
    if (p < prior) continue;
    if (pass) hitPass += weight;
    else hitFail += weight;
  }
  return { prior, passMean: sPass / wPass, failMean: sFail / wFail, tpr: hitPass / wPass, fpr: hitFail / wFail };
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Saerens et al.'s EM for the pass rate of runs whose pPass `ps` was calibrated at `train`. */
export function emPrior(ps: readonly number[], train: number, maxIter = 1000, tol = 1e-7): number {
  let prior = clamp(mean(ps));
  for (let it = 0; it < maxIter; it++) {
    const next = clamp(mean(ps.map((p) => shiftPPass(p, train, prior))));
    if (Math.abs(next - prior) < tol) return next;
    prior = next;
  }
  return prior;
}

/**
 * The pass rate of runs with pPass `ps` (calibrated at `train`) by `method`; null with no runs, or for `bbse`
 * without a confusion whose means differ.
 */
export function estimatePrior(method: PriorShiftMethod, ps: readonly number[], train: TrainingPrior): number | null {
  if (ps.length === 0) return null;
  if (method === 'mean') return clamp(mean(ps));
  if (method === 'em') return emPrior(ps, train.prior);
  if (method === 'bbse-hard') {
    const { tpr, fpr } = train;
    if (tpr === undefined || fpr === undefined || tpr - fpr < 1e-9) return null;
    return clamp((ps.filter((p) => p >= train.prior).length / ps.length - fpr) / (tpr - fpr));
  }
  const { passMean, failMean } = train;
  if (passMean === undefined || failMean === undefined || passMean - failMean < 1e-9) return null;
  return clamp((mean(ps) - failMean) / (passMean - failMean));
}

/** `ps` moved from the training pass rate to the one `method` estimates from them (unchanged when it estimates none). */
export function priorShifted(method: PriorShiftMethod, ps: readonly number[], train: TrainingPrior): { prior: number | null; pPass: number[] } {
  const prior = estimatePrior(method, ps, train);
  return { prior, pPass: prior === null ? [...ps] : ps.map((p) => shiftPPass(p, train.prior, prior)) };
}

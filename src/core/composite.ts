/**
 * Composite score and tiers (method.md section 6, reference-free variant of section 8).
 */
import type { PriorWeights, ScoringConfig, TierThresholds, Weights } from './config.js';
import { Score } from './score-vector.js';
import type { PassTier, ScoreVector, Tier } from './types.js';

/** The four signal values a composite is computed from; struct/cov null = scored against the prior. */
export interface SignalValues {
  struct: number | null;
  cov: number | null;
  /** 0-1. */
  coh: number;
  /** 0-1. */
  temp: number;
}

/** The reference-free signals beside Φcoh and Φtemp (each 0-1; see `PriorWeights`). */
export interface PriorSignals {
  focus: number;
  verify: number;
  brevity: number;
  edit: number;
  settle: number;
}

/**
 * f = (w.struct·Φstruct + w.cov·Φcov + w.coh·100·Φcoh + w.temp·100·Φtemp) / Σw,
 * clamped to [0, 100]. With struct and cov null (reference-free), those two
 * terms and their weights are left out, so the remaining weights are
 * renormalised. With the default weights (sum 1) this is the paper's formula.
 */
export function composite(v: SignalValues, weights: Weights, prior?: { weights: PriorWeights; signals: PriorSignals }): ScoreVector {
  if ((v.struct === null || v.cov === null) && prior !== undefined) return priorComposite(v, prior.weights, prior.signals);
  if (v.struct !== null && v.cov !== null) return new Score(referenceTotal(weights, v.struct, v.cov, v.coh, v.temp), v.struct, v.cov, v.coh, v.temp);
  const num = weights.coh * 100 * v.coh + weights.temp * 100 * v.temp;
  const den = weights.coh + weights.temp;
  const total = den > 0 ? Math.min(100, Math.max(0, num / den)) : 0;
  return new Score(total, v.struct, v.cov, v.coh, v.temp);
}

/**
 * The total of {@link composite} scored against a reference (struct and cov known), from plain numbers: a session's
 * frame log recomputes it instead of keeping it (server/frame-log.ts).
 */
export function referenceTotal(weights: Weights, struct: number, cov: number, coh: number, temp: number): number {
  // The sums in composite()'s order as it was (reference-free terms, then the reference's): the same doubles.
  const num = weights.coh * 100 * coh + weights.temp * 100 * temp + (weights.struct * struct + weights.cov * cov);
  const den = weights.coh + weights.temp + (weights.struct + weights.cov);
  return den > 0 ? Math.min(100, Math.max(0, num / den)) : 0;
}

/** Σ of the reference-free weights (the composite's denominator). */
export function priorWeightSum(w: PriorWeights): number {
  return w.coh + w.temp + w.focus + w.verify + w.brevity + w.edit + w.settle;
}

/**
 * Reference-free composite: 100·(Σ w_k·Φ_k) / Σ w_k over Φcoh, Φtemp,
 * Φfocus, Φverify, Φbrevity, Φedit and Φsettle, clamped to [0, 100]. Before
 * any step (all signals 0 by convention) the caller passes zeros.
 */
export function priorComposite(v: SignalValues, w: PriorWeights, p: PriorSignals): ScoreVector {
  const total = priorTotal(w, priorWeightSum(w), v.coh, v.temp, p.focus, p.verify, p.brevity, p.edit, p.settle);
  return new Score(total, null, null, v.coh, v.temp);
}

/** The total of {@link priorComposite} from plain numbers (`den` = {@link priorWeightSum}): the weight grid calls it millions of times. */
export function priorTotal(w: PriorWeights, den: number, coh: number, temp: number, focus: number, verify: number, brevity: number, edit: number, settle: number): number {
  const num = w.coh * coh + w.temp * temp + w.focus * focus + w.verify * verify + w.brevity * brevity + w.edit * edit + w.settle * settle;
  return den > 0 ? Math.min(100, Math.max(0, (100 * num) / den)) : 0;
}

/** One term of the reference-free composite: a signal (0-1) and its weight. */
export interface PriorTerm {
  name: keyof PriorWeights;
  weight: number;
  value: number;
}

const PRIOR_NAMES: ReadonlyArray<keyof PriorWeights> = ['coh', 'temp', 'focus', 'verify', 'brevity', 'edit', 'settle'];

/**
 * The terms of {@link priorComposite} that carry weight (> 0), heaviest first (ties in `PriorWeights` order): what the
 * reference-free total is made of, for a reader (with the default weights Φbrevity, Φedit and Φtemp, not Φcoh).
 */
export function priorTerms(w: PriorWeights, coh: number, temp: number, p: PriorSignals): PriorTerm[] {
  const values: Record<keyof PriorWeights, number> = { coh, temp, ...p };
  return PRIOR_NAMES.filter((name) => w[name] > 0)
    .map((name) => ({ name, weight: w[name], value: values[name] }))
    .sort((a, b) => b.weight - a.weight);
}

/** The passing tier of a score: Ideal (>= ideal), Solid (>= solid), else Lucky. */
export function passTierFor(total: number, tiers: TierThresholds): PassTier {
  if (total >= tiers.ideal) return 'Ideal';
  return total >= tiers.solid ? 'Solid' : 'Lucky';
}

/**
 * The tier of a score: passed → Ideal/Solid/Lucky; failed → Partial-fail
 * (>= partial) or Off-track; unknown outcome → the projected passing tier.
 */
export function tierFor(total: number, passed: boolean | undefined, cfg: Pick<ScoringConfig, 'tiers'>): Tier {
  if (passed === false) return total >= cfg.tiers.partial ? 'Partial-fail' : 'Off-track';
  return passTierFor(total, cfg.tiers);
}

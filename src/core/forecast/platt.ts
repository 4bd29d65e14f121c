/**
 * Recalibration of pPass per source (Platt scaling): pPass = σ(a + b·z) on
 * the model's linear score z, fitted by Newton's method on held-out end-of-
 * run scores and outcomes of one source, pulled toward a prior (a0, b0) by a
 * penalty worth `strength` runs (partial pooling: a source with few outcomes
 * stays near the prior, one with many follows its own). A monotone map
 * with b > 0, so it never changes how runs of one source rank; b is kept
 * at least 0.05 so it cannot reverse them.
 */
import { sigmoid } from './logistic.js';

export interface Platt {
  a: number;
  b: number;
}

export interface ScoredPoint {
  z: number;
  pass: boolean;
  /** How many runs the point counts as (default 1): the default model's map weighs each source alike (train.ts). */
  weight?: number;
}

/** Pseudo-runs the prior counts as (default). */
export const PLATT_STRENGTH = 10;
export const IDENTITY_PLATT: Platt = { a: 0, b: 1 };
const MIN_SLOPE = 0.05;

/**
 * Fits (a, b) on `points` with the prior (default: identity, strength {@link PLATT_STRENGTH}); the slope's
 * prior may be stronger than the intercept's (`slopeStrength`; Infinity keeps the prior's slope: a shift only).
 */
export function fitPlatt(points: readonly ScoredPoint[], prior: Platt = IDENTITY_PLATT, strength = PLATT_STRENGTH, slopeStrength = strength): Platt {
  // A run's log-likelihood curvature is at most ¼ per unit of a (and of b·z): the prior is `strength` such runs.
  const tau = strength / 4;
  const fixedSlope = !Number.isFinite(slopeStrength);
  const tauB = fixedSlope ? 0 : slopeStrength / 4;
  // The penalised negative log-likelihood (convex): Newton steps that do not lower it are halved, since
  // scores all alike (a constant z) make the (a, b) directions nearly collinear and a full step overshoots.
  const loss = (a: number, b: number): number => {
    let l = (tau / 2) * (a - prior.a) ** 2 + (tauB / 2) * (b - prior.b) ** 2;
    for (const { z, pass, weight = 1 } of points) {
      const e = a + b * z;
      l += weight * (pass ? Math.log1p(Math.exp(-e)) : Math.log1p(Math.exp(e)));
    }
    return l;
  };
  let a = prior.a;
  let b = prior.b;
  let current = loss(a, b);
  for (let it = 0; it < 100; it++) {
    let ga = -tau * (a - prior.a);
    let gb = -tauB * (b - prior.b);
    let haa = tau;
    let hab = 0;
    let hbb = tauB;
    for (const { z, pass, weight = 1 } of points) {
      const p = sigmoid(a + b * z);
      const r = weight * ((pass ? 1 : 0) - p);
      const v = weight * Math.max(p * (1 - p), 1e-10);
      ga += r;
      gb += r * z;
      haa += v;
      hab += v * z;
      hbb += v * z * z;
    }
    let da: number;
    let db: number;
    if (fixedSlope) {
      if (!(haa > 1e-12)) break;
      da = ga / haa;
      db = 0;
    } else {
      const det = haa * hbb - hab * hab;
      if (!(det > 1e-12)) break;
      da = (hbb * ga - hab * gb) / det;
      db = (haa * gb - hab * ga) / det;
      // At the slope's floor with the step pushing below it: a step in a alone (projected Newton).
      if (b + db < MIN_SLOPE) {
        db = MIN_SLOPE - b;
        da = (ga - hab * db) / haa;
      }
    }
    let step = 1;
    let next = loss(a + da, Math.max(MIN_SLOPE, b + db));
    while (next > current + 1e-12 && step > 1e-6) {
      step /= 2;
      next = loss(a + step * da, Math.max(MIN_SLOPE, b + step * db));
    }
    a += step * da;
    b = Math.max(MIN_SLOPE, b + step * db);
    current = next;
    if (Math.abs(step * da) < 1e-9 && Math.abs(step * db) < 1e-9) break;
  }
  return { a, b };
}

export const applyPlatt = (c: Platt, z: number): number => sigmoid(c.a + c.b * z);

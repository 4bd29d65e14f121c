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
  let a = prior.a;
  let b = prior.b;
  for (let it = 0; it < 50; it++) {
    let ga = -tau * (a - prior.a);
    let gb = -tauB * (b - prior.b);
    let haa = tau;
    let hab = 0;
    let hbb = tauB;
    for (const { z, pass } of points) {
      const p = sigmoid(a + b * z);
      const r = (pass ? 1 : 0) - p;
      const v = Math.max(p * (1 - p), 1e-10);
      ga += r;
      gb += r * z;
      haa += v;
      hab += v * z;
      hbb += v * z * z;
    }
    if (fixedSlope) {
      if (!(haa > 1e-12)) break;
      const da = ga / haa;
      a += da;
      if (Math.abs(da) < 1e-9) break;
      continue;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 1e-12)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a += da;
    b = Math.max(MIN_SLOPE, b + db);
    if (Math.abs(da) < 1e-9 && Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}

export const applyPlatt = (c: Platt, z: number): number => sigmoid(c.a + c.b * z);

/**
 * Candidate recalibration families for bench/calibration-online.ts (issue 26, CodeR's residual miscalibration
 * after Platt): each fitted on a source's first k outcomes (end scores z under the model in force), pulled toward
 * the map in force (prior). Kept in bench/ until one beats the shipped Platt rule held out.
 *
 * - beta: Kull et al. 2017, logit p' = α·ln p − β·ln(1 − p) + c on p = the prior map's σ(a0 + b0·z). Written as
 *   Platt in z plus one feature v = ln p + ln(1 − p) (α − β ≠ 0 bends the map on one side of p = ½), so with d = 0
 *   it is the shipped Platt fit exactly: prior (a0, b0, 0), strengths (intercept, slope, bend) in runs.
 * - histogram: the shipped Platt fit, then a logit offset per bin of its p (equal width), each pulled to 0 by a
 *   prior worth `binStrength` runs: a shape Platt cannot follow, corrected only where a bin has the outcomes.
 */
import { sigmoid } from '../src/core/forecast/logistic.js';
import type { Platt, ScoredPoint } from '../src/core/forecast/platt.js';

const softplus = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));
/** ln p + ln(1 − p) at p = σ(e). */
export const bend = (e: number) => -softplus(-e) - softplus(e);

/** Penalised logistic regression by damped Newton on a few features (prior mean and strength in runs each). */
export function fitPenalised(xs: readonly number[][], ys: readonly boolean[], mean: readonly number[], strength: readonly number[]): number[] {
  const m = mean.length;
  const tau = strength.map((s) => (Number.isFinite(s) ? s / 4 : 0));
  const fixed = strength.map((s) => !Number.isFinite(s));
  const w = [...mean];
  const loss = (v: readonly number[]) => {
    let l = 0;
    for (let j = 0; j < m; j++) l += (tau[j]! / 2) * (v[j]! - mean[j]!) ** 2;
    xs.forEach((x, i) => {
      let e = 0;
      for (let j = 0; j < m; j++) e += v[j]! * x[j]!;
      l += ys[i] ? softplus(-e) : softplus(e);
    });
    return l;
  };
  let current = loss(w);
  for (let it = 0; it < 100; it++) {
    const g = w.map((v, j) => -tau[j]! * (v - mean[j]!));
    const h = Array.from({ length: m }, (_, j) => Array.from({ length: m }, (_, k) => (j === k ? tau[j]! : 0)));
    xs.forEach((x, i) => {
      let e = 0;
      for (let j = 0; j < m; j++) e += w[j]! * x[j]!;
      const p = sigmoid(e);
      const r = (ys[i] ? 1 : 0) - p;
      const q = Math.max(p * (1 - p), 1e-10);
      for (let j = 0; j < m; j++) {
        g[j]! += r * x[j]!;
        for (let k = 0; k < m; k++) h[j]![k]! += q * x[j]! * x[k]!;
      }
    });
    const free = [...Array(m).keys()].filter((j) => !fixed[j]);
    const step = solve(
      free.map((j) => free.map((k) => h[j]![k]! + (j === k ? 1e-9 : 0))),
      free.map((j) => g[j]!),
    );
    if (step === undefined) break;
    const d = Array<number>(m).fill(0);
    free.forEach((j, i) => (d[j] = step[i]!));
    let t = 1;
    let next = loss(w.map((v, j) => v + d[j]!));
    while (next > current + 1e-12 && t > 1e-6) {
      t /= 2;
      next = loss(w.map((v, j) => v + t * d[j]!));
    }
    for (let j = 0; j < m; j++) w[j]! += t * d[j]!;
    current = next;
    if (d.every((x) => Math.abs(t * x) < 1e-9)) break;
  }
  return w;
}

function solve(a: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[piv]![c]!)) piv = r;
    if (!(Math.abs(m[piv]![c]!) > 1e-12)) return undefined;
    [m[c], m[piv]] = [m[piv]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((r, i) => r[n]! / r[i]!);
}

/** A fitted map from z to pPass. */
export type Map = (z: number) => number;

export interface BetaRule {
  strength: number;
  slopeStrength: number;
  bendStrength: number;
}
export function fitBeta(points: readonly ScoredPoint[], prior: Platt, rule: BetaRule): Map {
  const e0 = (z: number) => prior.a + prior.b * z;
  const feats = (z: number) => [1, z, bend(e0(z))];
  const w =
    points.length === 0
      ? [prior.a, prior.b, 0]
      : fitPenalised(
          points.map((p) => feats(p.z)),
          points.map((p) => p.pass),
          [prior.a, prior.b, 0],
          [rule.strength, rule.slopeStrength, rule.bendStrength],
        );
  return (z) => {
    const f = feats(z);
    return sigmoid(w[0]! * f[0]! + w[1]! * f[1]! + w[2]! * f[2]!);
  };
}

export interface HistogramRule {
  bins: number;
  binStrength: number;
  /** Offsets made non-decreasing across bins (pool adjacent violators, weighted by outcomes + prior): a monotone map. */
  monotone?: boolean;
}
/** `platt` already fitted on the same points; per-bin logit offsets of its p, each toward 0. */
export function fitHistogram(points: readonly ScoredPoint[], platt: Platt, rule: HistogramRule): Map {
  const e = (z: number) => platt.a + platt.b * z;
  const bin = (z: number) => Math.min(rule.bins - 1, Math.floor(sigmoid(e(z)) * rule.bins));
  const offsets = Array.from({ length: rule.bins }, (_, j) => {
    const inBin = points.filter((p) => bin(p.z) === j);
    if (inBin.length === 0) return 0;
    // One-feature fit with offset e(z): the feature is 1, the offset enters through a shifted prior-free Newton.
    let d = 0;
    const tau = rule.binStrength / 4;
    for (let it = 0; it < 50; it++) {
      let g = -tau * d;
      let h = tau;
      for (const p of inBin) {
        const q = sigmoid(e(p.z) + d);
        g += (p.pass ? 1 : 0) - q;
        h += Math.max(q * (1 - q), 1e-10);
      }
      const step = g / h;
      d += step;
      if (Math.abs(step) < 1e-9) break;
    }
    return d;
  });
  if (rule.monotone === true) {
    const weight = offsets.map((_, j) => points.filter((p) => bin(p.z) === j).length + rule.binStrength);
    pool(offsets, weight);
  }
  return (z) => sigmoid(e(z) + offsets[bin(z)]!);
}

/** Weighted pool-adjacent-violators in place: the closest non-decreasing sequence. */
function pool(xs: number[], ws: readonly number[]): void {
  const blocks: Array<{ v: number; w: number; n: number }> = [];
  xs.forEach((v, i) => {
    blocks.push({ v, w: ws[i]!, n: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.v > blocks[blocks.length - 1]!.v) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      blocks.push({ v: (a.v * a.w + b.v * b.w) / (a.w + b.w), w: a.w + b.w, n: a.n + b.n });
    }
  });
  let i = 0;
  for (const b of blocks) for (let k = 0; k < b.n; k++) xs[i++] = b.v;
}

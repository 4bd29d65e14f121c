/**
 * L2-regularised logistic regression fitted by Newton's method (IRLS) on
 * standardised features, with sample weights and, optionally, one intercept
 * per group (source) pulled toward a shared one (partial pooling: a Gaussian
 * prior of standard deviation `groups.sd` on each group's offset). The
 * weights' penalty may be centred on a prior weight vector instead of 0, which
 * is how a per-source model is pulled toward the pooled one (fit.ts).
 * Hand-written on purpose: the npm `ml-logistic-regression` package runs
 * 50,000 plain gradient steps with neither intercept, regularisation nor
 * sample weights. Deterministic: same data, same coefficients.
 */

/** Rows of features (n × d, row-major), 0/1 labels, sample weights and optional group of each row. */
export interface Design {
  x: Float64Array;
  n: number;
  d: number;
  y: Uint8Array;
  w: Float64Array;
  /** Group (0..groups.count − 1) of each row, with `FitOptions.groups`. */
  group?: Int32Array;
  /** Row pairs (a row that should score above, then a row that should score below), for `FitOptions.pairWeight`. */
  pairs?: Int32Array;
}

/** Per feature: the mean and scale the weights apply to ((x − mean) / scale). */
export interface Standardisation {
  mean: number[];
  scale: number[];
}

export interface LogisticFit extends Standardisation {
  /** On standardised features. */
  weights: number[];
  /** The shared intercept (what a row of an unknown group gets). */
  intercept: number;
  /** Per group: the shared intercept plus the group's offset (empty without groups). */
  groupIntercepts: number[];
  /** Newton iterations used. */
  iterations: number;
}

export interface FitOptions {
  /** L2 penalty on the standardised weights (not the intercepts), per unit of total sample weight (default 1e-2). */
  lambda?: number;
  /** Partially pooled group intercepts: `count` groups, offsets with prior standard deviation `sd` (logit units). */
  groups?: { count: number; sd: number };
  /** Centre of the weights' penalty (standardised; default all 0). */
  prior?: readonly number[];
  /** Standardisation to use (default: the weighted mean and standard deviation of the rows). */
  standard?: Standardisation;
  /** Starting weights (standardised). */
  start?: readonly number[];
  /**
   * Weight of a pairwise ranking term beside the pointwise loss, per unit of total sample weight: pairWeight ·
   * mean over `Design.pairs` of log(1 + e^−(z_a − z_b)), z the linear score without intercepts (a pair shares them).
   * 0 or absent: not computed at all (the fit is the pointwise one, bit for bit).
   */
  pairWeight?: number;
  maxIterations?: number;
}

/** 1 / (1 + e^-z) without overflow, one `Math.exp` a call (the forecaster calls it at every step). */
export function sigmoid(z: number): number {
  const e = Math.exp(-Math.abs(z));
  return z >= 0 ? 1 / (1 + e) : e / (1 + e);
}

/** The linear score of a row on standardised features, without intercept. */
export function linear(fit: Pick<LogisticFit, 'mean' | 'scale' | 'weights'>, x: ArrayLike<number>): number {
  let z = 0;
  for (let j = 0; j < fit.weights.length; j++) z += fit.weights[j]! * ((x[j]! - fit.mean[j]!) / fit.scale[j]!);
  return z;
}

/** P(y = 1 | x) under a fit (shared intercept). */
export function predict(fit: Pick<LogisticFit, 'mean' | 'scale' | 'weights' | 'intercept'>, x: ArrayLike<number>): number {
  return sigmoid(fit.intercept + linear(fit, x));
}

/** The Cholesky factor L (lower, row-major) of a symmetric positive-definite d×d A. */
export function cholesky(a: Float64Array, d: number): Float64Array {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j]!;
      for (let k = 0; k < j; k++) s -= l[i * d + k]! * l[j * d + k]!;
      if (i === j) l[i * d + i] = Math.sqrt(Math.max(s, 1e-12));
      else l[i * d + j] = s / l[j * d + j]!;
    }
  }
  return l;
}

/** Solves L·Lᵀ·x = b given the Cholesky factor L. */
export function solveCholesky(l: Float64Array, b: Float64Array, d: number): Float64Array {
  const y = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * d + k]! * y[k]!;
    y[i] = s / l[i * d + i]!;
  }
  const x = new Float64Array(d);
  for (let i = d - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < d; k++) s -= l[k * d + i]! * x[k]!;
    x[i] = s / l[i * d + i]!;
  }
  return x;
}

/** Solves A·x = b for a symmetric positive-definite A (Cholesky); A is d×d row-major. */
export function solveSpd(a: Float64Array, b: Float64Array, d: number): Float64Array {
  return solveCholesky(cholesky(a, d), b, d);
}

/** The weighted mean and standard deviation of each column; a constant column gets scale 1 (its weight is then pulled to 0 by the penalty). */
export function standardisation(m: Design): Standardisation {
  const { x, n, d, w } = m;
  const mean = new Array<number>(d).fill(0);
  const sq = new Array<number>(d).fill(0);
  let tw = 0;
  for (let i = 0; i < n; i++) {
    tw += w[i]!;
    for (let j = 0; j < d; j++) mean[j]! += w[i]! * x[i * d + j]!;
  }
  for (let j = 0; j < d; j++) mean[j] = tw > 0 ? mean[j]! / tw : 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) sq[j]! += w[i]! * (x[i * d + j]! - mean[j]!) ** 2;
  return { mean, scale: sq.map((s) => (tw > 0 && s / tw > 1e-12 ? Math.sqrt(s / tw) : 1)) };
}

/**
 * Adds the pairwise term's gradient (and, with `h`, its curvature: lower triangle) to a Newton step's: `c` · the mean
 * over pairs of log(1 + e^−Δ), Δ = βᵀ(z_a − z_b) on the standardised rows, so intercepts never enter.
 */
function addPairs(z: Float64Array, d: number, dim: number, pairs: Int32Array, weight: number, beta: Float64Array, g: Float64Array, h: Float64Array | undefined): void {
  const c = weight / (pairs.length / 2);
  const dx = new Float64Array(d);
  for (let k = 0; k < pairs.length; k += 2) {
    const a = pairs[k]! * d;
    const b = pairs[k + 1]! * d;
    let delta = 0;
    for (let j = 0; j < d; j++) {
      dx[j] = z[a + j]! - z[b + j]!;
      delta += beta[j]! * dx[j]!;
    }
    const s = sigmoid(-delta);
    for (let j = 0; j < d; j++) g[j]! += c * s * dx[j]!;
    if (h === undefined) continue;
    const v = c * Math.max(s * (1 - s), 1e-10);
    for (let i = 0; i < d; i++) for (let j = 0; j <= i; j++) h[i * dim + j]! += v * dx[i]! * dx[j]!;
  }
}

/** Fits P(y | x) on a design (at least one row; callers validate). */
export function fitDesign(m: Design, options: FitOptions = {}): LogisticFit {
  const { n, d, y, w } = m;
  if (n === 0) throw new Error('fitDesign: need at least one row');
  const { mean, scale } = options.standard ?? standardisation(m);
  const z = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) z[i * d + j] = (m.x[i * d + j]! - mean[j]!) / scale[j]!;
  const groups = options.groups !== undefined && m.group !== undefined ? options.groups : undefined;
  const g0 = d + 1; // first group offset; d is the shared intercept
  const dim = g0 + (groups?.count ?? 0);
  let tw = 0;
  let pos = 0;
  for (let i = 0; i < n; i++) {
    tw += w[i]!;
    pos += y[i]! * w[i]!;
  }
  const lambda = (options.lambda ?? 1e-2) * tw;
  const prior = options.prior ?? new Array<number>(d).fill(0);
  const pairWeight = m.pairs !== undefined && m.pairs.length > 0 ? (options.pairWeight ?? 0) : 0;
  const offsetPenalty = groups !== undefined ? 1 / (groups.sd * groups.sd) : 0;
  const beta = new Float64Array(dim);
  if (options.start !== undefined) for (let j = 0; j < d; j++) beta[j] = options.start[j]!;
  const rate = Math.min(Math.max(pos / tw, 1e-6), 1 - 1e-6);
  beta[d] = Math.log(rate / (1 - rate));
  const max = options.maxIterations ?? 50;
  const h = new Float64Array(dim * dim);
  const g = new Float64Array(dim);
  // Newton steps while far from the optimum; near it (a step under 1e-3) the last Hessian's factor is
  // kept and only the gradient is recomputed (the chord method: O(n·d) a step instead of O(n·d²)).
  let factor: Float64Array | undefined;
  let it = 0;
  for (; it < max; it++) {
    const full = factor === undefined;
    if (full) h.fill(0);
    g.fill(0);
    for (let i = 0; i < n; i++) {
      const row = i * d;
      const gi = groups !== undefined ? g0 + m.group![i]! : -1;
      let s = beta[d] + (gi >= 0 ? beta[gi]! : 0);
      for (let j = 0; j < d; j++) s += beta[j]! * z[row + j]!;
      const p = sigmoid(s);
      const r = w[i]! * (y[i]! - p);
      for (let a = 0; a < d; a++) g[a]! += r * z[row + a]!;
      g[d]! += r;
      if (gi >= 0) g[gi]! += r;
      if (!full) continue;
      const v = w[i]! * Math.max(p * (1 - p), 1e-10);
      for (let a = 0; a < d; a++) {
        const va = v * z[row + a]!;
        const base = a * dim;
        for (let b = 0; b <= a; b++) h[base + b]! += va * z[row + b]!;
        h[d * dim + a]! += va;
        if (gi >= 0) h[gi * dim + a]! += va;
      }
      h[d * dim + d]! += v;
      if (gi >= 0) {
        h[gi * dim + gi]! += v;
        h[gi * dim + d]! += v;
      }
    }
    if (pairWeight > 0) addPairs(z, d, dim, m.pairs!, pairWeight * tw, beta, g, full ? h : undefined);
    for (let j = 0; j < d; j++) g[j]! -= lambda * (beta[j]! - prior[j]!);
    // A vanishing ridge on the shared intercept keeps the system definite when one outcome is missing.
    g[d]! -= 1e-9 * tw * beta[d];
    for (let k = g0; k < dim; k++) g[k]! -= offsetPenalty * beta[k]!;
    if (full) {
      // Only the lower triangle was summed (rows of later parameters); mirror it.
      for (let a = 0; a < dim; a++) for (let b = 0; b < a; b++) h[b * dim + a] = h[a * dim + b]!;
      for (let j = 0; j < d; j++) h[j * dim + j]! += lambda;
      h[d * dim + d]! += 1e-9 * tw;
      for (let k = g0; k < dim; k++) h[k * dim + k]! += offsetPenalty;
      factor = cholesky(h, dim);
    }
    const step = solveCholesky(factor!, g, dim);
    let change = 0;
    for (let a = 0; a < dim; a++) {
      beta[a] = beta[a]! + step[a]!;
      change = Math.max(change, Math.abs(step[a]!));
    }
    if (change < 1e-8) {
      it += 1;
      break;
    }
    if (change > 1e-3) factor = undefined;
  }
  const intercept = beta[d];
  return {
    mean,
    scale,
    weights: Array.from(beta.subarray(0, d)),
    intercept,
    groupIntercepts: Array.from(beta.subarray(g0), (o) => intercept + o),
    iterations: it,
  };
}

/** Fits P(y | x) from rows of numbers (a convenience over {@link fitDesign}). */
export function fitLogistic(xs: ReadonlyArray<readonly number[]>, ys: readonly number[], weights?: readonly number[], options: FitOptions = {}): LogisticFit {
  const n = xs.length;
  if (n === 0 || ys.length !== n) throw new Error('fitLogistic: need as many labels as rows, and at least one row');
  const d = xs[0]!.length;
  const x = new Float64Array(n * d);
  xs.forEach((r, i) => x.set(r, i * d));
  return fitDesign({ x, n, d, y: Uint8Array.from(ys), w: weights !== undefined ? Float64Array.from(weights) : new Float64Array(n).fill(1) }, options);
}

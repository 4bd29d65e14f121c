/**
 * L2-regularised logistic regression fitted by Newton's method (IRLS) on
 * standardised features, with sample weights. Hand-written on purpose: the
 * npm `ml-logistic-regression` package runs 50,000 plain gradient steps with
 * neither intercept, regularisation nor sample weights, which is both slower
 * and less stable on a few thousand prefix samples than a dozen Newton steps
 * on a 16×16 system. Deterministic: same data, same coefficients.
 */

export interface LogisticFit {
  /** Per feature: the mean and scale the weights apply to ((x − mean) / scale). */
  mean: number[];
  scale: number[];
  weights: number[];
  intercept: number;
  /** Newton iterations used. */
  iterations: number;
}

export interface FitOptions {
  /** L2 penalty on the standardised weights (not the intercept), per unit of total sample weight (default 1e-2). */
  lambda?: number;
  maxIterations?: number;
}

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** P(y = 1 | x) under a fit. */
export function predict(fit: Pick<LogisticFit, 'mean' | 'scale' | 'weights' | 'intercept'>, x: readonly number[]): number {
  let z = fit.intercept;
  for (let j = 0; j < fit.weights.length; j++) z += fit.weights[j]! * ((x[j]! - fit.mean[j]!) / fit.scale[j]!);
  return sigmoid(z);
}

/** Solves A·x = b for a symmetric positive-definite A (Cholesky); A is d×d row-major. */
export function solveSpd(a: Float64Array, b: Float64Array, d: number): Float64Array {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j]!;
      for (let k = 0; k < j; k++) s -= l[i * d + k]! * l[j * d + k]!;
      if (i === j) l[i * d + i] = Math.sqrt(Math.max(s, 1e-12));
      else l[i * d + j] = s / l[j * d + j]!;
    }
  }
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

function standardise(xs: ReadonlyArray<readonly number[]>, w: readonly number[], d: number): { mean: number[]; scale: number[] } {
  const mean = new Array<number>(d).fill(0);
  const sq = new Array<number>(d).fill(0);
  let tw = 0;
  xs.forEach((x, i) => {
    tw += w[i]!;
    for (let j = 0; j < d; j++) mean[j]! += w[i]! * x[j]!;
  });
  for (let j = 0; j < d; j++) mean[j] = tw > 0 ? mean[j]! / tw : 0;
  xs.forEach((x, i) => {
    for (let j = 0; j < d; j++) sq[j]! += w[i]! * (x[j]! - mean[j]!) ** 2;
  });
  // A constant feature gets scale 1 (its weight is then pulled to 0 by the penalty).
  const scale = sq.map((s) => (tw > 0 && s / tw > 1e-12 ? Math.sqrt(s / tw) : 1));
  return { mean, scale };
}

/**
 * Fits P(y | x). `xs` rows are feature vectors, `ys` 0/1 labels, `weights`
 * per-sample weights (default 1). Throws on empty or ragged input (callers validate).
 */
export function fitLogistic(xs: ReadonlyArray<readonly number[]>, ys: readonly number[], weights?: readonly number[], options: FitOptions = {}): LogisticFit {
  const n = xs.length;
  if (n === 0 || ys.length !== n) throw new Error('fitLogistic: need as many labels as rows, and at least one row');
  const d = xs[0]!.length;
  const w = weights ?? new Array<number>(n).fill(1);
  const { mean, scale } = standardise(xs, w, d);
  const z = xs.map((x) => x.map((v, j) => (v - mean[j]!) / scale[j]!));
  const tw = w.reduce((a, b) => a + b, 0);
  const lambda = (options.lambda ?? 1e-2) * tw;
  const dim = d + 1; // last coordinate: intercept
  let beta = new Float64Array(dim);
  const prior = ys.reduce((s, y, i) => s + y * w[i]!, 0) / tw;
  beta[d] = Math.log(Math.min(Math.max(prior, 1e-6), 1 - 1e-6) / (1 - Math.min(Math.max(prior, 1e-6), 1 - 1e-6)));
  const max = options.maxIterations ?? 50;
  let it = 0;
  for (; it < max; it++) {
    const h = new Float64Array(dim * dim);
    const g = new Float64Array(dim);
    for (let i = 0; i < n; i++) {
      const row = z[i]!;
      let s = beta[d]!;
      for (let j = 0; j < d; j++) s += beta[j]! * row[j]!;
      const p = sigmoid(s);
      const r = w[i]! * (ys[i]! - p);
      const v = w[i]! * Math.max(p * (1 - p), 1e-10);
      for (let a = 0; a < dim; a++) {
        const xa = a === d ? 1 : row[a]!;
        g[a]! += r * xa;
        for (let b = 0; b <= a; b++) h[a * dim + b]! += v * xa * (b === d ? 1 : row[b]!);
      }
    }
    for (let a = 0; a < dim; a++) for (let b = 0; b < a; b++) h[b * dim + a] = h[a * dim + b]!;
    for (let j = 0; j < d; j++) {
      g[j]! -= lambda * beta[j]!;
      h[j * dim + j]! += lambda;
    }
    const step = solveSpd(h, g, dim);
    let change = 0;
    const next = new Float64Array(dim);
    for (let a = 0; a < dim; a++) {
      next[a] = beta[a]! + step[a]!;
      change = Math.max(change, Math.abs(step[a]!));
    }
    beta = next;
    if (change < 1e-8) {
      it += 1;
      break;
    }
  }
  return { mean, scale, weights: Array.from(beta.subarray(0, d)), intercept: beta[d]!, iterations: it };
}

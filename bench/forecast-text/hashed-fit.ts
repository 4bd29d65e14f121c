/**
 * The hashed text model of bench/forecast-text.ts: each run's bag of words (tokens.ts) hashed into `buckets` signed
 * buckets (feature hashing: collisions cancel in expectation), binary or ln(1 + count); an L2 logistic with one
 * unpenalised intercept per source (differences between sources' pass rates go there, so the weights are learned from
 * differences between runs of one source), optionally the run's held-out pPass logit as one more unpenalised input,
 * and optionally each bucket centred within source (the source's mean row subtracted: no outcome is read, so a
 * held-out source is centred on its own runs). Fitted by L-BFGS.
 */

/** A run as the model sees it: its words as ids of a shared dictionary, with counts. */
export interface TextRun {
  source: string;
  task: string;
  passed: boolean;
  ids: Int32Array;
  counts: Float64Array;
}

export interface Vocabulary {
  buckets: number;
  /** Which dictionary ids are kept (the rest give nothing). */
  keep: Uint8Array;
  binary: boolean;
}

/** One sparse row: bucket indices and values. */
export interface Row {
  idx: Int32Array;
  val: Float64Array;
}

/** FNV-1a of a word: its bucket from the low bits, its sign from bit 31. */
export function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The row of one run under a vocabulary (`hashes`: each dictionary id's hash). */
export function rowOf(run: TextRun, v: Vocabulary, hashes: Uint32Array): Row {
  const acc = new Map<number, number>();
  for (let k = 0; k < run.ids.length; k++) {
    const id = run.ids[k]!;
    if (v.keep[id] !== 1) continue;
    const h = hashes[id]!;
    const x = v.binary ? 1 : Math.log1p(run.counts[k]!);
    const b = h & (v.buckets - 1);
    acc.set(b, (acc.get(b) ?? 0) + (h >>> 31 === 1 ? -x : x));
  }
  const idx = Int32Array.from(acc.keys());
  return { idx, val: Float64Array.from(idx, (b) => acc.get(b)!) };
}

/** The mean row of each source over `rows` (dense, `buckets` long). */
export function sourceMeans(rows: readonly Row[], sources: readonly string[], buckets: number): Map<string, Float64Array> {
  const sum = new Map<string, Float64Array>();
  const n = new Map<string, number>();
  rows.forEach((r, i) => {
    const s = sources[i]!;
    let m = sum.get(s);
    if (m === undefined) sum.set(s, (m = new Float64Array(buckets)));
    for (let k = 0; k < r.idx.length; k++) m[r.idx[k]!]! += r.val[k]!;
    n.set(s, (n.get(s) ?? 0) + 1);
  });
  for (const [s, m] of sum) for (let j = 0; j < buckets; j++) m[j]! /= n.get(s)!;
  return sum;
}

export interface FitInput {
  rows: readonly Row[];
  sources: readonly string[];
  passed: readonly boolean[];
  /** The pPass logit of each run, or null for text alone. */
  offset: readonly number[] | null;
  buckets: number;
  lambda: number;
  /** Means to centre each source's rows on (null: no centring). */
  means: ReadonlyMap<string, Float64Array> | null;
}

export interface TextModel {
  w: Float64Array;
  gamma: number;
  bySource: Map<string, number>;
}

const dot = (w: Float64Array, r: Row) => {
  let s = 0;
  for (let k = 0; k < r.idx.length; k++) s += w[r.idx[k]!]! * r.val[k]!;
  return s;
};
const dense = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
};

/** The linear score of a row (no intercept: within one source it orders nothing). */
export function scoreRow(m: TextModel, r: Row, mean: Float64Array | null, offset: number | null): number {
  return dot(m.w, r) - (mean === null ? 0 : dense(m.w, mean)) + (offset === null ? 0 : m.gamma * offset);
}

/** Mean log loss + λ/2 |w|², minimised over w, one intercept per source and the offset's weight. */
export function fitText(o: FitInput, iterations = 150): TextModel {
  const names = [...new Set(o.sources)].sort();
  const S = names.length;
  const B = o.buckets;
  const src = o.sources.map((s) => names.indexOf(s));
  const N = o.rows.length;
  const dim = B + S + 1;
  const meanOf = names.map((s) => o.means?.get(s) ?? null);
  const f = (theta: Float64Array, grad: Float64Array): number => {
    const w = theta.subarray(0, B);
    const muW = meanOf.map((m) => (m === null ? 0 : dense(w, m)));
    grad.fill(0);
    const R = new Float64Array(S);
    let loss = 0;
    for (let i = 0; i < N; i++) {
      const s = src[i]!;
      const z = dot(w, o.rows[i]!) - muW[s]! + theta[B + s]! + (o.offset === null ? 0 : theta[B + S]! * o.offset[i]!);
      const y = o.passed[i] ? 1 : 0;
      loss += Math.max(z, 0) - z * y + Math.log1p(Math.exp(-Math.abs(z)));
      const r = (1 / (1 + Math.exp(-z)) - y) / N;
      const row = o.rows[i]!;
      for (let k = 0; k < row.idx.length; k++) grad[row.idx[k]!]! += r * row.val[k]!;
      R[s]! += r;
      if (o.offset !== null) grad[B + S]! += r * o.offset[i]!;
    }
    for (let s = 0; s < S; s++) {
      grad[B + s] = R[s]!;
      const m = meanOf[s];
      if (m) for (let j = 0; j < B; j++) grad[j]! -= R[s]! * m[j]!;
    }
    let reg = 0;
    for (let j = 0; j < B; j++) {
      reg += w[j]! * w[j]!;
      grad[j]! += o.lambda * w[j]!;
    }
    return loss / N + (o.lambda / 2) * reg;
  };
  const theta = lbfgs(f, new Float64Array(dim), iterations);
  return { w: theta.slice(0, B), gamma: o.offset === null ? 0 : theta[B + S]!, bySource: new Map(names.map((s, k) => [s, theta[B + k]!])) };
}

/** Limited-memory BFGS (m = 8) with a backtracking Armijo line search; stops on a tiny gradient or step. */
export function lbfgs(f: (x: Float64Array, g: Float64Array) => number, x0: Float64Array, iterations: number): Float64Array {
  const n = x0.length;
  const m = 8;
  let x = x0;
  let g = new Float64Array(n);
  let fx = f(x, g);
  const ss: Float64Array[] = [];
  const ys: Float64Array[] = [];
  for (let it = 0; it < iterations; it++) {
    // Two-loop recursion: d = −H g.
    const q = Float64Array.from(g);
    const alpha: number[] = [];
    for (let k = ss.length - 1; k >= 0; k--) {
      const a = dense(ss[k]!, q) / dense(ys[k]!, ss[k]!);
      alpha[k] = a;
      for (let j = 0; j < n; j++) q[j]! -= a * ys[k]![j]!;
    }
    const last = ss.length - 1;
    const gammaH = last >= 0 ? dense(ss[last]!, ys[last]!) / dense(ys[last]!, ys[last]!) : 1 / Math.max(1, Math.sqrt(dense(g, g)));
    for (let j = 0; j < n; j++) q[j]! *= gammaH;
    for (let k = 0; k < ss.length; k++) {
      const b = dense(ys[k]!, q) / dense(ys[k]!, ss[k]!);
      for (let j = 0; j < n; j++) q[j]! += ss[k]![j]! * (alpha[k]! - b);
    }
    const gd = -dense(g, q);
    if (!(gd < 0)) break;
    let step = 1;
    const xn = new Float64Array(n);
    const gn = new Float64Array(n);
    let fn = Infinity;
    for (let tries = 0; tries < 30; tries++) {
      for (let j = 0; j < n; j++) xn[j] = x[j]! - step * q[j]!;
      fn = f(xn, gn);
      if (fn <= fx + 1e-4 * step * gd) break;
      step /= 2;
    }
    if (!(fn < fx)) break;
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      s[j] = xn[j]! - x[j]!;
      y[j] = gn[j]! - g[j]!;
    }
    if (dense(s, y) > 1e-12) {
      ss.push(s);
      ys.push(y);
      if (ss.length > m) {
        ss.shift();
        ys.shift();
      }
    }
    const done = fx - fn < 1e-9 * Math.max(1, Math.abs(fx));
    x = xn;
    g = gn;
    fx = fn;
    if (done) break;
  }
  return x;
}

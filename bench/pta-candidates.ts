/**
 * Candidate ways to score a run against its leave-one-out reference, each CHOSEN on the training groups only
 * (pta-rules.ts holds a group out, chooses on the others, scores the held-out group). A row carries a run's four
 * Φ signals on the composite's scales and the forecaster's held-out pPass (fitted without the run's source; for
 * training rows also without the held-out group: no outcome of the held-out group reaches its choice).
 * - grid: the composite's weights over some of [Φstruct, Φcov, Φcoh, Φtemp, pPass] on a simplex grid, chosen by
 *   the rule `choosePtaWeights` uses (largest worst margin over each training group's best single Φ, ties to the
 *   mean margin), optionally constrained (a structural prior), shrunk toward an anchor (margins minus λ × the L1
 *   distance) or with the within-task concordance of the training groups added to the objective;
 * - logistic: an L2 logistic regression of the outcome on some columns with one intercept per training source
 *   (partial pooling, core/forecast/logistic.ts): the within-source slope, learned on the other sources.
 */
import { fitDesign, linear } from '../src/core/forecast/logistic.js';
import { sortedAuroc, type ScoredGroup } from '../src/core/forecast/grid-auroc.js';

/** One run: outcome, source, task, and the columns [Φstruct, Φcov, 100 Φcoh, 100 Φtemp, 100 pPass] and the forecaster's z. */
export interface Row {
  source: string;
  task: string;
  passed: boolean;
  x: readonly number[];
  z: number;
  steps: number;
}

export const COLUMNS = ['struct', 'cov', 'coh', 'temp', 'pPass'] as const;
const PHI = [0, 1, 2, 3];

export interface Chosen {
  /** What was chosen (weights or coefficients), for the table. */
  text: string;
  score: (r: Row) => number;
}

export type Rule = (train: ReadonlyArray<readonly Row[]>) => Chosen;

const groupOf = (rows: readonly Row[]): ScoredGroup<Row> => ({ pos: rows.filter((r) => r.passed), neg: rows.filter((r) => !r.passed) });
const dot = (w: readonly number[], x: readonly number[]) => w.reduce((s, v, i) => s + v * x[i]!, 0);

/** Every weight vector over `dims` columns (others 0) on the simplex with the given step. */
export function simplex(dims: readonly number[], step: number): number[][] {
  const n = Math.round(1 / step);
  const out: number[][] = [];
  const rec = (k: number, left: number, w: number[]) => {
    if (k === dims.length - 1) {
      w[dims[k]!] = left / n;
      out.push([...w]);
      return;
    }
    for (let a = 0; a <= left; a++) {
      w[dims[k]!] = a / n;
      rec(k + 1, left - a, w);
    }
  };
  rec(0, n, new Array<number>(COLUMNS.length).fill(0));
  return out;
}

/** Concordance of (pass, fail) pairs of one source and task (ties ½); null without a pair. */
export function withinTask(rows: readonly Row[], score: (r: Row) => number): number | null {
  const by = new Map<string, Row[]>();
  for (const r of rows) by.set(`${r.source}\u0000${r.task}`, [...(by.get(`${r.source}\u0000${r.task}`) ?? []), r]);
  let num = 0;
  let den = 0;
  for (const g of by.values())
    for (const p of g.filter((r) => r.passed))
      for (const f of g.filter((r) => !r.passed)) {
        const d = score(p) - score(f);
        num += d > 0 ? 1 : d === 0 ? 0.5 : 0;
        den += 1;
      }
  return den === 0 ? null : num / den;
}

export interface GridOptions {
  dims: readonly number[];
  step: number;
  constraint?: (w: readonly number[]) => boolean;
  /** Margins minus `lambda` × the L1 distance of the weights to `anchor`. */
  shrink?: { lambda: number; anchor: readonly number[] };
  /** Adds this multiple of the training groups' within-task concordance to the objective. */
  withinTask?: number;
}

const wText = (w: readonly number[]) =>
  w
    .map((v, i) => [COLUMNS[i], v] as const)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${Number(v.toFixed(2))}`)
    .join(', ');

/** The grid rule (see the file comment). */
export const gridRule =
  (o: GridOptions): Rule =>
  (train) => {
    const groups = train.map(groupOf);
    const base = groups.map((g) => Math.max(...PHI.map((j) => sortedAuroc(g, (r) => r.x[j]!) ?? -Infinity)));
    const all = train.flat();
    let best: { key: [number, number]; w: number[] } | undefined;
    for (const w of simplex(o.dims, o.step)) {
      if (o.constraint !== undefined && !o.constraint(w)) continue;
      const score = (r: Row) => dot(w, r.x);
      const margins = groups.map((g, i) => (sortedAuroc(g, score) ?? NaN) - base[i]!).filter((m) => Number.isFinite(m));
      if (margins.length === 0) continue;
      const pen = o.shrink === undefined ? 0 : o.shrink.lambda * w.reduce((s, v, i) => s + Math.abs(v - o.shrink!.anchor[i]!), 0);
      const extra = o.withinTask === undefined ? 0 : o.withinTask * (withinTask(all, score) ?? 0.5);
      const key: [number, number] = [Math.min(...margins) - pen + extra, margins.reduce((a, b) => a + b, 0) / margins.length - pen + extra];
      if (best === undefined || key[0] > best.key[0] + 1e-12 || (Math.abs(key[0] - best.key[0]) <= 1e-12 && key[1] > best.key[1] + 1e-12)) best = { key, w };
    }
    const w = best?.w ?? [1, 0, 0, 0, 0];
    return { text: wText(w), score: (r) => dot(w, r.x) };
  };

/** A fixed score (no choice). */
export const fixedRule =
  (text: string, score: (r: Row) => number): Rule =>
  () => ({ text, score });

/** Logistic regression on the given row features, one partially pooled intercept per training source. */
export const logisticRule =
  (names: readonly string[], features: (r: Row) => number[], lambda = 0.01): Rule =>
  (train) => {
    const rows = train.flat();
    const sources = [...new Set(rows.map((r) => r.source))].sort();
    const d = names.length;
    const x = new Float64Array(rows.length * d);
    rows.forEach((r, i) => x.set(features(r), i * d));
    const fit = fitDesign(
      { x, n: rows.length, d, y: Uint8Array.from(rows, (r) => (r.passed ? 1 : 0)), w: new Float64Array(rows.length).fill(1), group: Int32Array.from(rows, (r) => sources.indexOf(r.source)) },
      { lambda, groups: { count: sources.length, sd: 1 } },
    );
    const text = names.map((n, j) => `${n} ${(fit.weights[j]! / fit.scale[j]!).toFixed(2)}`).join(', ');
    return { text, score: (r) => linear(fit, features(r)) };
  };

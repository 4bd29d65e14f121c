/**
 * Held-out scores of the hashed text model (bench/forecast-text.ts), the two ways `train` evaluates the forecaster:
 * - leave one source and task out: source C's runs of task fold f scored by a model fitted on the other sources'
 *   runs of the other folds (crossfit.ts `leaveSourceAndTaskOut`), under the configuration chosen on the runs
 *   without C (each other steering source ranked by a model fitted without it and without C);
 * - task-disjoint folds: fold f scored by a model fitted on every source's other folds, under the configuration
 *   chosen by inner task folds of those training runs.
 * The vocabulary (bucket count, harness filter or within-source centring, the fewest runs a word needs) and the
 * penalty are the configuration: nothing of the scored runs chooses it, and the harness filter is measured on the
 * training runs only. With an offset, each run's held-out pPass logit is one more input (`offsets` of the training
 * runs come from models that never saw the scored runs: the caller gives them per split).
 */
import { auroc } from '../../src/core/stats/auroc.js';
import { fitText, rowOf, scoreRow, sourceMeans, type Row, type TextRun, type Vocabulary } from './hashed-fit.js';

export interface TextConfig {
  buckets: number;
  lambda: number;
  /** 'drop': words of the harness (≥ 90 % of one training source's runs, < 10 % of another's) dropped; 'centre': dropped too, and each bucket centred within source. */
  normalise: 'drop' | 'centre';
  minRuns: number;
}

export const TEXT_CONFIGS: readonly TextConfig[] = [4096, 16384].flatMap((buckets) =>
  [0.001, 0.01, 0.1, 1].flatMap((lambda) => (['drop', 'centre'] as const).flatMap((normalise) => [3, 10].map((minRuns) => ({ buckets, lambda, normalise, minRuns })))),
);

export const HARNESS_HIGH = 0.9;
export const HARNESS_LOW = 0.1;
/** A source's share of runs with a word is measured only with this many runs. */
export const HARNESS_MIN_RUNS = 20;

export interface Corpus {
  runs: readonly TextRun[];
  words: number;
  hashes: Uint32Array;
}

/** Per word id: the share of each source's runs (of `idx`, sources with HARNESS_MIN_RUNS runs) holding it. */
export function sourceShares(c: Corpus, idx: readonly number[]): Map<string, Float64Array> {
  const by = new Map<string, number[]>();
  for (const i of idx) by.set(c.runs[i]!.source, [...(by.get(c.runs[i]!.source) ?? []), i]);
  const out = new Map<string, Float64Array>();
  for (const [s, rs] of by) {
    if (rs.length < HARNESS_MIN_RUNS) continue;
    const share = new Float64Array(c.words);
    for (const i of rs) for (const id of c.runs[i]!.ids) share[id]! += 1 / rs.length;
    out.set(s, share);
  }
  return out;
}

/** Word ids the harness rule flags on the runs `idx`. */
export function harnessWords(c: Corpus, idx: readonly number[]): Uint8Array {
  const shares = [...sourceShares(c, idx).values()];
  const out = new Uint8Array(c.words);
  for (let id = 0; id < c.words; id++) {
    let hi = 0;
    let lo = 1;
    for (const s of shares) {
      hi = Math.max(hi, s[id]!);
      lo = Math.min(lo, s[id]!);
    }
    if (shares.length >= 2 && hi >= HARNESS_HIGH && lo < HARNESS_LOW) out[id] = 1;
  }
  return out;
}

/** The vocabulary a configuration keeps on the training runs `idx`. */
function vocabulary(c: Corpus, idx: readonly number[], cfg: TextConfig, harness: Uint8Array): Vocabulary {
  const df = new Int32Array(c.words);
  for (const i of idx) for (const id of c.runs[i]!.ids) df[id]! += 1;
  const keep = new Uint8Array(c.words);
  for (let id = 0; id < c.words; id++) keep[id] = df[id]! >= cfg.minRuns && harness[id] !== 1 ? 1 : 0;
  return { buckets: cfg.buckets, keep, binary: true };
}

/** Scores of the runs `test` under a model fitted on `train` (offsets: by run index, or null for text alone). */
export function fitAndScore(
  c: Corpus,
  train: readonly number[],
  test: readonly number[],
  cfg: TextConfig,
  offsets: ReadonlyMap<number, number> | null,
  harness = harnessWords(c, train),
): Map<number, number> {
  const v = vocabulary(c, train, cfg, harness);
  const rows = new Map<number, Row>();
  for (const i of [...train, ...test]) if (!rows.has(i)) rows.set(i, rowOf(c.runs[i]!, v, c.hashes));
  // Centring reads no outcome: each source is centred on all its runs here (a held-out source on its own).
  let means: Map<string, Float64Array> | null = null;
  if (cfg.normalise === 'centre') {
    const all = c.runs.map((_, i) => i);
    const allRows = all.map((i) => rows.get(i) ?? rowOf(c.runs[i]!, v, c.hashes));
    means = sourceMeans(
      allRows,
      all.map((i) => c.runs[i]!.source),
      cfg.buckets,
    );
  }
  const model = fitText({
    rows: train.map((i) => rows.get(i)!),
    sources: train.map((i) => c.runs[i]!.source),
    passed: train.map((i) => c.runs[i]!.passed),
    offset: offsets === null ? null : train.map((i) => offsets.get(i)!),
    buckets: cfg.buckets,
    lambda: cfg.lambda,
    means,
  });
  return new Map(test.map((i) => [i, scoreRow(model, rows.get(i)!, means?.get(c.runs[i]!.source) ?? null, offsets === null ? null : offsets.get(i)!)]));
}

/** AUROC of `scores` on one source's runs among them. */
export function sourceAuroc(c: Corpus, scores: ReadonlyMap<number, number>, source: string): number | null {
  const pos: number[] = [];
  const neg: number[] = [];
  for (const [i, s] of scores) if (c.runs[i]!.source === source) (c.runs[i]!.passed ? pos : neg).push(s);
  return auroc(pos, neg)?.auroc ?? null;
}

const mean = (xs: ReadonlyArray<number | null>) => (xs.some((x) => x === null) || xs.length === 0 ? -Infinity : (xs as number[]).reduce((a, b) => a + b, 0) / xs.length);

/** The configuration with the best mean leave-one-source-out AUROC over `sources` on the runs `idx` (ties: the first). */
export function chooseBySource(c: Corpus, idx: readonly number[], sources: readonly string[], offsets: ReadonlyMap<number, number> | null): { cfg: TextConfig; mean: number } {
  let best = { cfg: TEXT_CONFIGS[0]!, mean: -Infinity };
  const harness = new Map(
    sources.map((s) => [
      s,
      harnessWords(
        c,
        idx.filter((i) => c.runs[i]!.source !== s),
      ),
    ]),
  );
  for (const cfg of TEXT_CONFIGS) {
    const m = mean(
      sources.map((s) => {
        const train = idx.filter((i) => c.runs[i]!.source !== s);
        const test = idx.filter((i) => c.runs[i]!.source === s);
        return sourceAuroc(c, fitAndScore(c, train, test, cfg, offsets, harness.get(s)), s);
      }),
    );
    if (m > best.mean) best = { cfg, mean: m };
  }
  return best;
}

/** The configuration with the best mean within-source AUROC over `sources` of inner task folds of the runs `idx`. */
export function chooseByFolds(
  c: Corpus,
  idx: readonly number[],
  fold: (i: number) => number,
  k: number,
  sources: readonly string[],
  offsets: ReadonlyMap<number, number> | null,
): { cfg: TextConfig; mean: number } {
  let best = { cfg: TEXT_CONFIGS[0]!, mean: -Infinity };
  const folds = [...new Set(idx.map(fold))].sort((a, b) => a - b).slice(0, k);
  const harness = new Map(
    folds.map((f) => [
      f,
      harnessWords(
        c,
        idx.filter((i) => fold(i) !== f),
      ),
    ]),
  );
  for (const cfg of TEXT_CONFIGS) {
    const scores = new Map<number, number>();
    for (const f of folds) {
      const train = idx.filter((i) => fold(i) !== f);
      const test = idx.filter((i) => fold(i) === f);
      for (const [i, s] of fitAndScore(c, train, test, cfg, offsets, harness.get(f))) scores.set(i, s);
    }
    const m = mean(sources.map((s) => sourceAuroc(c, scores, s)));
    if (m > best.mean) best = { cfg, mean: m };
  }
  return best;
}

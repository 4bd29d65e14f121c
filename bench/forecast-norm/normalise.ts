/**
 * The within-source normalisation of the forecaster's features (bench/forecast-norm.ts, norm27; bench/forecast-ecdf.ts,
 * ecdf28), outcomes never read. A feature of a row at prefix t is replaced using the statistics of the same feature
 * over a population of runs: by source, the source's runs at the same checkpoint (end rows by the source's end rows;
 * a prefix row by the rows at the largest checkpoint <= t of the source's runs that reached it, fewer than
 * MIN_POPULATION runs there: the previous checkpoint's); by group, the end rows of the runs of the same source and
 * task (what `rank` has: the N runs it is given, nothing else).
 */
import { FEATURE_COUNT, FEATURE_NAMES, type FeatureName } from '../../src/core/forecast/features.js';
import { CHECKPOINTS, rowAt, sourceOf, type ForecastRun } from '../../src/core/forecast/run.js';
import { compileTable, ecdfOf, ecdfTable, type CompiledTable } from '../../src/core/forecast/end-ecdf.js';

/** Fewer runs than this at a checkpoint: its statistics are the previous checkpoint's. */
export const MIN_POPULATION = 3;
const LENGTH_LIKE: readonly FeatureName[] = ['logSteps', 'logSinceEdit', 'sinceEditShare', 'firstEditShare'];
const LENGTH_COLS = new Set(LENGTH_LIKE.map((f) => FEATURE_NAMES.indexOf(f)));
export type Kind = 'centre' | 'z' | 'ecdf';
export interface Variant {
  kind: Kind | null;
  cols: (j: number) => boolean;
}
export const VARIANTS: Record<string, Variant> = {
  shipped: { kind: null, cols: () => false },
  'A-centre': { kind: 'centre', cols: () => true },
  'A-z': { kind: 'z', cols: () => true },
  'B-ecdf': { kind: 'ecdf', cols: () => true },
  'C-length': { kind: 'z', cols: (j) => LENGTH_COLS.has(j) },
};

/** One feature's values in a population (NaN left out): the ECDF table the end-of-run model uses, mean and sd. */
interface Stat {
  table: CompiledTable;
  mean: number;
  sd: number;
}
function statOf(xs: number[]): Stat {
  const v = xs.filter((x) => !Number.isNaN(x));
  const mean = v.length === 0 ? 0 : v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length < 2 ? 0 : Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
  return { table: compileTable(ecdfTable(v)), mean, sd };
}
function apply(kind: Kind, s: Stat, x: number): number {
  if (Number.isNaN(x)) return x;
  if (kind === 'ecdf') return ecdfOf(s.table, x);
  const c = x - s.mean;
  return kind === 'z' && s.sd > 1e-12 ? c / s.sd : c;
}

type RowRef = [ForecastRun, number];
const colsOf = (pick: readonly RowRef[]): Stat[] => Array.from({ length: FEATURE_COUNT }, (_, j) => statOf(pick.map(([r, row]) => r.rows[row * FEATURE_COUNT + j]!)));

/** Per source: statistics of every feature at the end rows and at each checkpoint (outcomes never read). */
interface SourceStats {
  end: Stat[];
  at: Map<number, Stat[]>;
}
function sourceStats(rs: readonly ForecastRun[]): SourceStats {
  const end = colsOf(rs.map((r) => [r, r.at.length - 1]));
  const at = new Map<number, Stat[]>();
  let prev = end;
  for (const c of CHECKPOINTS) {
    const pop = rs.flatMap((r): RowRef[] => (r.length >= c && rowAt(r, c) >= 0 ? [[r, rowAt(r, c)]] : []));
    const s = pop.length >= MIN_POPULATION ? colsOf(pop) : prev;
    at.set(c, s);
    prev = s;
  }
  return { end, at };
}
const checkpointOf = (t: number): number => {
  let c = CHECKPOINTS[0]!;
  for (const x of CHECKPOINTS) if (x <= t) c = x;
  return c;
};

/** Every row of every run normalised by its source's statistics (the runs as given: shipped). */
export function normalised(runs: readonly ForecastRun[], v: Variant): ForecastRun[] {
  if (v.kind === null) return [...runs];
  const bySource = new Map<string, ForecastRun[]>();
  for (const r of runs) bySource.set(sourceOf(r), [...(bySource.get(sourceOf(r)) ?? []), r]);
  const stats = new Map([...bySource].map(([s, rs]) => [s, sourceStats(rs)]));
  const kind = v.kind;
  return runs.map((r) => withStats(r, stats.get(sourceOf(r))!, kind, v.cols));
}

/**
 * Every row of every run normalised by the statistics of one fixed population (every source's runs pooled, e.g. the
 * sources trained on): a map per feature and checkpoint a model file could carry, the same for every session.
 */
export function pooledNormalised(runs: readonly ForecastRun[], v: Variant, population: readonly ForecastRun[]): ForecastRun[] {
  if (v.kind === null) return [...runs];
  const st = sourceStats(population);
  const kind = v.kind;
  return runs.map((r) => withStats(r, st, kind, v.cols));
}

function withStats(r: ForecastRun, st: SourceStats, kind: Kind, cols: Variant['cols']): ForecastRun {
  const rows = Float64Array.from(r.rows);
  for (let i = 0; i < r.at.length; i++) {
    const t = r.at[i]!;
    const s = t === r.length ? st.end : st.at.get(checkpointOf(t))!;
    for (let j = 0; j < FEATURE_COUNT; j++) if (cols(j)) rows[i * FEATURE_COUNT + j] = apply(kind, s[j]!, r.rows[i * FEATURE_COUNT + j]!);
  }
  return { ...r, rows };
}

/** The group of a run: its source and task (a `rank` group is N runs of one task by one agent + model). */
export const groupKey = (r: ForecastRun): string => JSON.stringify([sourceOf(r), r.task]);

/**
 * Each run's END row normalised among the end rows of its group alone (`key`: by default the same source and task):
 * the transductive variant `rank` could compute from the runs it is given. A run alone in its group gets 0.5 in every
 * feature (ECDF) or 0 (centred).
 */
export function groupEndRows(runs: readonly ForecastRun[], v: Variant, key: (r: ForecastRun) => string = groupKey): Float64Array[] {
  const groups = new Map<string, ForecastRun[]>();
  for (const r of runs) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const stats = new Map([...groups].map(([k, rs]) => [k, colsOf(rs.map((r) => [r, r.at.length - 1]))]));
  return runs.map((r) => {
    const end = (r.at.length - 1) * FEATURE_COUNT;
    const row = Float64Array.from(r.rows.subarray(end, end + FEATURE_COUNT));
    if (v.kind === null) return row;
    const s = stats.get(key(r))!;
    for (let j = 0; j < FEATURE_COUNT; j++) if (v.cols(j)) row[j] = apply(v.kind, s[j]!, row[j]!);
    return row;
  });
}

/**
 * The end-of-run model's features (issue 26, task endrank29; "D" of bench/forecast-ecdf.ts): each feature replaced by
 * its mid-rank ECDF among the pooled runs `train` read, never by statistics of the scored run's own source. The end
 * rows' map is a table per feature the model file carries (distinct values ascending and how many runs had each), so
 * a finished run scores the same in `rank`, `report` and on the server. Fitting also maps the prefix rows, each by
 * the runs that reached the largest checkpoint <= t (not stored: the end model only scores finished runs).
 */
import { FEATURE_COUNT, FEATURE_NAMES } from './features.js';
import { CHECKPOINTS, rowAt, type ForecastRun } from './run.js';

/** One feature's population: its distinct values ascending and how many of the population had each. */
export interface EcdfTable {
  values: number[];
  counts: number[];
}

/** Fewer runs than this at a checkpoint: its table is the previous checkpoint's (as bench/forecast-norm). */
const MIN_POPULATION = 3;

export function ecdfTable(xs: ArrayLike<number>): EcdfTable {
  const sorted = Float64Array.from(Array.from(xs).filter((x) => !Number.isNaN(x))).sort();
  const values: number[] = [];
  const counts: number[] = [];
  for (const x of sorted) {
    if (values.length > 0 && values[values.length - 1] === x) counts[counts.length - 1]! += 1;
    else {
      values.push(x);
      counts.push(1);
    }
  }
  return { values, counts };
}

/** A table ready to map values: cumulative counts below each distinct value. */
export interface CompiledTable {
  values: Float64Array;
  below: Float64Array;
  counts: Float64Array;
  n: number;
}
export function compileTable(t: EcdfTable): CompiledTable {
  const below = new Float64Array(t.values.length);
  let n = 0;
  t.counts.forEach((c, k) => {
    below[k] = n;
    n += c;
  });
  return { values: Float64Array.from(t.values), below, counts: Float64Array.from(t.counts), n };
}

/** Mid-rank ECDF: (#below + #equal / 2) / n; 0.5 over an empty population; NaN stays NaN. */
export function ecdfOf(t: CompiledTable, x: number): number {
  if (Number.isNaN(x)) return x;
  if (t.n === 0) return 0.5;
  const v = t.values;
  let lo = 0;
  let hi = v.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (v[m]! < x) lo = m + 1;
    else hi = m;
  }
  const eq = lo < v.length && v[lo] === x ? t.counts[lo]! : 0;
  const below = lo < v.length ? t.below[lo]! : t.n;
  return (below + eq / 2) / t.n;
}

const tablesOf = (population: ReadonlyArray<readonly [ForecastRun, number]>): CompiledTable[] =>
  Array.from({ length: FEATURE_COUNT }, (_, j) => compileTable(ecdfTable(population.map(([r, row]) => r.rows[row * FEATURE_COUNT + j]!))));

/** The end rows' table of each named feature over `population` (what the model file stores). */
export function endTables(population: readonly ForecastRun[], features: readonly string[]): Record<string, EcdfTable> {
  return Object.fromEntries(
    features.map((f) => {
      const j = FEATURE_NAMES.indexOf(f as (typeof FEATURE_NAMES)[number]);
      return [f, ecdfTable(population.map((r) => r.rows[(r.at.length - 1) * FEATURE_COUNT + j]!))];
    }),
  );
}

/** Every row of every run mapped by `population`'s tables: end rows by the end rows, prefix rows by their checkpoint's. */
export function ecdfRuns(runs: readonly ForecastRun[], population: readonly ForecastRun[]): ForecastRun[] {
  const end = tablesOf(population.map((r) => [r, r.at.length - 1] as const));
  const at = new Map<number, CompiledTable[]>();
  let prev = end;
  for (const c of CHECKPOINTS) {
    const pop = population.flatMap((r) => (r.length >= c && rowAt(r, c) >= 0 ? [[r, rowAt(r, c)] as const] : []));
    prev = pop.length >= MIN_POPULATION ? tablesOf(pop) : prev;
    at.set(c, prev);
  }
  const checkpointOf = (t: number): number => {
    let c = CHECKPOINTS[0]!;
    for (const x of CHECKPOINTS) if (x <= t) c = x;
    return c;
  };
  return runs.map((r) => {
    const rows = new Float64Array(r.rows.length);
    for (let i = 0; i < r.at.length; i++) {
      const t = r.at[i]!;
      const s = t === r.length ? end : at.get(checkpointOf(t))!;
      for (let j = 0; j < FEATURE_COUNT; j++) rows[i * FEATURE_COUNT + j] = ecdfOf(s[j]!, r.rows[i * FEATURE_COUNT + j]!);
    }
    return { ...r, rows };
  });
}

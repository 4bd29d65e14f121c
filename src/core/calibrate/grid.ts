/**
 * The combined grid: every combination of the pre-filtered per-kind options
 * (each kind also "off"), evaluated on every run in both modes by taking the
 * earliest of its kinds' stops. Keeps only compact per-combination counts
 * (per source too, when runs carry sources); the chosen point and the Pareto
 * fronts are materialised afterwards.
 */
import { compareConservative } from './stop-settings.js';
import type { RunFacts } from './evaluate.js';
import { GRID_KINDS } from './grid-kinds.js';
import type { GridOptions, KindOption } from './grid-options.js';
import type { StopVector } from './stop-vectors.js';
import { MODES, type ModeName, type StopSettings } from './tradeoff-types.js';

const NONE = 2 ** 30;
const K = GRID_KINDS.length;

/** Compact results: combination `k` uses option `picks[k*K + kind] - 1` of each kind (0 = off). */
export interface GridTable {
  size: number;
  picks: Uint16Array;
  passingStopped: Record<ModeName, Uint32Array>;
  tokensSaved: Record<ModeName, Float64Array>;
  /** When runs have sources: passing runs stopped per combination and source, `[k * sources + s]`. */
  bySource?: { sources: number; passingStopped: Record<ModeName, Uint16Array> };
  options: GridOptions;
}

const listOf = (o: GridOptions, d: number): Array<KindOption<unknown>> => o[GRID_KINDS[d]!.key];

/** Evaluates every combination; `source` (per run, a source index < `sources`) adds per-source counts. */
export function runGrid(options: GridOptions, facts: readonly RunFacts[], source?: { of: readonly number[]; sources: number }): GridTable {
  const sizes = GRID_KINDS.map((_, d) => listOf(options, d).length + 1);
  const size = sizes.reduce((a, b) => a * b, 1);
  const n = facts.length;
  const picks = new Uint16Array(size * K);
  const passingStopped = { reference: new Uint32Array(size), referenceFree: new Uint32Array(size) };
  const tokensSaved = { reference: new Float64Array(size), referenceFree: new Float64Array(size) };
  const S = source?.sources ?? 0;
  const bySource = source ? { sources: S, passingStopped: { reference: new Uint16Array(size * S), referenceFree: new Uint16Array(size * S) } } : undefined;
  const levels = MODES.map(() => GRID_KINDS.map(() => new Int32Array(n)));
  const pick = new Array<number>(K).fill(0);
  let k = 0;
  const visit = (depth: number): void => {
    if (depth === K) {
      picks.set(pick, k * K);
      MODES.forEach((m, mi) => {
        const cur = levels[mi]![depth - 1]!;
        const per = bySource?.passingStopped[m];
        let ps = 0,
          tok = 0;
        for (let i = 0; i < n; i++) {
          const s = cur[i]!;
          if (s === NONE) continue;
          if (facts[i]!.passed) {
            ps += 1;
            if (per) per[k * S + source!.of[i]!]! += 1;
          } else tok += facts[i]!.tokensAfter[s] ?? 0;
        }
        passingStopped[m][k] = ps;
        tokensSaved[m][k] = tok;
      });
      k += 1;
      return;
    }
    const list = listOf(options, depth);
    for (let j = 0; j <= list.length; j++) {
      pick[depth] = j;
      MODES.forEach((m, mi) => {
        const prev = depth === 0 ? undefined : levels[mi]![depth - 1]!;
        const out = levels[mi]![depth]!;
        const v: StopVector | undefined = j === 0 ? undefined : list[j - 1]!.stops[m];
        for (let i = 0; i < n; i++) {
          const a = prev === undefined ? NONE : prev[i]!;
          const b = v === undefined ? NONE : (v[i] ?? NONE);
          out[i] = a < b ? a : b;
        }
      });
      visit(depth + 1);
    }
  };
  visit(0);
  return { size, picks, passingStopped, tokensSaved, ...(bySource ? { bySource } : {}), options };
}

/** The settings of combination `k`. */
export function settingsAt(t: GridTable, k: number): StopSettings {
  const out: Record<string, unknown> = {};
  GRID_KINDS.forEach((kind, d) => {
    const j = t.picks[k * K + d]!;
    out[kind.key] = j === 0 ? null : structuredClone(listOf(t.options, d)[j - 1]!.value);
  });
  return out as unknown as StopSettings;
}

/** The stop vector of combination `k` in one mode. */
export function stopsAt(t: GridTable, k: number, mode: ModeName, runs: number): Array<number | null> {
  const out = new Array<number | null>(runs).fill(null);
  GRID_KINDS.forEach((_, d) => {
    const j = t.picks[k * K + d]!;
    if (j === 0) return;
    const v = listOf(t.options, d)[j - 1]!.stops[mode];
    for (let i = 0; i < runs; i++) {
      const x = v[i] ?? null;
      if (x !== null && (out[i] === null || x < out[i]!)) out[i] = x;
    }
  });
  return out;
}

/** Compares two combinations for preference: more `score` first, then `tie`, then the more conservative. */
function better(t: GridTable, a: number, b: number, score: (k: number) => number, tie: (k: number) => number): boolean {
  const d = score(a) - score(b);
  if (Math.abs(d) > 1e-9 * Math.max(1, Math.abs(score(a)))) return d > 0;
  if (tie(a) !== tie(b)) return tie(a) < tie(b);
  return compareConservative(settingsAt(t, a), settingsAt(t, b)) < 0;
}

/** What a feasible combination may do: at most `maxPassingStopped` passing runs stopped in each constrained mode, and per source its cap. */
export interface Feasibility {
  constrained: readonly ModeName[];
  maxPassingStopped: number;
  maxPassingStoppedBySource?: readonly number[];
}

/** True when combination `k` is feasible. */
export function feasibleAt(t: GridTable, k: number, f: Feasibility): boolean {
  for (const m of f.constrained) {
    if (t.passingStopped[m][k]! > f.maxPassingStopped) return false;
    const caps = f.maxPassingStoppedBySource;
    if (caps && t.bySource) {
      const per = t.bySource.passingStopped[m];
      for (let s = 0; s < caps.length; s++) if (per[k * t.bySource.sources + s]! > caps[s]!) return false;
    }
  }
  return true;
}

/**
 * The combination with the most failing-run tokens saved (summed over the
 * constrained modes) among the feasible ones; ties: fewer false stops, then
 * the most conservative. Also returns how many combinations were feasible.
 */
export function chooseCombination(t: GridTable, f: Feasibility): { best: number; feasible: number } {
  const score = (k: number) => f.constrained.reduce((s, m) => s + t.tokensSaved[m][k]!, 0);
  const tie = (k: number) => f.constrained.reduce((s, m) => s + t.passingStopped[m][k]!, 0);
  let best = 0;
  let feasible = 0;
  for (let k = 0; k < t.size; k++) {
    if (!feasibleAt(t, k, f)) continue;
    feasible += 1;
    if (feasible === 1 || better(t, k, best, score, tie)) best = k;
  }
  return { best, feasible };
}

/** The Pareto front in one mode: for each number of false stops, the combination saving the most tokens, kept only if it saves more than every front point with fewer false stops. */
export function paretoFront(t: GridTable, mode: ModeName): number[] {
  const bestAt = new Map<number, number>();
  for (let k = 0; k < t.size; k++) {
    const ps = t.passingStopped[mode][k]!;
    const cur = bestAt.get(ps);
    if (
      cur === undefined ||
      better(
        t,
        k,
        cur,
        (x) => t.tokensSaved[mode][x]!,
        () => 0,
      )
    )
      bestAt.set(ps, k);
  }
  const out: number[] = [];
  let top = -1;
  for (const ps of [...bestAt.keys()].sort((a, b) => a - b)) {
    const k = bestAt.get(ps)!;
    if (t.tokensSaved[mode][k]! > top + 1e-9 || out.length === 0) {
      out.push(k);
      top = t.tokensSaved[mode][k]!;
    }
  }
  return out;
}

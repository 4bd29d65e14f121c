/**
 * The combined grid: every combination of the pre-filtered per-kind options
 * (each kind also "off"), evaluated on every run in both modes by taking the
 * earliest of its kinds' stops. Keeps only compact per-combination counts;
 * the chosen point and the Pareto fronts are materialised afterwards.
 */
import { compareConservative } from './stop-settings.js';
import type { RunFacts } from './evaluate.js';
import { COUNT_KINDS, type GridOptions, type KindOption } from './grid-options.js';
import type { StopVector } from './stop-vectors.js';
import { MODES, type ModeName, type StopSettings } from './tradeoff-types.js';

const NONE = 2 ** 30;
const KINDS = [...COUNT_KINDS, 'lowScore'] as const;

/** Compact results: combination `k` uses option `picks[k*5 + kind] - 1` of each kind (0 = off). */
export interface GridTable {
  size: number;
  picks: Uint16Array;
  passingStopped: Record<ModeName, Uint32Array>;
  tokensSaved: Record<ModeName, Float64Array>;
  options: GridOptions;
}

const listOf = (o: GridOptions, k: (typeof KINDS)[number]): KindOption<unknown>[] => o[k] as KindOption<unknown>[];

/** Evaluates every combination. */
export function runGrid(options: GridOptions, facts: readonly RunFacts[]): GridTable {
  const sizes = KINDS.map((k) => listOf(options, k).length + 1);
  const size = sizes.reduce((a, b) => a * b, 1);
  const n = facts.length;
  const picks = new Uint16Array(size * KINDS.length);
  const passingStopped = { reference: new Uint32Array(size), referenceFree: new Uint32Array(size) };
  const tokensSaved = { reference: new Float64Array(size), referenceFree: new Float64Array(size) };
  const levels = MODES.map(() => KINDS.map(() => new Int32Array(n)));
  const pick = new Array<number>(KINDS.length).fill(0);
  let k = 0;
  const visit = (depth: number): void => {
    if (depth === KINDS.length) {
      picks.set(pick, k * KINDS.length);
      MODES.forEach((m, mi) => {
        const cur = levels[mi]![depth - 1]!;
        let ps = 0, tok = 0;
        for (let i = 0; i < n; i++) {
          const s = cur[i]!;
          if (s === NONE) continue;
          if (facts[i]!.passed) ps += 1;
          else tok += facts[i]!.tokensAfter[s] ?? 0;
        }
        passingStopped[m][k] = ps;
        tokensSaved[m][k] = tok;
      });
      k += 1;
      return;
    }
    const list = listOf(options, KINDS[depth]!);
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
  return { size, picks, passingStopped, tokensSaved, options };
}

/** The settings of combination `k`. */
export function settingsAt(t: GridTable, k: number): StopSettings {
  const p = (d: number) => t.picks[k * KINDS.length + d]!;
  const count = (d: number, kind: (typeof COUNT_KINDS)[number]): number | null => (p(d) === 0 ? null : t.options[kind][p(d) - 1]!.value);
  return {
    blindRetry: count(0, 'blindRetry'),
    regressionLoop: count(1, 'regressionLoop'),
    cycle: count(2, 'cycle'),
    explorationStreak: count(3, 'explorationStreak'),
    lowScore: p(4) === 0 ? null : { ...t.options.lowScore[p(4) - 1]!.value },
  };
}

/** The stop vector of combination `k` in one mode. */
export function stopsAt(t: GridTable, k: number, mode: ModeName, runs: number): (number | null)[] {
  const out = new Array<number | null>(runs).fill(null);
  KINDS.forEach((kind, d) => {
    const j = t.picks[k * KINDS.length + d]!;
    if (j === 0) return;
    const v = listOf(t.options, kind)[j - 1]!.stops[mode];
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

/**
 * The combination with the most failing-run tokens saved (summed over the
 * constrained modes) among those whose false-stop share is within
 * `maxFalseStop` in every constrained mode; ties: fewer false stops, then the
 * most conservative. Also returns how many combinations were feasible.
 */
export function chooseCombination(t: GridTable, passing: number, maxFalseStop: number, constrained: readonly ModeName[]): { best: number; feasible: number } {
  const ok = (k: number) => constrained.every((m) => passing === 0 || t.passingStopped[m][k]! / passing <= maxFalseStop + 1e-12);
  const score = (k: number) => constrained.reduce((s, m) => s + t.tokensSaved[m][k]!, 0);
  const tie = (k: number) => constrained.reduce((s, m) => s + t.passingStopped[m][k]!, 0);
  let best = 0;
  let feasible = 0;
  for (let k = 0; k < t.size; k++) {
    if (!ok(k)) continue;
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
    if (cur === undefined || better(t, k, cur, (x) => t.tokensSaved[mode][x]!, () => 0)) bestAt.set(ps, k);
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

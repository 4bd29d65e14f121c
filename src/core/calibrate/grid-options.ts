/**
 * The per-kind options the combined grid is built from: every candidate
 * threshold's stop vector, then a pre-filter. A candidate that stops no
 * failing run, or that another candidate dominates run by run (stops no
 * passing run the other leaves alone and every failing run no earlier), can
 * be left out without losing any combination that is better on both axes.
 * So can a candidate that alone already breaks a constraint every
 * combination holding it would break (the pooled bound, a per-source cap).
 */
import type { Policy } from '../policy.js';
import type { RunFacts } from './evaluate.js';
import { GRID_KINDS } from './grid-kinds.js';
import type { StopVector } from './stop-vectors.js';
import type { GridCandidates, GridKindName, ModeName, TradeoffRun } from './tradeoff-types.js';

export { DEFAULT_GRID } from './grid-kinds.js';

/** One candidate of one kind with its stops per mode. */
export interface KindOption<V> {
  value: V;
  stops: Record<ModeName, StopVector>;
}

export type GridOptions = Record<GridKindName, Array<KindOption<unknown>>>;

/** Every candidate's stop vectors, most conservative first. */
export function kindOptions(runs: readonly TradeoffRun[], c: GridCandidates, base: Policy): GridOptions {
  const out = {} as GridOptions;
  for (const kind of GRID_KINDS) {
    const given = c[kind.key] as readonly unknown[];
    const values = given.filter((v, i) => given.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)) === i).sort((a, b) => kind.conservative(a, b));
    const byMode = (mode: ModeName): StopVector[] => {
      const perRun = runs.map((r) => kind.stops({ states: r.states, totals: r.totals[mode] }, values, base));
      return values.map((_, j) => perRun.map((s) => s[j] ?? null));
    };
    const free = byMode('referenceFree');
    const ref = kind.modeDependent ? byMode('reference') : free;
    out[kind.key] = values.map((value, j) => ({ value, stops: { reference: ref[j]!, referenceFree: free[j]! } }));
  }
  return out;
}

/** True when `a` is at least as good as `b` on every run of every mode. */
function weaklyDominates(a: KindOption<unknown>, b: KindOption<unknown>, facts: readonly RunFacts[], modes: readonly ModeName[]): boolean {
  for (const m of modes) {
    const va = a.stops[m];
    const vb = b.stops[m];
    for (let i = 0; i < facts.length; i++) {
      const x = va[i] ?? null;
      const y = vb[i] ?? null;
      if (facts[i]!.passed ? x !== null && y === null : y !== null && (x === null || x > y)) return false;
    }
  }
  return true;
}

interface Stat {
  passingRate: number;
  passingStopped: number;
  failingStopped: number;
  tokens: number;
  bySource: number[];
}

function stat(o: KindOption<unknown>, m: ModeName, facts: readonly RunFacts[], source: readonly number[] | undefined, sources: number): Stat {
  let passing = 0,
    ps = 0,
    fs = 0,
    tokens = 0;
  const bySource = new Array<number>(sources).fill(0);
  facts.forEach((f, i) => {
    const s = o.stops[m][i] ?? null;
    if (f.passed) {
      passing += 1;
      if (s !== null) {
        ps += 1;
        if (source) bySource[source[i]!]! += 1;
      }
    } else if (s !== null) {
      fs += 1;
      tokens += f.tokensAfter[s] ?? 0;
    }
  });
  return { passingRate: passing === 0 ? 0 : ps / passing, passingStopped: ps, failingStopped: fs, tokens, bySource };
}

export interface PrefilterOptions {
  /** The bound the choice must meet in `constrained` modes (a share, used to rank candidates). */
  maxFalseStop: number;
  constrained: readonly ModeName[];
  /** Most passing runs a feasible choice may stop in a constrained mode (from the confidence bound); more = dropped. */
  maxPassingStopped?: number;
  /** Per run, its source index, and per source the most passing runs a choice may stop there. */
  sources?: { of: readonly number[]; maxPassingStopped: readonly number[] };
  /** Candidates stopping more than this share of passing runs in every mode are dropped (default max(0.3, 3 × bound)). */
  curveCap?: number;
  /** At most this many candidates per kind (default 8): those within the bound first, by tokens saved. */
  maxPerKind?: number;
}

function prune(list: Array<KindOption<unknown>>, facts: readonly RunFacts[], o: PrefilterOptions): Array<KindOption<unknown>> {
  const modes: ModeName[] = ['reference', 'referenceFree'];
  const cap = o.curveCap ?? Math.max(0.3, 3 * o.maxFalseStop);
  const nSources = o.sources ? o.sources.maxPassingStopped.length : 0;
  const stats = list.map((x) => ({ x, s: modes.map((m) => stat(x, m, facts, o.sources?.of, nSources)) }));
  const breaks = (s: Stat[]) =>
    o.constrained.some((m) => {
      const v = s[modes.indexOf(m)]!;
      return (o.maxPassingStopped !== undefined && v.passingStopped > o.maxPassingStopped) || (o.sources !== undefined && v.bySource.some((k, j) => k > o.sources!.maxPassingStopped[j]!));
    });
  const useful = stats.filter(({ s }) => s.some((v) => v.failingStopped > 0) && s.some((v) => v.passingRate <= cap) && !breaks(s));
  const kept = useful.filter((b, j) => !useful.some((a, i) => i !== j && weaklyDominates(a.x, b.x, facts, modes) && (i < j || !weaklyDominates(b.x, a.x, facts, modes))));
  const within = (s: Stat[]) => o.constrained.every((m) => s[modes.indexOf(m)]!.passingRate <= o.maxFalseStop);
  const tokens = (s: Stat[]) => s[0]!.tokens + s[1]!.tokens;
  const ranked = [...kept].sort((a, b) => Number(within(b.s)) - Number(within(a.s)) || tokens(b.s) - tokens(a.s));
  const chosen = new Set(ranked.slice(0, o.maxPerKind ?? 8).map((r) => r.x));
  return list.filter((x) => chosen.has(x));
}

/** The pre-filtered options (order kept: most conservative first). */
export function prefilter(options: GridOptions, facts: readonly RunFacts[], o: PrefilterOptions): GridOptions {
  const out = {} as GridOptions;
  for (const kind of GRID_KINDS) out[kind.key] = prune(options[kind.key], facts, o);
  return out;
}

/**
 * The per-kind options the combined grid is built from: every candidate
 * threshold's stop vector, then a pre-filter. A candidate that stops no
 * failing run, or that another candidate dominates run by run (stops no
 * passing run the other leaves alone and every failing run no earlier), can
 * be left out without losing any combination that is better on both axes.
 */
import type { Policy } from '../policy.js';
import type { RunFacts } from './evaluate.js';
import { countKindStops, lowScoreStops, type StopVector } from './stop-vectors.js';
import type { GridCandidates, LowScoreStop, ModeName, TradeoffRun } from './tradeoff-types.js';

export const COUNT_KINDS = ['blindRetry', 'regressionLoop', 'cycle', 'explorationStreak'] as const;
export type CountKind = (typeof COUNT_KINDS)[number];

/** One candidate of one kind with its stops per mode. */
export interface KindOption<V> {
  value: V;
  stops: Record<ModeName, StopVector>;
}

export type GridOptions = { [K in CountKind]: KindOption<number>[] } & { lowScore: KindOption<LowScoreStop>[] };

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let x = from; x <= to; x += step) out.push(x);
  return out;
}

/** Default candidates: retries 2..12, loop cycles 2..8, cycle repetitions 2..8, streak 10..80 by 5, floors 10..50 by 5 × minSteps 5/10/15/20/30. */
export const DEFAULT_GRID: GridCandidates = Object.freeze({
  blindRetry: range(2, 12),
  regressionLoop: range(2, 8),
  cycle: range(2, 8),
  explorationStreak: range(10, 80, 5),
  lowScore: range(10, 50, 5).flatMap((floor) => [5, 10, 15, 20, 30].map((minSteps) => ({ floor, minSteps }))),
});

/** Every candidate's stop vectors, most conservative first (larger counts; lower floors, then more minSteps). */
export function kindOptions(runs: readonly TradeoffRun[], c: GridCandidates, base: Policy): GridOptions {
  const count = (kind: CountKind): KindOption<number>[] =>
    [...new Set(c[kind])].sort((a, b) => b - a).map((value) => {
      const v = countKindStops(runs, kind, value, base);
      return { value, stops: { reference: v, referenceFree: v } };
    });
  const low = [...c.lowScore]
    .sort((a, b) => a.floor - b.floor || b.minSteps - a.minSteps)
    .map((value) => ({ value, stops: { reference: lowScoreStops(runs, 'reference', value, base), referenceFree: lowScoreStops(runs, 'referenceFree', value, base) } }));
  return { blindRetry: count('blindRetry'), regressionLoop: count('regressionLoop'), cycle: count('cycle'), explorationStreak: count('explorationStreak'), lowScore: low };
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

interface Stat { passingRate: number; failingStopped: number; tokens: number }

function stat(o: KindOption<unknown>, m: ModeName, facts: readonly RunFacts[]): Stat {
  let passing = 0, ps = 0, fs = 0, tokens = 0;
  facts.forEach((f, i) => {
    const s = o.stops[m][i] ?? null;
    if (f.passed) {
      passing += 1;
      if (s !== null) ps += 1;
    } else if (s !== null) {
      fs += 1;
      tokens += f.tokensAfter[s] ?? 0;
    }
  });
  return { passingRate: passing === 0 ? 0 : ps / passing, failingStopped: fs, tokens };
}

export interface PrefilterOptions {
  /** The bound the choice must meet in `constrained` modes. */
  maxFalseStop: number;
  constrained: readonly ModeName[];
  /** Candidates stopping more than this share of passing runs in every mode are dropped (default max(0.3, 3 × bound)). */
  curveCap?: number;
  /** At most this many candidates per kind (default 8): those within the bound first, by tokens saved. */
  maxPerKind?: number;
}

function prune<V>(list: KindOption<V>[], facts: readonly RunFacts[], o: PrefilterOptions): KindOption<V>[] {
  const modes: ModeName[] = ['reference', 'referenceFree'];
  const cap = o.curveCap ?? Math.max(0.3, 3 * o.maxFalseStop);
  const stats = list.map((x) => ({ x, s: modes.map((m) => stat(x, m, facts)) }));
  const useful = stats.filter(({ s }) => s.some((v) => v.failingStopped > 0) && s.some((v) => v.passingRate <= cap));
  const kept = useful.filter((b, j) => !useful.some((a, i) => i !== j && weaklyDominates(a.x, b.x, facts, modes) && (i < j || !weaklyDominates(b.x, a.x, facts, modes))));
  const within = (s: Stat[]) => o.constrained.every((m) => s[modes.indexOf(m)]!.passingRate <= o.maxFalseStop);
  const tokens = (s: Stat[]) => s[0]!.tokens + s[1]!.tokens;
  const ranked = [...kept].sort((a, b) => Number(within(b.s)) - Number(within(a.s)) || tokens(b.s) - tokens(a.s));
  const chosen = new Set(ranked.slice(0, o.maxPerKind ?? 8).map((r) => r.x));
  return list.filter((x) => chosen.has(x));
}

/** The pre-filtered options (order kept: most conservative first). */
export function prefilter(options: GridOptions, facts: readonly RunFacts[], o: PrefilterOptions): GridOptions {
  return {
    blindRetry: prune(options.blindRetry, facts, o),
    regressionLoop: prune(options.regressionLoop, facts, o),
    cycle: prune(options.cycle, facts, o),
    explorationStreak: prune(options.explorationStreak, facts, o),
    lowScore: prune(options.lowScore, facts, o),
  };
}

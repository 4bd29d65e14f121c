/**
 * The combined-policy trade-off (issues 8, 14): for a grid of combined stop
 * policies, the share of passing runs stopped against the failing-run
 * tokens and steps saved, in both reference modes; the Pareto front; the
 * best policy whose false-stop rate has an upper confidence bound within
 * `maxFalseStop` (and, optionally, whose point rate is within `sourceMax` on
 * every source), replayed in full through the early-stop engine (and checked
 * against the grid's prediction); and the same numbers for a baseline policy.
 * When too few passing runs are given for any stop to meet the bound, the
 * chosen policy only warns. Pure and deterministic.
 */
import { err, ok, type Result } from '../../errors.js';
import { DEFAULT_POLICY, type Policy } from '../policy.js';
import { trialsForBound, upperBound, type BoundMethod } from '../stats/binomial.js';
import { pointOf, runFacts, type BoundSpec, type RunFacts } from './evaluate.js';
import { evaluatePolicy, firstMismatch, sourcesOf } from './evaluate-policy.js';
import { chooseCombination, paretoFront, runGrid, settingsAt, stopsAt, type Feasibility } from './grid.js';
import { GRID_KINDS, noStops } from './grid-kinds.js';
import { DEFAULT_GRID, kindOptions, prefilter, type GridOptions } from './grid-options.js';
import { describeSettings, policyFor, settingsOf, warnOnlyPolicyFor } from './stop-settings.js';
import { MODES, type GridCandidates, type GridPoint, type ModeName, type StopSettings, type TradeoffResult, type TradeoffRun } from './tradeoff-types.js';

export interface TradeoffOptions {
  /** Largest upper confidence bound of the share of passing runs the chosen policy may stop, in every constrained mode (default 0.05). */
  maxFalseStop?: number;
  /** Confidence of the bound (default 0.95). */
  confidence?: number;
  /** Clopper-Pearson (default, exact) or Wilson. */
  bound?: BoundMethod;
  /** When set, the point false-stop share on every source (runs' `source`) must be within it too. */
  sourceMax?: number;
  /** Modes the bound must hold in and whose savings are maximised (default both). */
  constrained?: readonly ModeName[];
  candidates?: Partial<GridCandidates>;
  /** The policy the chosen one is compared with (default DEFAULT_POLICY). */
  baseline?: Policy;
  /** Warn levels and cycle block sizes of the written policy (default `baseline`). */
  warnSource?: Policy;
  maxPerKind?: number;
  curveCap?: number;
  /** The front up to 3 × the bound (default true); folds, whose fronts nobody draws, skip that second grid. */
  wideFront?: boolean;
}

const isRate = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1;

function check(runs: readonly TradeoffRun[], o: TradeoffOptions, c: GridCandidates): string | undefined {
  const b = o.maxFalseStop ?? 0.05;
  if (!isRate(b)) return `maxFalseStop must be a rate in [0, 1], got ${b}`;
  const conf = o.confidence ?? 0.95;
  if (!(conf > 0 && conf < 1)) return `confidence must be strictly between 0 and 1, got ${conf}`;
  if (o.sourceMax !== undefined && !isRate(o.sourceMax)) return `sourceMax must be a rate in [0, 1], got ${o.sourceMax}`;
  if (o.sourceMax !== undefined && runs.some((r) => r.source === undefined)) return 'sourceMax needs every run to name its source';
  if (o.constrained?.length === 0) return 'at least one mode must be constrained';
  for (const kind of GRID_KINDS) {
    for (const v of c[kind.key] as readonly unknown[]) {
      const problem = kind.check(v);
      if (problem !== undefined) return problem;
    }
  }
  const r = runs.findIndex((x) => MODES.some((m) => x.totals[m].length !== x.states.length));
  return r >= 0 ? `run ${runs[r]!.id}: totals do not match its ${runs[r]!.states.length} states` : undefined;
}

/** The most passing runs (of `passing`) a policy may stop with its upper bound within `max`; -1 when none is possible. */
export function maxPassingStopped(passing: number, max: number, bound: BoundSpec): number {
  let k = -1;
  while (k + 1 <= passing && passing > 0 && upperBound(bound.method, k + 1, passing, bound.confidence) <= max + 1e-12) k += 1;
  return k;
}

interface Chosen {
  table: ReturnType<typeof runGrid>;
  kept: GridOptions;
  best: number;
  feasible: number;
}

function gridChoice(facts: readonly RunFacts[], all: GridOptions, f: Feasibility, share: number, o: TradeoffOptions, source: { of: number[]; sources: number } | undefined): Chosen {
  const kept = prefilter(all, facts, {
    maxFalseStop: share,
    constrained: f.constrained,
    maxPassingStopped: f.maxPassingStopped,
    ...(source && f.maxPassingStoppedBySource ? { sources: { of: source.of, maxPassingStopped: f.maxPassingStoppedBySource } } : {}),
    ...(o.maxPerKind ? { maxPerKind: o.maxPerKind } : {}),
    ...(o.curveCap ? { curveCap: o.curveCap } : {}),
  });
  const table = runGrid(kept, facts, f.maxPassingStoppedBySource ? source : undefined);
  const { best, feasible } = chooseCombination(table, f);
  return { table, kept, best, feasible };
}

/** Calibrates the combined stop policy on `runs`; errors name a bad option or run. */
export function calibrateTradeoff(runs: readonly TradeoffRun[], options: TradeoffOptions = {}): Result<TradeoffResult, string> {
  const candidates: GridCandidates = { ...DEFAULT_GRID, ...options.candidates };
  const problem = check(runs, options, candidates);
  if (problem !== undefined) return err(`invalid calibration: ${problem}`);
  const maxFalseStop = options.maxFalseStop ?? 0.05;
  const bound: BoundSpec = { method: options.bound ?? 'clopper-pearson', confidence: options.confidence ?? 0.95 };
  const constrained = [...(options.constrained ?? MODES)];
  const baselinePolicy = options.baseline ?? DEFAULT_POLICY;
  const warnSource = options.warnSource ?? baselinePolicy;
  const facts = runs.map(runFacts);
  const passing = facts.filter((f) => f.passed).length;
  const names = sourcesOf(runs);
  const source = options.sourceMax !== undefined ? { of: runs.map((r) => names.indexOf(r.source!)), sources: names.length } : undefined;
  const caps = source ? names.map((_, s) => Math.floor(options.sourceMax! * facts.filter((f, i) => f.passed && source.of[i] === s).length + 1e-9)) : undefined;
  const kmax = maxPassingStopped(passing, maxFalseStop, bound);
  const all = kindOptions(runs, candidates, warnSource);
  const f: Feasibility = { constrained, maxPassingStopped: kmax, ...(caps ? { maxPassingStoppedBySource: caps } : {}) };
  const c = gridChoice(facts, all, f, maxFalseStop, options, source);
  const refused = kmax < 0;
  const pointMax = Math.floor(maxFalseStop * passing + 1e-9);
  // With no passing run every setting stops "0 of 0": no point estimate, so no warns from one (it took the most
  // aggressive setting of every kind, e.g. a lowScore warn below 45 after 5 steps, while each kind's own table said
  // "warn none: too few runs"); the written policy warns as the baseline does.
  const point = refused && passing > 0 ? gridChoice(facts, all, { ...f, maxPassingStopped: pointMax }, maxFalseStop, options, source) : undefined;
  const pointSettings = point ? settingsAt(point.table, point.best) : undefined;
  const settings: StopSettings = refused ? noStops() : settingsAt(c.table, c.best);
  const policy = refused ? warnOnlyPolicyFor(pointSettings ?? noStops(), warnSource) : policyFor(settings, warnSource);
  const chosen = evaluatePolicy(runs, facts, policy, settings, bound);
  if (!refused) {
    const predicted = { reference: stopsAt(c.table, c.best, 'reference', runs.length), referenceFree: stopsAt(c.table, c.best, 'referenceFree', runs.length) };
    const replayed = { reference: chosen.runs.map((r) => r.stopAt.reference), referenceFree: chosen.runs.map((r) => r.stopAt.referenceFree) };
    const mismatch = firstMismatch(predicted, replayed);
    if (mismatch !== undefined) return err(`internal: the grid's stops of ${describeSettings(settings)} differ from the full replay (${mismatch})`);
  }
  const needed = trialsForBound(bound.method, maxFalseStop, bound.confidence);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const notes = [
    ...(refused
      ? [
          `only ${passing} passing runs: with none stopped the ${bound.method} ${Math.round(bound.confidence * 100)}% upper bound of the false-stop rate is ${pct(upperBound(bound.method, 0, passing, bound.confidence))}, above ${pct(maxFalseStop)}; at least ${Number.isFinite(needed) ? needed : 'infinitely many'} passing runs are needed, so no stop is written: the policy only warns (${pointSettings ? `its warns include what the point estimate would have stopped at: ${describeSettings(pointSettings)}` : 'with no passing run there is no point estimate either: it warns as the baseline policy does'})`,
        ]
      : []),
    ...(!refused && facts.length > passing && chosen.modes.referenceFree.failingStopped === 0 && chosen.modes.reference.failingStopped === 0
      ? ['no combination within the bound stops a failing run: every stop is off']
      : []),
  ];
  // The front shows what the data offers beyond the bound too (up to 3 × the bound's share of passing runs
  // stopped): a grid pre-filtered at the bound holds one point per false-stop count it allows, so a front of it
  // is a single point (at the origin when the bound refuses every stop).
  const shownCap = Math.max(kmax, pointMax, Math.floor(Math.min(1, 3 * maxFalseStop) * passing + 1e-9));
  const shown = options.wideFront === false ? (point ?? c) : gridChoice(facts, all, { ...f, maxPassingStopped: shownCap }, Math.min(1, 3 * maxFalseStop), options, source);
  const gridPoint = (k: number): GridPoint => ({
    settings: settingsAt(shown.table, k),
    modes: {
      reference: pointOf(facts, stopsAt(shown.table, k, 'reference', runs.length), bound),
      referenceFree: pointOf(facts, stopsAt(shown.table, k, 'referenceFree', runs.length), bound),
    },
  });
  const tokens = facts.reduce((s, x) => s + x.tokens, 0);
  return ok({
    runs: {
      passing,
      failing: facts.length - passing,
      withReference: runs.filter((r) => r.hasReference).length,
      tokens,
      failingTokens: facts.filter((x) => !x.passed).reduce((s, x) => s + x.tokens, 0),
    },
    kept: Object.fromEntries(GRID_KINDS.map((k) => [k.key, c.kept[k.key].map((x) => x.value)])) as unknown as GridCandidates,
    evaluated: c.table.size,
    front: { reference: paretoFront(shown.table, 'reference').map(gridPoint), referenceFree: paretoFront(shown.table, 'referenceFree').map(gridPoint) },
    choice: {
      maxFalseStop,
      bound: bound.method,
      confidence: bound.confidence,
      maxPassingStopped: kmax,
      passingNeeded: needed,
      ...(options.sourceMax !== undefined ? { sourceMax: options.sourceMax } : {}),
      constrained,
      feasible: refused ? 0 : c.feasible,
      warnOnly: refused,
      ...(pointSettings ? { pointChoice: pointSettings } : {}),
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    },
    chosen,
    baseline: evaluatePolicy(runs, facts, baselinePolicy, settingsOf(baselinePolicy), bound),
  });
}

/**
 * The combined-policy trade-off (issue 8): for a grid of combined stop
 * policies, the share of passing runs stopped against the failing-run
 * tokens and steps saved, in both reference modes; the Pareto front; the
 * best policy within a false-stop bound, replayed in full through the
 * early-stop engine (and checked against the grid's prediction); and the
 * same numbers for a baseline policy. Pure and deterministic.
 */
import { err, ok, type Result } from '../../errors.js';
import { DEFAULT_POLICY, type Policy } from '../policy.js';
import { pointOf, runFacts } from './evaluate.js';
import { evaluatePolicy, firstMismatch } from './evaluate-policy.js';
import { chooseCombination, paretoFront, runGrid, settingsAt, stopsAt } from './grid.js';
import { DEFAULT_GRID, kindOptions, prefilter } from './grid-options.js';
import { minPassingFor } from './recommend.js';
import { describeSettings, policyFor, settingsOf } from './stop-settings.js';
import { MODES, type GridCandidates, type GridPoint, type ModeName, type TradeoffResult, type TradeoffRun } from './tradeoff-types.js';

export interface TradeoffOptions {
  /** Largest share of passing runs the chosen policy may stop, in every constrained mode (default 0.05). */
  maxFalseStop?: number;
  /** Modes the bound must hold in and whose savings are maximised (default both). */
  constrained?: readonly ModeName[];
  candidates?: Partial<GridCandidates>;
  /** The policy the chosen one is compared with (default DEFAULT_POLICY). */
  baseline?: Policy;
  /** Warn levels and cycle block sizes of the written policy (default `baseline`). */
  warnSource?: Policy;
  maxPerKind?: number;
  curveCap?: number;
}

function check(runs: readonly TradeoffRun[], o: TradeoffOptions, c: GridCandidates): string | undefined {
  const b = o.maxFalseStop ?? 0.05;
  if (!Number.isFinite(b) || b < 0 || b > 1) return `maxFalseStop must be a rate in [0, 1], got ${b}`;
  if (o.constrained !== undefined && o.constrained.length === 0) return 'at least one mode must be constrained';
  for (const k of ['blindRetry', 'regressionLoop', 'cycle', 'explorationStreak'] as const) {
    const bad = c[k].find((x) => !Number.isInteger(x) || x < (k === 'cycle' ? 2 : 1));
    if (bad !== undefined) return `bad ${k} candidate ${bad}`;
  }
  const low = c.lowScore.find((l) => !(l.floor >= 0 && l.floor <= 100) || !Number.isInteger(l.minSteps) || l.minSteps < 0);
  if (low !== undefined) return `bad lowScore candidate ${JSON.stringify(low)}`;
  const r = runs.findIndex((x) => MODES.some((m) => x.totals[m].length !== x.states.length));
  return r >= 0 ? `run ${runs[r]!.id}: totals do not match its ${runs[r]!.states.length} states` : undefined;
}

/** Calibrates the combined stop policy on `runs`; errors name a bad option or run. */
export function calibrateTradeoff(runs: readonly TradeoffRun[], options: TradeoffOptions = {}): Result<TradeoffResult, string> {
  const candidates: GridCandidates = { ...DEFAULT_GRID, ...options.candidates };
  const problem = check(runs, options, candidates);
  if (problem !== undefined) return err(`invalid calibration: ${problem}`);
  const maxFalseStop = options.maxFalseStop ?? 0.05;
  const constrained = [...(options.constrained ?? MODES)];
  const baselinePolicy = options.baseline ?? DEFAULT_POLICY;
  const warnSource = options.warnSource ?? baselinePolicy;
  const facts = runs.map(runFacts);
  const all = kindOptions(runs, candidates, warnSource);
  const kept = prefilter(all, facts, { maxFalseStop, constrained, ...(options.maxPerKind ? { maxPerKind: options.maxPerKind } : {}), ...(options.curveCap ? { curveCap: options.curveCap } : {}) });
  const table = runGrid(kept, facts);
  const passing = facts.filter((f) => f.passed).length;
  const { best, feasible } = chooseCombination(table, passing, maxFalseStop, constrained);
  const point = (k: number): GridPoint => ({
    settings: settingsAt(table, k),
    modes: { reference: pointOf(facts, stopsAt(table, k, 'reference', runs.length)), referenceFree: pointOf(facts, stopsAt(table, k, 'referenceFree', runs.length)) },
  });
  const settings = settingsAt(table, best);
  const chosen = evaluatePolicy(runs, facts, policyFor(settings, warnSource), settings);
  const predicted = { reference: stopsAt(table, best, 'reference', runs.length), referenceFree: stopsAt(table, best, 'referenceFree', runs.length) };
  const replayed = { reference: chosen.runs.map((r) => r.stopAt.reference), referenceFree: chosen.runs.map((r) => r.stopAt.referenceFree) };
  const mismatch = firstMismatch(predicted, replayed);
  if (mismatch !== undefined) return err(`internal: the grid's stops of ${describeSettings(settings)} differ from the full replay (${mismatch})`);
  const need = minPassingFor(maxFalseStop);
  const notes = [
    ...(passing < need ? [`only ${passing} passing runs: one false stop is ${(100 / Math.max(1, passing)).toFixed(1)}% of them, so the bound allows ${Math.floor(maxFalseStop * passing + 1e-9)}`] : []),
    ...(facts.length > passing && chosen.modes.referenceFree.failingStopped === 0 && chosen.modes.reference.failingStopped === 0 ? ['no combination within the bound stops a failing run: every stop is off'] : []),
  ];
  const tokens = facts.reduce((s, f) => s + f.tokens, 0);
  return ok({
    runs: {
      passing,
      failing: facts.length - passing,
      withReference: runs.filter((r) => r.hasReference).length,
      tokens,
      failingTokens: facts.filter((f) => !f.passed).reduce((s, f) => s + f.tokens, 0),
    },
    kept: {
      blindRetry: kept.blindRetry.map((x) => x.value),
      regressionLoop: kept.regressionLoop.map((x) => x.value),
      cycle: kept.cycle.map((x) => x.value),
      explorationStreak: kept.explorationStreak.map((x) => x.value),
      lowScore: kept.lowScore.map((x) => x.value),
    },
    evaluated: table.size,
    front: { reference: paretoFront(table, 'reference').map(point), referenceFree: paretoFront(table, 'referenceFree').map(point) },
    choice: { maxFalseStop, constrained, feasible, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) },
    chosen,
    baseline: evaluatePolicy(runs, facts, baselinePolicy, settingsOf(baselinePolicy)),
  });
}

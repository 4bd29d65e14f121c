/**
 * A policy meant for agents and models it was never tuned on (issue 14,
 * the shipped default): leave-one-source-out, each source is judged by the
 * policy chosen on all the others; a kind whose stop, alone, stopped more
 * than `sourceMax` of a held-out source's passing runs is demoted to warn
 * only, and the folds are run again without it, until every held-out source
 * is within `sourceMax`. The policy is then chosen on every source with the
 * kinds that remain. The last round's folds are the held-out numbers to quote.
 */
import { err, ok, type Result } from '../../errors.js';
import { DEFAULT_POLICY } from '../policy.js';
import { modeStops } from './evaluate-policy.js';
import { GRID_KINDS, noStops } from './grid-kinds.js';
import { splitBySource, type SourceSplitReport } from './split-report.js';
import { policyFor } from './stop-settings.js';
import { pointOf, runFacts } from './evaluate.js';
import { calibrateTradeoff, type TradeoffOptions } from './tradeoff.js';
import { MODES, type GridKindName, type ModeName, type TradeoffResult, type TradeoffRun } from './tradeoff-types.js';

/** Why a kind only warns: in this round, chosen without `source`, it alone stopped `passingStopped` of its `passing` runs. */
export interface Demotion {
  kind: GridKindName;
  round: number;
  source: string;
  setting: string;
  mode: ModeName;
  passingStopped: number;
  passing: number;
}

export interface PortableResult {
  sourceMax: number;
  demoted: Demotion[];
  rounds: number;
  /** The last round's leave-one-source-out folds. */
  heldOut: SourceSplitReport;
  /** The policy chosen on every source with the remaining kinds. */
  result: TradeoffResult;
}

/** The per-source cap of `--portable` (and of `train`'s lowForecast check) when none is given. */
export const PORTABLE_SOURCE_MAX = 0.02;

/** The options the portable choice was made with: the per-source cap, and the demoted kinds left out of the grid. */
export function portableOptions(options: TradeoffOptions, demoted: Iterable<GridKindName>, sourceMax = options.sourceMax ?? PORTABLE_SOURCE_MAX): TradeoffOptions {
  return { ...options, sourceMax, candidates: { ...options.candidates, ...Object.fromEntries([...demoted].map((k) => [k, []])) } };
}

/** Runs the rounds; `options.sourceMax` is the per-source cap (default 0.02). */
export function portableCalibration(runs: readonly TradeoffRun[], options: TradeoffOptions = {}): Result<PortableResult, string> {
  const sourceMax = options.sourceMax ?? PORTABLE_SOURCE_MAX;
  const constrained = options.constrained ?? MODES;
  const warnSource = options.warnSource ?? options.baseline ?? DEFAULT_POLICY;
  const off = new Set<GridKindName>();
  const demoted: Demotion[] = [];
  for (let round = 1; ; round++) {
    const opts = portableOptions(options, off, sourceMax);
    const folds = splitBySource(runs, opts);
    if (!folds.ok) return folds;
    const blamed = new Map<GridKindName, Demotion>();
    for (const f of folds.value.folds) {
      const test = runs.filter((r) => r.source === f.holdout);
      const facts = test.map(runFacts);
      for (const kind of GRID_KINDS) {
        const v = (f.settings as unknown as Record<string, unknown>)[kind.key];
        if (v === null || v === undefined || blamed.has(kind.key)) continue;
        const alone = modeStops(test, policyFor({ ...noStops(), [kind.key]: v }, warnSource));
        for (const mode of constrained) {
          const p = pointOf(facts, alone[mode]);
          if (p.passingStopped > Math.floor(sourceMax * p.passing + 1e-9)) {
            blamed.set(kind.key, { kind: kind.key, round, source: f.holdout, setting: kind.describe(v), mode, passingStopped: p.passingStopped, passing: p.passing });
            break;
          }
        }
      }
    }
    if (blamed.size === 0) {
      const result = calibrateTradeoff(runs, opts);
      if (!result.ok) return result;
      return ok({ sourceMax, demoted, rounds: round, heldOut: folds.value, result: result.value });
    }
    for (const [k, d] of blamed) {
      off.add(k);
      demoted.push(d);
    }
    if (round > GRID_KINDS.length + 1) return err('internal: the portable rounds did not settle');
  }
}

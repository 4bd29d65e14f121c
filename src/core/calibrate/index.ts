/**
 * Early-stop calibration (method.md section 8, `steplens calibrate`): replays
 * finished runs with known outcomes through the early-stop detectors at each
 * candidate threshold, counts false stops (passing runs stopped) and true
 * stops (failing runs stopped, with the steps they would have saved), and
 * recommends per kind the most aggressive threshold whose false-stop rate is
 * within a bound (`stop` under `maxFalseStop`, `warn` under `maxFalseWarn`)
 * and that stops at least one failing run.
 * Pure and deterministic.
 */
import { err, ok, type Result } from '../../errors.js';
import { DEFAULT_POLICY, type Policy } from '../policy.js';
import { repeatBaseline } from './baseline.js';
import { DEFAULT_CANDIDATES } from './candidates.js';
import { DEFAULT_BOUND, type BoundSpec } from './evaluate.js';
import { recommendedPolicy } from './policy-out.js';
import { chooseLevel } from './recommend.js';
import { kindRows } from './tables.js';
import { CALIBRATION_KINDS, type Calibration, type CalibrationKind, type CalibrationRun, type KindTable } from './types.js';

export * from './types.js';
export { DEFAULT_CANDIDATES } from './candidates.js';
export { firstStop, singleKindPolicy } from './replay.js';
export { nthOccurrence, repeatBaseline } from './baseline.js';
export { chooseLevel, minPassingFor } from './recommend.js';
export * from './tradeoff-types.js';
export { calibrateTradeoff, maxPassingStopped, type TradeoffOptions } from './tradeoff.js';
export { DEFAULT_GRID, kindOptions, prefilter, type GridOptions, type KindOption } from './grid-options.js';
export { GRID_KINDS, noStops, type GridKind, type KindRun } from './grid-kinds.js';
export { runGrid, chooseCombination, feasibleAt, paretoFront, settingsAt, stopsAt, type Feasibility, type GridTable } from './grid.js';
export { firstAnyStop, policyStops, combineStops, countKindStops, lowScoreStops, type StopVector } from './stop-vectors.js';
export { pointOf, runFacts, DEFAULT_BOUND, type BoundSpec, type RunFacts } from './evaluate.js';
export { evaluatePolicy, sourcePoints, sourcesOf } from './evaluate-policy.js';
export { policyFor, settingsOf, compareConservative, describeSettings } from './stop-settings.js';
export { splitTasks, fnv1a, type TaskSplit } from './split.js';
export {
  splitCalibration,
  splitBySource,
  repeatedSplits,
  splitLabel,
  taskSplitCheck,
  sourceSplitCheck,
  type SplitFold,
  type SplitReport,
  type SourceFold,
  type SourceSplitReport,
} from './split-report.js';
export { simplexGrid, fitWeights, aurocWith, signalAuroc, objective, weightDistance, type WeightSample } from './weights-fit.js';
export { weightsWithinSource, WEIGHT_COLUMNS, type WeightColumn, type WeightSourceRow, type WeightsWithinSource, type AurocWithInterval } from './weights-sources.js';
export { calibrateWeights, lotoFolds, type LotoFold, type WeightAurocs, type WeightsReport } from './weights-loto.js';
export { leaveOneOutPtas, type ReferenceCandidate } from './references.js';
export { confirmTradeoff, meetSettings, type CheckSplit, type Confirmation, type ConfirmedTradeoff, type HeldOutCheck, type SplitConfirmation } from './confirm.js';
export { stopSeparation } from './stop-separation.js';

export interface CalibrateOptions {
  /** Policy whose cycle block sizes and low-score `minSteps` the replay uses, and whose levels fill undecided ones (default DEFAULT_POLICY). */
  base?: Policy;
  /** Largest false-stop rate on passing runs a `stop` level may have (default 0.05). */
  maxFalseStop?: number;
  /** Largest false-stop rate on passing runs a `warn` level may have (default 0.25). */
  maxFalseWarn?: number;
  /** Candidate thresholds per kind (default DEFAULT_CANDIDATES). */
  candidates?: Partial<Record<CalibrationKind, readonly number[]>>;
  /** n of the naive "stop when one exact action occurs the n-th time" baseline (default 3). */
  repeatN?: number;
  /** How a level's false-stop rate is bounded (default Clopper-Pearson, 95 %). */
  bound?: BoundSpec;
}

function checkOptions(o: CalibrateOptions, candidates: Record<CalibrationKind, readonly number[]>): string | undefined {
  const stop = o.maxFalseStop ?? 0.05;
  const warn = o.maxFalseWarn ?? 0.25;
  for (const [name, b] of [
    ['maxFalseStop', stop],
    ['maxFalseWarn', warn],
  ] as const) {
    if (!Number.isFinite(b) || b < 0 || b > 1) return `${name} must be a rate in [0, 1], got ${b}`;
  }
  if (warn < stop) return `maxFalseWarn (${warn}) must not be below maxFalseStop (${stop})`;
  for (const kind of CALIBRATION_KINDS) {
    const list = candidates[kind];
    if (list.length === 0) return `no candidate thresholds for ${kind}`;
    const min = kind === 'cycle' ? 2 : 1;
    const bad = kind === 'lowScore' ? list.find((x) => !Number.isFinite(x) || x < 0 || x > 100) : list.find((x) => !Number.isInteger(x) || x < min);
    if (bad !== undefined) return `bad ${kind} candidate ${bad}`;
  }
  const n = o.repeatN ?? 3;
  return Number.isInteger(n) && n >= 1 ? undefined : `repeatN must be a positive integer, got ${n}`;
}

/** Calibrates the early-stop thresholds on `runs`; errors name a bad option or run. */
export function calibrate(runs: readonly CalibrationRun[], options: CalibrateOptions = {}): Result<Calibration, string> {
  const base = options.base ?? DEFAULT_POLICY;
  const candidates = { ...DEFAULT_CANDIDATES, ...options.candidates } as Record<CalibrationKind, readonly number[]>;
  const problem = checkOptions(options, candidates);
  if (problem !== undefined) return err(`invalid calibration options: ${problem}`);
  const badRun = runs.findIndex((r) => r.totals.length !== r.states.length);
  if (badRun >= 0) return err(`run ${badRun}: ${runs[badRun]!.totals.length} totals for ${runs[badRun]!.states.length} states`);
  const counts = { passing: runs.filter((r) => r.passed).length, failing: runs.filter((r) => !r.passed).length };
  const kinds = {} as Record<CalibrationKind, KindTable>;
  for (const kind of CALIBRATION_KINDS) {
    const direction = kind === 'lowScore' ? 'floor' : 'count';
    const bound = options.bound ?? DEFAULT_BOUND;
    const rows = kindRows(runs, kind, candidates[kind], base, bound);
    kinds[kind] = {
      direction,
      rows,
      warn: chooseLevel(rows, direction, options.maxFalseWarn ?? 0.25, counts, bound),
      stop: chooseLevel(rows, direction, options.maxFalseStop ?? 0.05, counts, bound),
    };
  }
  return ok({ runs: counts, kinds, policy: recommendedPolicy(kinds, base), baseline: repeatBaseline(runs, options.repeatN ?? 3) });
}
export { portableCalibration, portableOptions, type Demotion, type PortableResult } from './portable.js';

/** Types of the combined-policy trade-off calibration (`steplens calibrate`, issue 8). */
import type { Policy } from '../policy.js';
import type { Interval } from '../stats/interval.js';
import type { State } from '../types.js';

/** How runs are scored: against a leave-one-out PTA where the task has one (else the prior, as the server does), or the prior only. */
export type ModeName = 'reference' | 'referenceFree';

export const MODES: readonly ModeName[] = ['reference', 'referenceFree'];

/** One finished run as the trade-off calibration replays it: its states once, its running totals per mode. */
export interface TradeoffRun {
  id: string;
  task: string;
  passed: boolean;
  states: readonly State[];
  /** Running composite after each state, per mode (same length as `states`). */
  totals: Record<ModeName, readonly number[]>;
  /** True when the reference-mode totals come from a leave-one-out PTA (else they equal the prior's). */
  hasReference: boolean;
  /** The run set it comes from (agent + model), for per-source caps, reports and folds. */
  source?: string;
  agent?: string;
  model?: string;
}

/** A low-score stop: running score below `floor` once `minSteps` steps were pushed. */
export interface LowScoreStop {
  floor: number;
  minSteps: number;
}

/**
 * The stop thresholds of one candidate policy, one field per grid kind
 * (`grid-kinds.ts`); null = that kind never stops. A new kind adds its field
 * here and its entry to `GRID_KINDS`.
 */
export interface StopSettings {
  blindRetry: number | null;
  regressionLoop: number | null;
  cycle: number | null;
  explorationStreak: number | null;
  noAction: number | null;
  lowScore: LowScoreStop | null;
}

export type GridKindName = keyof StopSettings;

/** Candidate stop thresholds per kind the grid combines (before pre-filtering). */
export type GridCandidates = { [K in GridKindName]: ReadonlyArray<NonNullable<StopSettings[K]>> };

/** What one policy does to a set of runs in one mode. */
export interface TradeoffPoint {
  passing: number;
  failing: number;
  /** Passing runs stopped (false stops) and their share of passing runs. */
  passingStopped: number;
  passingRate: number | null;
  /** One-sided upper confidence bound of the passing-run rate (the calibration's method and confidence). */
  passingUpper: number | null;
  failingStopped: number;
  failingRate: number | null;
  /** Wilson's 95 % interval of failingRate over the `failing` runs (null: no failing run). */
  failingInterval: Interval | null;
  /** Steps of all failing runs: the denominator of failingStepsShare. */
  failingSteps: number;
  /** Steps after the stop, summed over stopped failing runs, and their share of all failing-run steps. */
  failingStepsSaved: number;
  failingStepsShare: number | null;
  /** 95 % percentile bootstrap interval of failingStepsShare, the `failing` runs resampled (null: under 5 of them, or no spread). */
  failingStepsShareInterval: Interval | null;
  /** Tokens of all failing runs: the denominator of failingTokenShare. */
  failingTokens: number;
  /** State costs (tokens) after the stop, summed over stopped failing runs. */
  failingTokensSaved: number;
  /** failingTokensSaved / tokens of all failing runs. */
  failingTokenShare: number | null;
  /** As failingStepsShareInterval, of failingTokenShare. */
  failingTokenShareInterval: Interval | null;
  /** failingTokensSaved / tokens of all runs (the saving net of nothing: lost successes are counted in passingStopped). */
  allTokenShare: number | null;
  /** 95 % percentile bootstrap interval of allTokenShare, every run resampled (null: under 5 runs, nothing saved, or no spread). */
  allTokenShareInterval: Interval | null;
  /** Median step index (t) of the stop over every stopped run, and over stopped failing runs. */
  medianStopStep: number | null;
  /** Distribution-free 95 % interval of medianStopStep (order statistics of the stopped runs; null under 6 of them). */
  medianStopStepInterval: Interval | null;
  /**
   * When that interval's ends meet, how many stopped runs stop at that one step (null otherwise): an interval of one
   * value says the stops tie there, not that every run stops there (`17 [17, 17]` read as certainty; audit28).
   */
  medianStopStepTied: number | null;
  medianFailingStopStep: number | null;
}

/** One grid point: a policy's settings and its numbers in each mode. */
export interface GridPoint {
  settings: StopSettings;
  modes: Record<ModeName, TradeoffPoint>;
}

/** Where one run would be stopped, per mode (null = not stopped): the full policy replayed through the early-stop engine. */
export interface RunStop {
  id: string;
  task: string;
  passed: boolean;
  steps: number;
  hasReference: boolean;
  stopAt: Record<ModeName, number | null>;
}

/** A policy's numbers on the runs of one source. */
export interface SourcePoint {
  source: string;
  modes: Record<ModeName, TradeoffPoint>;
}

/** A mean of per-source figures with its 95 % interval (rates: Price-Bonett; token share: bootstrap, null where a source has under 5 failing runs or every draw is alike). */
export interface SourceMean {
  mean: number;
  interval: Interval | null;
}

/** The mean within source of one stop vector's passing rate, failing rate and failing-token share. */
export interface WithinSourceMeans {
  /** Sources with passing and failing runs (the ones averaged), of `sources` named. */
  counted: number;
  sources: number;
  /** Runs of the counted sources. */
  runs: number;
  passingRate: SourceMean;
  failingRate: SourceMean;
  failingTokenShare: SourceMean;
}

/** A chosen (or reference) policy with its measured numbers and per-run stops. */
export interface EvaluatedPolicy {
  settings: StopSettings;
  policy: Policy;
  modes: Record<ModeName, TradeoffPoint>;
  /** The same per source, when the runs name their sources. */
  bySource?: SourcePoint[];
  /** Per mode, the mean within source of its rates with their intervals (sources with passing and failing runs). */
  withinSource?: Record<ModeName, WithinSourceMeans>;
  runs: RunStop[];
}

/** The bound, the modes it must hold in, and why nothing or something was chosen. */
export interface Choice {
  /** The largest upper confidence bound of the false-stop rate a chosen policy may have. */
  maxFalseStop: number;
  bound: 'clopper-pearson' | 'wilson';
  confidence: number;
  /** The most passing runs a choice may stop so that the bound holds (-1: even none is too many for the bound). */
  maxPassingStopped: number;
  /** Passing runs needed before any stop can meet the bound (with none stopped). */
  passingNeeded: number;
  /** Per source: the largest point false-stop rate allowed on each source, when set. */
  sourceMax?: number;
  constrained: ModeName[];
  /** Feasible grid points (within the bound, and the per-source caps, in every constrained mode). */
  feasible: number;
  /** True when the data cannot back any stop: the chosen policy only warns. */
  warnOnly: boolean;
  /** When refused: what the point estimate alone (false-stop share <= maxFalseStop) would have stopped at (the written policy warns there). */
  pointChoice?: StopSettings;
  note?: string;
}

/** The result of the combined grid on one set of runs. */
export interface TradeoffResult {
  runs: { passing: number; failing: number; withReference: number; tokens: number; failingTokens: number };
  /** Candidate thresholds kept per kind after pre-filtering (exact: a kind's stops are a subset of any combination's). */
  kept: GridCandidates;
  /** Combined policies evaluated. */
  evaluated: number;
  /** Pareto front per mode (false stops ascending, failing tokens saved ascending). */
  front: Record<ModeName, GridPoint[]>;
  choice: Choice;
  chosen: EvaluatedPolicy;
  baseline: EvaluatedPolicy;
}

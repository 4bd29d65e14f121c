/** Types of the early-stop calibration (`steplens calibrate`, method.md section 8). */
import type { Interval } from '../stats/interval.js';
import type { PolicyInput } from '../policy.js';
import type { State } from '../types.js';

/** One finished trajectory with a known outcome, as the calibration replays it. */
export interface CalibrationRun {
  /** The scorer's states, in order. */
  states: readonly State[];
  /** Running composite after each state (same length as `states`); only the low-score kind reads it. */
  totals: readonly number[];
  passed: boolean;
  /** Agent + model, where known: the single-kind rows then name their worst source beside the pooled rate (audit27). */
  source?: string;
}

/** The source whose passing runs a threshold stopped most often (by rate; ties: the more passing runs, then by name). */
export interface WorstSource {
  source: string;
  passingStopped: number;
  passing: number;
  passingRate: number;
  /** One-sided upper bound of passingRate, as the pooled row's. */
  passingUpper: number;
}

/** The pooled row's sources: how many (all, and with a passing run) and the worst one (null: no source has a passing run). */
export interface RowSources {
  sources: number;
  withPassing: number;
  worst: WorstSource | null;
}

/** The policy kinds a calibration chooses thresholds for (keys of `Policy`). */
export type CalibrationKind = 'blindRetry' | 'regressionLoop' | 'cycle' | 'explorationStreak' | 'noAction' | 'lowScore';

export const CALIBRATION_KINDS: readonly CalibrationKind[] = ['blindRetry', 'regressionLoop', 'cycle', 'explorationStreak', 'noAction', 'lowScore'];

/** What replaying one threshold over every run gave. */
export interface ThresholdRow {
  threshold: number;
  /** Passing runs the threshold would have stopped (false stops). */
  passingStopped: number;
  /** Failing runs it would have stopped (true stops). */
  failingStopped: number;
  /** Passing runs (the n of passingRate; the printed `stopped/passing`, as the failing side's `failing`). */
  passing: number;
  /** passingStopped / passing runs (null without passing runs). */
  passingRate: number | null;
  /** One-sided upper confidence bound of passingRate (Clopper-Pearson 95 % unless set otherwise). */
  passingUpper: number | null;
  failingRate: number | null;
  /** Failing runs (the n of failingRate) and Wilson's 95 % interval of the rate (null: no failing run). */
  failing: number;
  failingInterval: Interval | null;
  /** Steps after the firing step, averaged over ALL failing runs (a run not stopped saves 0). */
  meanStepsSaved: number | null;
  /** 95 % bootstrap interval of meanStepsSaved, the failing runs resampled (null: under 5 of them, or every draw alike). */
  meanStepsSavedInterval: Interval | null;
  /** The same, averaged over the stopped failing runs only. */
  meanStepsSavedWhenStopped: number | null;
  /** As meanStepsSavedInterval, the stopped failing runs resampled. */
  meanStepsSavedWhenStoppedInterval: Interval | null;
  /** Present when the runs name their source: the rates are pooled over sources, this is the worst of them. */
  bySource?: RowSources;
}

/** Why a level has no recommendation. */
export type NoRecommendation = 'too_few_runs' | 'never_fired' | 'none_qualifies';

/** The recommended threshold of one level (warn or stop), or why there is none. */
export interface LevelChoice {
  threshold: number | null;
  /** The false-stop bound the level had to meet. */
  bound: number;
  reason?: NoRecommendation;
  note?: string;
}

/** One kind's table and its recommendation. */
export interface KindTable {
  /** `count`: larger thresholds are more conservative; `floor` (low score): smaller ones are. */
  direction: 'count' | 'floor';
  rows: ThresholdRow[];
  warn: LevelChoice;
  stop: LevelChoice;
}

/** The naive rule the feature exists to replace: stop when one exact action (state hash) occurs the `n`-th time, anything in between. */
export interface RepeatBaseline {
  n: number;
  passingStopped: number;
  failingStopped: number;
  passingRate: number | null;
  failingRate: number | null;
}

export interface Calibration {
  runs: { passing: number; failing: number };
  kinds: Record<CalibrationKind, KindTable>;
  /** Partial policy (validates with `policyInputSchema`): recommended levels; kinds without data keep their defaults. */
  policy: PolicyInput;
  baseline: RepeatBaseline;
}

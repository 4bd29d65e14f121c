/** The rows of the report's figures per source, score and configuration (models, head to head, separation, calibration, best-of-N, Lucky, multi-trial). */
import type { CalibrationCheck } from '../core/stats/calibration-check.js';
import type { ReliabilityBin } from '../core/stats/calibration-error.js';
import type { ReliabilityMetrics } from '../core/reliability/types.js';
import type { ReliabilityIntervals } from '../core/reliability/intervals.js';
import type { LuckyCategory } from '../core/types.js';
import type { BestOfN } from '../core/stats/best-of-n.js';
import type { PairedDifference } from '../core/stats/paired-difference.js';
import type { Interval } from '../core/stats/interval.js';
import type { Separation } from '../core/stats/separation.js';
import type { ReferenceKind } from './input-types.js';

/**
 * A source's figure on the tasks every source compared for a rank ran (when they ran different tasks): the rank
 * stands on it when `sharedTasks` >= MIN_SHARED_TASKS, else no source is ranked.
 */
export interface SharedTaskFigure {
  /** Tasks all compared sources ran; this source's own tasks; the tasks of any compared source; how many sources. */
  sharedTasks: number;
  ownTasks: number;
  allTasks: number;
  sources: number;
  /** This source's runs on the shared tasks, and its pass rate or mean quality on them with the interval. */
  n: number;
  estimate: number | null;
  interval: Interval | null;
}

/** Two sources on the tasks both ran (report/head-to-head.ts): A's figure minus B's, task by task. */
export interface HeadToHeadRow {
  a: string;
  b: string;
  /** Pass rate (evaluated runs) and mean quality (scored runs), each over the tasks both sides have such runs of. */
  pass: PairedDifference & { runsA: number; runsB: number };
  quality: PairedDifference & { runsA: number; runsB: number };
}

/**
 * Per source (agent + model): pass rate and mean quality with their n and 95 % intervals, both ranks
 * (ties marked; none below the minimum of runs), tiers, Lucky mix and waste over every scored run.
 */
export interface ModelRow {
  /** agent + model label (see TrajectoryRow.source). */
  source: string;
  agent: string;
  /** null: trajectories whose log and evaluation name no model, grouped by `run`. */
  model: string | null;
  /** The run of a row whose model is not named. */
  run?: string;
  trajectories: number;
  /** Trajectories with a pass/fail outcome: the n of the pass rate. */
  evaluated: number;
  passes: number;
  passRate: number | null;
  /** Wilson 95 % interval of the pass rate. */
  passRateInterval: Interval | null;
  /** Scored trajectories (every outcome): the n of the mean quality, tiers and waste. */
  scored: number;
  meanQuality: number | null;
  /** Seeded percentile bootstrap 95 % interval of the mean quality. */
  meanQualityInterval: Interval | null;
  /** 1 + the number of ranked rows whose interval lies wholly above this one's (null: not ranked). */
  rankPass: number | null;
  /** Another ranked row's pass-rate interval overlaps this one's: the two cannot be told apart. */
  rankPassTied: boolean;
  rankQuality: number | null;
  rankQualityTied: boolean;
  /** rankPass − rankQuality: positive = better by quality than by pass rate. */
  rankShift: number | null;
  /** Why a rank is missing (e.g. `n 3 < 10`). */
  unrankedPass?: string;
  unrankedQuality?: string;
  /** Present when the sources compared for the pass-rate rank ran different tasks: the figure the rank stands on (rank-shared.ts). */
  rankPassOn?: SharedTaskFigure;
  /** The same for the mean-quality rank. */
  rankQualityOn?: SharedTaskFigure;
  scoredPassing: number;
  tiers: { Ideal: number; Solid: number; Lucky: number };
  /** Shares of Ideal/Solid/Lucky among scored passing trajectories (null without any). */
  tierShares: { Ideal: number; Solid: number; Lucky: number } | null;
  /** Each share's Wilson 95 % interval with the tasks' design effect (n = scoredPassing; null: none, or too few tasks). */
  tierShareIntervals: { Ideal: Interval | null; Solid: Interval | null; Lucky: Interval | null } | null;
  /**
   * @deprecated The same value as `tierShares.Lucky` (n = scoredPassing): read that. Kept in report.json for readers
   * written before the tier shares (audit23); not in models.csv, which gives the Lucky share once (`lucky`).
   */
  luckyRate: number | null;
  /** @deprecated The same interval as `tierShareIntervals.Lucky`: read that (kept for readers, as `luckyRate`). */
  luckyRateInterval: Interval | null;
  luckyMix: Record<LuckyCategory, number>;
  /** Over every scored trajectory: the sums of their distinct wasted steps and tokens. */
  wastedSteps: number;
  wastedTokens: number;
}

/** Separation of one score (a signal of the composite, or the forecast pPass) on one set of runs. */
export interface SeparationRow extends Separation {
  signal: 'total' | 'struct' | 'cov' | 'coh' | 'temp' | 'pPass';
  /** The runs measured: every scored run (`all`) or those scored against one kind of reference. */
  reference: 'all' | ReferenceKind;
  /** Pooled counts (the same as `pooled.nPass` / `pooled.nFail`). */
  nPass: number;
  nFail: number;
  /** Pooled two-sample KS (exact p up to n·m = 10,000, else asymptotic: core/stats/ks.ts). */
  ksD: number | null;
  ksP: number | null;
  /** How `ksP` was drawn: counted exactly, or the asymptotic approximation (null: no p). */
  ksMethod: 'exact' | 'asymptotic' | null;
}

/**
 * Calibration of pPass on one source's runs with an outcome (or `all`): ECE (10 bins) with its bootstrap
 * interval beside the ECE a perfectly calibrated forecaster shows at the same predictions and n (core/stats
 * calibrationCheck), mean pPass against the pass rate, and the reliability diagram's bins.
 */
export interface CalibrationRow extends CalibrationCheck {
  source: string;
  meanPredicted: number | null;
  observedRate: number | null;
  bins: ReliabilityBin[];
}

/** Best-of-N selection by one score, over every source or within one. */
export interface SelectionRow extends BestOfN {
  score: 'total' | 'pPass';
  /** `all` or one source label. */
  source: string;
  /**
   * The groups by the kind of reference their runs were scored against (a task's runs all meet one kind, so each
   * group is one kind). More than one kind: the rate pools picks by different composites (report/reference-mix.ts).
   */
  groupsByReference: Record<ReferenceKind, number>;
  /**
   * pPass only: how many of `runs` the forecaster was trained on (their pick is in-sample, so optimistic); null when
   * its file lists no training runs (cannot be checked). Absent for the composite.
   */
  inSampleRuns?: number | null;
}

export interface ChiSquareRow {
  rows: string[];
  cols: string[];
  table: number[][];
  statistic: number | null;
  dof: number | null;
  p: number | null;
  note?: string;
}

/** One configuration's multi-trial metrics, each with its 95 % interval over tasks (null: fewer than 5 tasks, counted by their design effect). */
export interface ReliabilityRow extends ReliabilityMetrics, ReliabilityIntervals {
  configuration: string;
  taskIds: string[];
  /** Pareto front (1 = not dominated); null with fewer than 2 configurations: no ranking among one. */
  front: number | null;
  /** p_attempt's 95 % Wilson interval with the tasks' design effect (null: no completed attempt, or fewer than 5 tasks). */
  pAttemptInterval: Interval | null;
}

/** One attempt of a repeated (configuration, task). */
export interface AttemptRow {
  configuration: string;
  task: string;
  run: string;
  outcome: 'pass' | 'fail' | 'censored';
  patchLines: number;
  editVolume: number;
  pcr: number;
  toolCalls: number;
  toolFailures: number;
}

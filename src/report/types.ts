import type { CalibrationCheck } from '../core/stats/calibration-check.js';
import type { ReliabilityBin } from '../core/stats/calibration-error.js';
/** The corpus report document (`steplens report --json`) and its inputs. */
import type { AgentFailureKind, ReliabilityMetrics } from '../core/reliability/types.js';
import type { ReliabilityIntervals } from '../core/reliability/intervals.js';
import type { LuckyCategory, ScoreVector, Tier, WasteItem } from '../core/types.js';
import type { FormatName, TrajectoryMeta } from '../formats/types.js';
import type { Step } from '../core/types.js';
import type { Pta } from '../core/scorer-api.js';
import type { BestOfN } from '../core/stats/best-of-n.js';
import type { PairedDifference } from '../core/stats/paired-difference.js';
import type { Interval } from '../core/stats/interval.js';
import type { Separation } from '../core/stats/separation.js';

/** A test outcome: `unknown` = no evaluation found; `censored` = interrupted by infrastructure. */
export type Outcome = 'pass' | 'fail' | 'censored' | 'unknown';

/** One parsed trajectory with the identity the report groups it by. */
export interface LoadedTrajectory {
  /** File path, plus `#N` (1-based line) for one instance of a multi-instance file. */
  id: string;
  path: string;
  format: FormatName;
  meta: TrajectoryMeta;
  steps: Step[];
  /** null: nothing names the task (see identity.ts). */
  task: string | null;
  run: string;
  /** null: the log names no model. */
  model: string | null;
  agent: string;
}

/**
 * A file the report did not read as a trajectory: `metadata` (an evaluation or task file, expected
 * beside logs), `not_a_log` (JSON in no supported log format), `unreadable` (empty, truncated,
 * binary, not JSON: a broken log; the command exits 1 unless --lenient).
 */
export interface SkippedFile {
  path: string;
  reason: string;
  /** `duplicate`: the same file as one read before (a symlink to it, or the same file under two names). */
  kind: 'metadata' | 'not_a_log' | 'unreadable' | 'duplicate';
}

/** A trajectory's outcome and where it came from. */
export interface OutcomeInfo {
  outcome: Outcome;
  source: string;
  /** The model the evaluation names (harness `run_evaluation/<run>/<model>/`, sb-cli `<model>.<run>.json`, an `--outcomes` row's `model`), if any. */
  model?: string;
  /** The agent an `--outcomes` row names, if any. */
  agent?: string;
}

/** A task's PTA from outside the scored folders (`report --references DIR`, `--bundled`). */
export interface ExternalReference {
  pta: Pta;
  /** Where it came from: `bundled`, or the reference folder's path. */
  source: string;
}

/**
 * What a scored trajectory was scored against. `in-folder`: a PTA built from the passing trajectories of its
 * task in the given PATHs (leave-one-out for a passing one). `external`: a stored PTA of its task (the task
 * had too few other passing trajectories in the PATHs); `holdsRun` when the PTA already holds this run's path
 * step for step, i.e. the run (or one just like it) helped build it, so its score is optimistic.
 */
export type ScoredAgainst =
  { kind: 'in-folder'; references: number } | { kind: 'external'; source: string; version: number; references: number; holdsRun: boolean } | { kind: 'reference-free'; priorReferences: number };

/** The kinds of reference a run can be scored against (a column of every table that lists runs). */
export type ReferenceKind = ScoredAgainst['kind'];
export const REFERENCE_KINDS: readonly ReferenceKind[] = ['in-folder', 'external', 'reference-free'];

/** A source whose scored passing and failing runs met more than one kind of reference: its runs per kind and outcome (report/reference-mix.ts). */
export interface ReferenceKindMix {
  source: string;
  passing: Record<ReferenceKind, number>;
  failing: Record<ReferenceKind, number>;
}

/** Why a trajectory has no score: no step to score (`no_reference` / `no_task` only when the report was built without a prior). */
export type UnscoredReason = 'no_reference' | 'no_steps' | 'no_task';

/** One row of the per-trajectory table. */
export interface TrajectoryRow {
  id: string;
  /** null: nothing names the task. */
  task: string | null;
  run: string;
  /** The model the log (else its evaluation) names; null when neither does. */
  model: string | null;
  agent: string;
  /** agent + model (a model nobody names: its run folder), the unit of within-source statistics. */
  source: string;
  format: FormatName;
  steps: number;
  outcome: Outcome;
  outcomeSource: string;
  exitStatus?: string;
  /** Reference trajectories of the PTA the score used (leave-one-out for passing ones). */
  references?: number;
  /** What the score was computed against (scored trajectories only). */
  reference?: ScoredAgainst;
  unscored?: UnscoredReason;
  score?: ScoreVector;
  /** P(pass | the whole run) of the forecaster given with `--forecast`. */
  pPass?: number;
  /** With a pPass: true when the forecaster was trained on this run (in-sample, optimistic); absent when its file lists no runs. */
  pPassInSample?: boolean;
  tier?: Tier;
  lucky?: LuckyCategory;
  stages?: string;
  /** The distinct wasted steps (the union over `waste`'s items, which may overlap) and their tokens, each step once. */
  wastedSteps: number;
  wastedTokens: number;
  waste: WasteItem[];
  /** Early-stop signal kinds that fired (default policy). */
  signals: string[];
  patchLines: number;
  editVolume: number;
  toolCalls: number;
  toolFailures: number;
  failuresByKind: Record<AgentFailureKind, number>;
}

/** Per task: how many trajectories of each outcome and whether it has a reference. */
export interface TaskRow {
  /** null: the row of the trajectories that name no task. */
  task: string | null;
  trajectories: number;
  passing: number;
  failing: number;
  other: number;
  /** Passing trajectories with at least one step (the PTA's references). */
  references: number;
  scored: number;
  unscored: number;
  /** The external PTA some of the task's trajectories were scored against, and how many. */
  external?: { source: string; version: number; references: number; scored: number };
}

/**
 * Per source (agent + model): pass rate and mean quality with their n and 95 % intervals, both ranks
 * (ties marked; none below the minimum of runs), tiers, Lucky mix and waste over every scored run.
 */
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
  luckyRate: number | null;
  /** Wilson 95 % interval of the Lucky rate (n = scoredPassing). */
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
  /** Pooled two-sample KS (asymptotic p). */
  ksD: number | null;
  ksP: number | null;
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

/**
 * With a forecaster (`--forecast`): how many runs with a pPass it was trained on (their fingerprints are in the
 * forecast file's `trainedRuns`), so their pPass separation, calibration and best-of-N are in-sample.
 */
export interface ForecastInSample {
  /** False: the file lists no training runs this steplens can read (written before `train` listed them); `inSample` is null. */
  checked: boolean;
  /** Runs with a pPass that the forecaster was trained on. */
  inSample: number | null;
  /** Runs with a pPass. */
  withPPass: number;
  /** The same per source (agent + model) with a pPass run. */
  bySource: Array<{ source: string; inSample: number | null; withPPass: number }>;
}

/** How the report's intervals and rankings were computed (and how to reproduce them). */
export interface StatisticsSettings {
  level: number;
  /** Bootstrap draws and seed (`--seed`). */
  reps: number;
  seed: number;
  passRateInterval: 'wilson';
  /** Fewest runs behind a rank (`--min-runs`): evaluated runs for the pass rate, scored runs for quality. */
  minRuns: number;
  /** Fewest passing and failing runs a source needs to count in the within-source mean. */
  minPerClass: number;
  /** What the AUROC intervals resample: tasks, each with all its runs (runs of one task are not independent), as `train` does. */
  unit: 'task';
}

/** The models, separation and best-of-N of the runs scored against one kind of reference (`--by-reference`). */
export interface ReferenceSplit {
  reference: ReferenceKind;
  trajectories: number;
  models: ModelRow[];
  separation: SeparationRow[];
  selection: SelectionRow[];
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

export interface CorpusReport {
  generatedBy: 'steplens report';
  inputs: {
    paths: string[];
    files: number;
    trajectories: number;
    skippedFiles: number;
    skipped: SkippedFile[];
    /** Lines or events skipped inside the logs that were read. */
    problems: Array<{ path: string; at: string; message: string }>;
    /** Folders of stored PTAs consulted for tasks with too few passing trajectories in `paths` (in order). */
    referenceFolders: Array<{ source: string; dir: string }>;
    /** The scoring config file (`--config`) every run was scored with; absent: the shipped defaults. */
    config?: string;
    /** With `--forecast`: how many runs with a pPass the forecaster was trained on (in-sample pPass). */
    forecastInSample?: ForecastInSample;
  };
  counts: {
    trajectories: number;
    pass: number;
    fail: number;
    censored: number;
    unknown: number;
    scored: number;
    /** Scored against an external PTA. */
    scoredExternal: number;
    /** Scored reference-free (no PTA of the task here or in the reference folders). */
    scoredReferenceFree: number;
    unscoredNoReference: number;
    unscoredNoSteps: number;
    unscoredNoTask: number;
  };
  tasks: TaskRow[];
  trajectories: TrajectoryRow[];
  models: ModelRow[];
  /** Pairs of sources that ran at least MIN_SHARED_TASKS tasks in common: their pass rate and mean quality compared on those tasks. */
  headToHead: HeadToHeadRow[];
  /** Per score: within source (the headline), within task and pooled beside source-only, over every scored run. */
  separation: SeparationRow[];
  /** Best-of-N: per source + task with >= 2 runs, the top-scored run vs a random pick vs the oracle. */
  selection: SelectionRow[];
  /** With a forecaster (`--forecast`): calibration of pPass per source, then over all runs. */
  calibration?: CalibrationRow[];
  statistics: StatisticsSettings;
  /** Present with `--by-reference`: the same tables per reference kind. */
  byReference?: ReferenceSplit[];
  luckyChiSquare: ChiSquareRow;
  reliability: { configurations: ReliabilityRow[]; attempts: AttemptRow[] };
  /** Cautions about how to read the scores (also printed on stderr and listed in report.md's notes). */
  warnings: string[];
  /** The sources whose passing and failing runs were scored against more than one kind of reference (a warning line each in the headline). */
  referenceKindMix: ReferenceKindMix[];
}

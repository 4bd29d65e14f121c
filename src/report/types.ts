/**
 * The corpus report document (`steplens report --json`): its per-run and per-task rows and the report itself. What it
 * reads is in input-types.ts, the rows of its figures in figure-rows.ts (both re-exported here, where every reader
 * of the report imports them from).
 */
import type { AgentFailureKind } from '../core/reliability/types.js';
import type { LuckyCategory, ScoreVector, Tier, WasteItem } from '../core/types.js';
import type { FormatName } from '../formats/types.js';
import type { Outcome, SkippedFile, ScoredAgainst, ReferenceKind } from './input-types.js';
import type { HeadToHeadRow, ModelRow, SeparationRow, CalibrationRow, SelectionRow, ChiSquareRow, ReliabilityRow, AttemptRow } from './figure-rows.js';
export { REFERENCE_KINDS, type Outcome, type LoadedTrajectory, type SkippedFile, type OutcomeInfo, type ExternalReference, type ScoredAgainst, type ReferenceKind } from './input-types.js';
export type { SharedTaskFigure, HeadToHeadRow, ModelRow, SeparationRow, CalibrationRow, SelectionRow, ChiSquareRow, ReliabilityRow, AttemptRow } from './figure-rows.js';

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
    /** `end` with `--rank-model end`: every pPass is the forecast file's end-of-run model's (absent: the prefix model's). */
    forecastModel?: 'end';
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

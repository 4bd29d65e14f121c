/** What the corpus report reads: the parsed logs, their outcomes, the references a run is scored against. */
import type { FormatName, TrajectoryMeta } from '../formats/types.js';
import type { Step } from '../core/types.js';
import type { Pta } from '../core/scorer-api.js';

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

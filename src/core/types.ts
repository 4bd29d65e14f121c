/**
 * The shared data model of steplens: normalised steps (what every log format
 * parser produces and what the `steplens` JSON Lines format holds), scorer
 * states, scores, signals and reports. Every layer builds on these types.
 */

/** Intent stage: Exploration, Implementation, Verification, Orchestration. */
export type Stage = 'E' | 'I' | 'V' | 'O';
export const STAGES: readonly Stage[] = ['E', 'I', 'V', 'O'];

/** Inclusive 1-based line range. */
export type LineRange = [number, number];

/** How an editor action changes a file. */
export type EditOp = 'create' | 'str_replace' | 'insert' | 'write' | 'undo' | 'replace_lines';

/**
 * The normalised action of one step, independent of the log format.
 * A format parser maps its tool calls onto these; anything it cannot map is `other`.
 */
export type Action =
  | { kind: 'shell'; command: string }
  | { kind: 'code'; language: string; code: string }
  | { kind: 'view'; path: string; range?: LineRange }
  | {
      kind: 'edit';
      op: EditOp;
      path: string;
      /** str_replace: the replaced text. */
      old?: string;
      /** str_replace / insert / replace_lines: the new text. */
      new?: string;
      /** create / write: the whole file text. */
      text?: string;
      /** replace_lines: the replaced lines; insert: [line, line]. */
      range?: LineRange;
    }
  | { kind: 'search'; query?: string; path?: string }
  | { kind: 'list'; path?: string }
  | { kind: 'think'; text?: string }
  | { kind: 'finish'; text?: string }
  | { kind: 'message'; text?: string }
  | { kind: 'none' }
  | { kind: 'other'; name: string };

/** Token counts of the model call that produced a step, where the log has them. */
export interface TokenCounts {
  prompt?: number;
  completion?: number;
}

/**
 * One agent action with its observation, normalised from any log format
 * (method.md section 1). This is also one line of the `steplens` format.
 */
export interface Step {
  /** 0-based position in the trajectory. */
  t: number;
  /** Raw tool name as the log spells it (`bash`, `str_replace_editor`, `open`, ...). */
  tool: string;
  /** Raw tool arguments, kept for display and debugging. */
  args?: Record<string, unknown>;
  action: Action;
  observation?: string;
  exitCode?: number;
  tokens?: TokenCounts;
  timestamp?: string;
  /** The model's reasoning text for this step, if any. */
  thought?: string;
  /** Working directory the command ran in, if known. */
  cwd?: string;
  /** Source identifier (event id, tool_call_id), if any. */
  id?: string;
}

/** What kind of thing a state does (finer than the stage). */
export type ActionKind =
  'read' | 'search' | 'list' | 'edit' | 'create' | 'run_test' | 'run_script' | 'run_other' | 'vcs' | 'install' | 'housekeeping' | 'think' | 'finish' | 'message' | 'none' | 'other';

/** The labeler's verdict on one step. */
export interface Label {
  stage: Stage;
  kind: ActionKind;
  /** Which of the seven rules (1-7) fired, or 0 for the fallback. */
  rule: number;
  /** True when no rule knew the tool or command (fallback used). */
  unknown: boolean;
  /** Repo-relative target file, if any. */
  file?: string;
  range?: LineRange;
  /** True when this step changed a file's content (any edit, shell write). */
  changesFile: boolean;
  /** True when the step changed a source file (not test, not scratch): sets "source edited". */
  sourceEdit: boolean;
}

/** What the scorer keeps of a step (method.md section 1). */
export interface State {
  t: number;
  stage: Stage;
  kind: ActionKind;
  tool: string;
  file?: string;
  range?: LineRange;
  /** `file::Qualified.name` of the innermost enclosing scope, or `file::<module>`. */
  scope?: string;
  /** MD5 hex of the normalised action content. */
  hash: string;
  /** Sorted distinct tokens of the normalised command (terminal commands only, else empty). */
  tokens: string[];
  /** True for terminal (shell/code) commands: the command-token tier applies. */
  command: boolean;
  changesFile: boolean;
  /** Non-zero exit code, or a failure recognised in the observation. */
  failed: boolean;
  /** Estimated token cost of this step (log token counts, else characters / 4). */
  cost: number;
  unknown: boolean;
  /**
   * Present (true) when the step changed the environment or the tree beyond the write `changesFile` names:
   * a package installed, a variable exported, a directory changed, a checkout, reset or stash, a build's
   * artifacts, a file created, deleted or written by a second command of the line.
   */
  changesEnv?: true;
  /**
   * Present (true) when the state's hash equals an earlier state's but the action differs from the most
   * recent of them in what the hash ignores (an edit's whitespace, the directory a command ran in): the
   * repeat detectors do not take it for the same action.
   */
  variant?: true;
}

/** One score vector. `struct` and `cov` are null when scored against the prior. */
export interface ScoreVector {
  total: number;
  struct: number | null;
  cov: number | null;
  coh: number;
  temp: number;
}

export type PassTier = 'Ideal' | 'Solid' | 'Lucky';
export type FailTier = 'Partial-fail' | 'Off-track';
export type Tier = PassTier | FailTier;
export type LuckyCategory = 'C1' | 'C2' | 'C3' | 'C4' | 'C5' | 'unclassified';

export type SignalKind = 'blind_retry' | 'regression_loop' | 'cycle' | 'exploration_streak' | 'no_action' | 'low_score' | 'low_forecast' | 'budget';
export type Severity = 'warn' | 'stop';

/** An early-stop signal, fired once per episode at step `t`. */
export interface Signal {
  kind: SignalKind;
  severity: Severity;
  t: number;
  steps: number[];
  message: string;
}

export type WasteCategory = 'regression_loop' | 'blind_retry' | 'redundant_step' | 'irrelevant_exploration' | 'cyclic_pattern';

export interface WasteItem {
  category: WasteCategory;
  steps: number[];
  tool: string;
  wastedSteps: number;
  wastedTokens: number;
}

/** Which reference a score was computed against. */
export interface ReferenceInfo {
  kind: 'pta' | 'prior';
  version?: number;
  paths?: number;
}

/** Stage distribution over E, I, V, O (in that order). */
export type StageDist = [number, number, number, number];

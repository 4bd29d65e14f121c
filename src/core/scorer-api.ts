/**
 * The scorer's public contract: what `createScorer` returns and what a PTA
 * looks like. The server, the CLI and the report all program against this.
 */
import type { PriorSignals } from './composite.js';
import type { Analyzers } from './ports.js';
import type { Label, LuckyCategory, ReferenceInfo, ScoreVector, Signal, Stage, StageDist, State, Step, Tier, WasteItem } from './types.js';

export const PTA_SCHEMA_VERSION = 1;

/** One PTA node. Node 0 is the root and has no state. */
export interface PtaNode {
  id: number;
  parent: number | null;
  children: number[];
  state: State | null;
  /** How many reference trajectories pass through this node. */
  refs: number;
}

/** Per-reference facts the Lucky taxonomy needs. */
export interface ReferenceStats {
  /** Number of states of the reference trajectory. */
  length: number;
  /** Distinct I-stage files or scopes it touched. */
  implTargets: number;
  /** Who added it (a server's tenant name); absent for references built offline or added before tenants. */
  by?: string;
}

/** A task's prefix tree acceptor, as stored and serialised (JSON). */
export interface Pta {
  schema: typeof PTA_SCHEMA_VERSION;
  task: string;
  /** Bumped on every added reference; starts at 1 with the first build. */
  version: number;
  /** Equivalence threshold used when the PTA was built. */
  tau: number;
  nodes: PtaNode[];
  /** Per window (3), the sum over references of their own window stage distributions. */
  windowSums: [StageDist, StageDist, StageDist];
  references: ReferenceStats[];
  /** Sorted repo-relative files any node touches. */
  files: string[];
}

/** The stage-profile prior used for tasks without a PTA (method.md section 8). */
export interface TemporalPrior {
  windows: [StageDist, StageDist, StageDist];
  /** How many reference trajectories the prior pools. */
  references: number;
}

export type Reference = { kind: 'pta'; pta: Pta } | { kind: 'prior'; prior: TemporalPrior };

/** What `push` returns for one step. */
export interface StepResult {
  t: number;
  label: Label;
  state: State;
  score: ScoreVector;
  /** Process reward: f_t - f_{t-1}, f_{-1} = 0. */
  reward: number;
  /**
   * The tier of the prefix: the outcome's tier when the outcome is known (`setOutcome`: a failing
   * run is Partial-fail or Off-track from its first step), else the projected passing tier.
   */
  tier: Tier;
  /** Early-stop signals that fired at this step. */
  signals: Signal[];
  /** P(pass | the prefix so far) from the loaded forecast model (absent without one). */
  pPass?: number;
}

/** The whole-trajectory report (the server's `final`, the CLI's `score --json`). */
export interface TrajectoryReport {
  score: ScoreVector;
  /** Real tier when `passed` is known, projected passing tier otherwise. */
  tier: Tier;
  lucky?: LuckyCategory;
  waste: WasteItem[];
  signals: Signal[];
  steps: number;
  /** One stage letter per step. */
  stages: string;
  reference: ReferenceInfo;
  /** Steps no labeler rule knew. */
  unknown: number;
  /** P(pass | the whole trajectory) from the loaded forecast model (absent without one). */
  pPass?: number;
  /** Version of that model, where the caller knows it (the server). */
  forecastVersion?: number;
  /** The run is one the model was trained on (its pPass is in-sample), where the caller can tell (the server's HTTP scoring). */
  pPassInSample?: boolean;
}

/** The states a scorer keeps, in its compact form: each read rebuilds state objects. */
export interface StateRecords {
  readonly length: number;
  /** The state at position `i` (0-based), rebuilt; undefined past the end. */
  at(i: number): State | undefined;
  /** The stage of the state at position `i`, without rebuilding it; undefined past the end. */
  stageAt(i: number): Stage | undefined;
  /** Every state, in order (new objects on each call). */
  all(): State[];
}

/** An incremental scorer for one trajectory. */
export interface Scorer {
  /** Adds the next step; returns the running score after it. */
  push(step: Step): StepResult;
  /** Number of steps pushed. */
  readonly length: number;
  /** The current score vector (all zeros / prior before any step). */
  score(): ScoreVector;
  /** Every state so far, in order (rebuilt on each call: O(length)). */
  states(): readonly State[];
  /** The state of the step at position `i` (0-based), rebuilt; undefined past the end. */
  state(i: number): State | undefined;
  /**
   * The scorer's own store of its states (about 32-57 B a state, against ~130 for state objects): what a caller
   * keeps after dropping the scorer, e.g. the server for an ended session. Later pushes append to it.
   */
  keptStates(): StateRecords;
  /**
   * The caller is done pushing (a session that ended): the shadow workspace's texts leave the process-wide set of
   * inflated texts without being deflated (see core/memory/packed-text.ts), and the kept states drop the room they
   * were given for steps expected that never came. Every method still works afterwards.
   */
  release(): void;
  /**
   * No step is expected soon (the server calls it for a session idle for a while): the shadow workspace keeps its
   * long texts deflated until they are read again (core/memory/packed-text.ts), whatever the compression setting.
   * Changes no result: every method gives what it gave before.
   */
  compact(): void;
  /** Records the test outcome (undefined: unknown); the tiers of later steps follow it. */
  setOutcome(passed: boolean | undefined): void;
  report(passed?: boolean): TrajectoryReport;
  /**
   * {@link report} in steps (core/in-steps.ts): the report of the steps pushed when it is called (steps pushed while
   * it runs are not in it), its waste analysis and the rebuild of the states it reads yielding every few hundred
   * states. A live 5,000-step session's report took 60-124 ms cold at load 5 in one go.
   */
  reportInSteps(passed?: boolean): Generator<void, TrajectoryReport>;
  /**
   * What a status line needs of {@link report} (the score, its tier, pPass), without the waste analysis over every
   * state: a live 5,000-step session's report takes ~35 ms, and polling its status must not.
   */
  headline(passed?: boolean): Pick<TrajectoryReport, 'score' | 'tier' | 'pPass'>;
  /** Scored against the prior: the reference-free signals beside Φcoh and Φtemp now (all 0 before a step); undefined with a PTA. */
  priorSignals(): PriorSignals | undefined;
  /**
   * With a forecast model and `forecastFeatures: 'all'`: its feature vectors at the sampled prefix lengths and now
   * (what `serve --forecast-learn` refits on). Absent otherwise.
   */
  forecastTrace?(): ForecastTrace;
  /** What the scorer scores against (the report's `reference`), known from creation. */
  readonly reference: ReferenceInfo;
}

/** The forecaster's feature vectors of a run: `at` prefix lengths (ascending, the last is `length`), rows of the feature catalogue. */
export interface ForecastTrace {
  length: number;
  at: Int32Array;
  rows: Float64Array;
}

export interface ScorerOptions {
  reference: Reference;
  analyzers: Analyzers;
}

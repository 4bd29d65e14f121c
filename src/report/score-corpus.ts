/**
 * Per-task scoring of a corpus against PTAs built from its passing
 * trajectories. A passing trajectory is scored leave-one-out, against a PTA of
 * the OTHER passing ones (needs at least two others); every other trajectory
 * against the PTA of all passing ones (needs at least two); only when every run
 * of the task has such a PTA (at least 3 passing runs), so one task's runs are
 * all scored against one kind of reference. Otherwise a task's runs are scored against its external PTA when one
 * is given (with at least two references, as the server requires), else
 * reference-free against the prior (as `score`, `calibrate`, `train` and the
 * server do without a PTA). Only a trajectory with no step is left unscored
 * (and, when no prior is given, one without any reference or task).
 */
import { UNIFORM_PRIOR } from '../core/prior.js';
import { leaveOneOutPtas, type FailingReference } from '../core/calibrate/references.js';
import { selectModel, type ForecastFile } from '../core/forecast/model.js';
import { createEndScorer } from '../core/forecast/end-model.js';
import { withEndPPass } from './end-ppass.js';
import type { ScoringConfig } from '../core/config.js';
import { createScorer } from '../core/scorer.js';
import { analyzersFor } from '../core/scope-free.js';
import type { Analyzers } from '../core/ports.js';
import type { Reference, TemporalPrior, TrajectoryReport } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { holdsPath } from '../core/pta/index.js';
import { distinctWaste } from '../core/waste/index.js';
import type { ExternalReference, LoadedTrajectory, Outcome, ScoredAgainst, UnscoredReason } from './types.js';

/** Minimum number of reference trajectories a PTA needs. */
export const MIN_REFERENCES = 2;

export interface ScoredTrajectory {
  report?: TrajectoryReport;
  /** The report's distinct wasted steps and their tokens (`distinctWaste`): items may overlap. */
  wasted?: { steps: number; tokens: number };
  references?: number;
  against?: ScoredAgainst;
  unscored?: UnscoredReason;
}

export interface ScoreCorpusOptions {
  analyzers: Analyzers;
  /** Called after each trajectory is handled. */
  onProgress?: (done: number, total: number) => void;
  /** Per task, a stored PTA for trajectories whose task has too few passing ones here. */
  external?: ReadonlyMap<string, ExternalReference>;
  /** The prior a trajectory without any PTA is scored against (reference-free); without it such a trajectory is left unscored. */
  prior?: TemporalPrior;
  /** Outcome forecasters: each trajectory gets the P(pass) of the model `selectModel` picks for its agent and model. */
  forecast?: ForecastFile;
  /** Each finished run's pPass by the file's end-of-run model instead of the prefix model (`report --rank-model end`). */
  endModel?: boolean;
  /** Which in-folder reference a failing run meets (default `matched`: a PTA of n − 1 passing runs, as a passing run meets). */
  failingReference?: FailingReference;
  /** Scoring weights, tier thresholds, tau, ... (`--config`; default the shipped ones), as `score --config` and `serve --config`. */
  config?: ScoringConfig;
}

function statesOf(t: LoadedTrajectory, analyzers: Analyzers, config: ScoringConfig | undefined): readonly State[] {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers, ...(config ? { config } : {}) });
  for (const step of t.steps) scorer.push(step);
  return scorer.states();
}

/** Scores every trajectory that has references; the result is aligned with `trajectories`. */
export function scoreCorpus(trajectories: readonly LoadedTrajectory[], outcomes: readonly Outcome[], options: ScoreCorpusOptions): ScoredTrajectory[] {
  const named = trajectories.flatMap((t, i) => (t.task === null ? [] : [{ t, i, task: t.task }]));
  const candidates = named.map(({ t, i, task }) => {
    const passed = outcomes[i] === 'pass';
    return { key: t.path, task, passed, states: passed ? statesOf(t, options.analyzers, options.config) : [] };
  });
  const loo = leaveOneOutPtas(candidates, MIN_REFERENCES, options.failingReference);
  // One reference kind per task: if any run of a task (with steps) lacks a leave-one-out PTA (a passing run
  // with fewer than 2 other passing ones), none of the task's runs uses one, so runs of one task are never
  // compared across reference kinds (a failing run against the PTA, a passing one reference-free).
  const partial = new Set(named.filter(({ t }, k) => t.steps.length > 0 && loo[k] === undefined).map(({ task }) => task));
  const ptas = new Map(named.flatMap(({ i, task }, k) => (partial.has(task) || loo[k] === undefined ? [] : [[i, loo[k]] as const])));
  const scoreOne = (t: LoadedTrajectory, i: number): ScoredTrajectory => {
    if (t.steps.length === 0) return { unscored: 'no_steps' };
    const inFolder = ptas.get(i);
    const external = inFolder || t.task === null ? undefined : options.external?.get(t.task);
    const pta = inFolder ?? (external && external.pta.references.length >= MIN_REFERENCES ? external.pta : undefined);
    if (pta === undefined && options.prior === undefined) return { unscored: t.task === null ? 'no_task' : 'no_reference' };
    const reference: Reference = pta !== undefined ? { kind: 'pta', pta } : { kind: 'prior', prior: options.prior! };
    const forecast = options.forecast ? selectModel(options.forecast, t.agent, t.model ?? undefined) : undefined;
    // Against the prior no figure reads a state's scope: the files viewed are not parsed to find it (core/scope-free.ts).
    const scorer = createScorer({
      reference,
      analyzers: analyzersFor(reference, options.analyzers),
      ...(forecast ? { forecast } : {}),
      ...(options.config ? { config: options.config } : {}),
    });
    const end = options.endModel === true && options.forecast?.end !== undefined ? createEndScorer(options.forecast.end, t.agent, t.model ?? undefined) : undefined;
    for (const step of t.steps) {
      const pushed = scorer.push(step);
      end?.add(step, pushed.state, pushed.label);
    }
    const outcome = outcomes[i];
    const passed = outcome === 'pass' ? true : outcome === 'fail' ? false : undefined;
    const report = withEndPPass(scorer.report(passed), end);
    const states = scorer.states();
    const wasted = distinctWaste(report.waste, states);
    if (pta === undefined) return { report, wasted, against: { kind: 'reference-free', priorReferences: options.prior!.references } };
    const references = pta.references.length;
    const against: ScoredAgainst = external ? { kind: 'external', source: external.source, version: pta.version, references, holdsRun: holdsPath(pta, states) } : { kind: 'in-folder', references };
    return { report, wasted, references, against };
  };
  return trajectories.map((t, i) => {
    const scored = scoreOne(t, i);
    options.onProgress?.(i + 1, trajectories.length);
    return scored;
  });
}

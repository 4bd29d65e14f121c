/**
 * Per-task scoring of a corpus against PTAs built from its passing
 * trajectories. A passing trajectory is scored leave-one-out, against a PTA of
 * the OTHER passing ones (needs at least two others); every other trajectory
 * against the PTA of all passing ones (needs at least two). A trajectory
 * without enough of these is scored against its task's external PTA when one
 * is given (with at least two references, as the server requires). Trajectories with
 * no steps, those without any reference, and those that name no task, are left unscored.
 */
import { UNIFORM_PRIOR } from '../core/prior.js';
import { leaveOneOutPtas } from '../core/calibrate/references.js';
import { createScorer } from '../core/scorer.js';
import type { Analyzers } from '../core/ports.js';
import type { TrajectoryReport } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { holdsPath } from '../core/pta/index.js';
import type { ExternalReference, LoadedTrajectory, Outcome, ScoredAgainst, UnscoredReason } from './types.js';

/** Minimum number of reference trajectories a PTA needs. */
export const MIN_REFERENCES = 2;

export interface ScoredTrajectory {
  report?: TrajectoryReport;
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
}

function statesOf(t: LoadedTrajectory, analyzers: Analyzers): readonly State[] {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
  for (const step of t.steps) scorer.push(step);
  return scorer.states();
}

/** Scores every trajectory that has references; the result is aligned with `trajectories`. */
export function scoreCorpus(trajectories: readonly LoadedTrajectory[], outcomes: readonly Outcome[], options: ScoreCorpusOptions): ScoredTrajectory[] {
  const named = trajectories.flatMap((t, i) => (t.task === null ? [] : [{ t, i, task: t.task }]));
  const candidates = named.map(({ t, i, task }) => {
    const passed = outcomes[i] === 'pass';
    return { task, passed, states: passed ? statesOf(t, options.analyzers) : [] };
  });
  const ptas = new Map(leaveOneOutPtas(candidates, MIN_REFERENCES).map((p, k) => [named[k]!.i, p]));
  const scoreOne = (t: LoadedTrajectory, i: number): ScoredTrajectory => {
    if (t.steps.length === 0) return { unscored: 'no_steps' };
    if (t.task === null) return { unscored: 'no_task' };
    const inFolder = ptas.get(i);
    const external = inFolder ? undefined : options.external?.get(t.task);
    const pta = inFolder ?? (external && external.pta.references.length >= MIN_REFERENCES ? external.pta : undefined);
    if (pta === undefined) return { unscored: 'no_reference' };
    const scorer = createScorer({ reference: { kind: 'pta', pta }, analyzers: options.analyzers });
    for (const step of t.steps) scorer.push(step);
    const outcome = outcomes[i];
    const passed = outcome === 'pass' ? true : outcome === 'fail' ? false : undefined;
    const references = pta.references.length;
    const against: ScoredAgainst = external
      ? { kind: 'external', source: external.source, version: pta.version, references, holdsRun: holdsPath(pta, scorer.states()) }
      : { kind: 'in-folder', references };
    return { report: scorer.report(passed), references, against };
  };
  return trajectories.map((t, i) => {
    const scored = scoreOne(t, i);
    options.onProgress?.(i + 1, trajectories.length);
    return scored;
  });
}

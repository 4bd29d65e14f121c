/**
 * Per-task scoring of a corpus against PTAs built from its passing
 * trajectories. A passing trajectory is scored leave-one-out, against a PTA of
 * the OTHER passing ones (needs at least two others); every other trajectory
 * against the PTA of all passing ones (needs at least two). Trajectories with
 * no steps, and those without enough references, are left unscored.
 */
import { UNIFORM_PRIOR } from '../core/prior.js';
import { buildPta } from '../core/pta/build.js';
import { createScorer } from '../core/scorer.js';
import type { Analyzers } from '../core/ports.js';
import type { TrajectoryReport } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import type { LoadedTrajectory, Outcome, UnscoredReason } from './types.js';

/** Minimum number of reference trajectories a PTA needs. */
export const MIN_REFERENCES = 2;

export interface ScoredTrajectory {
  report?: TrajectoryReport;
  references?: number;
  unscored?: UnscoredReason;
}

export interface ScoreCorpusOptions {
  analyzers: Analyzers;
  /** Called after each trajectory is handled. */
  onProgress?: (done: number, total: number) => void;
}

function statesOf(t: LoadedTrajectory, analyzers: Analyzers): readonly State[] {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
  for (const step of t.steps) scorer.push(step);
  return scorer.states();
}

/** Scores every trajectory that has references; the result is aligned with `trajectories`. */
export function scoreCorpus(
  trajectories: readonly LoadedTrajectory[],
  outcomes: readonly Outcome[],
  options: ScoreCorpusOptions,
): ScoredTrajectory[] {
  const out: ScoredTrajectory[] = trajectories.map(() => ({}));
  const byTask = new Map<string, number[]>();
  trajectories.forEach((t, i) => byTask.set(t.task, [...(byTask.get(t.task) ?? []), i]));
  let done = 0;
  const tick = () => options.onProgress?.(++done, trajectories.length);
  for (const [task, idx] of byTask) {
    const refs = idx.filter((i) => outcomes[i] === 'pass' && trajectories[i]!.steps.length > 0);
    const states = new Map(refs.map((i) => [i, statesOf(trajectories[i]!, options.analyzers)]));
    const fullPta = refs.length >= MIN_REFERENCES ? buildPta(task, refs.map((i) => states.get(i)!)) : undefined;
    for (const i of idx) {
      const t = trajectories[i]!;
      const outcome = outcomes[i]!;
      if (t.steps.length === 0) {
        out[i] = { unscored: 'no_steps' };
        tick();
        continue;
      }
      const others = outcome === 'pass' ? refs.filter((j) => j !== i) : refs;
      if (others.length < MIN_REFERENCES) {
        out[i] = { unscored: 'no_reference' };
        tick();
        continue;
      }
      const pta = outcome === 'pass' ? buildPta(task, others.map((j) => states.get(j)!)) : fullPta!;
      const scorer = createScorer({ reference: { kind: 'pta', pta }, analyzers: options.analyzers });
      for (const step of t.steps) scorer.push(step);
      const passed = outcome === 'pass' ? true : outcome === 'fail' ? false : undefined;
      out[i] = { report: scorer.report(passed), references: others.length };
      tick();
    }
  }
  return out;
}

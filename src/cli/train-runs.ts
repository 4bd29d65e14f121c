/**
 * The runs `steplens train` learns from: every trajectory with a pass/fail
 * outcome (outcomes table, evaluation files beside the logs, or a manifest),
 * scored reference-free with the same incremental scorer the server runs, so
 * the states the forecaster is trained on are the states it sees online.
 */
import type { PriorSample } from '../core/forecast/prior-weights.js';
import { forecastRun, sourceOf, type ForecastRun } from '../core/forecast/run.js';
import type { ScoringConfig } from '../core/config.js';
import type { Label } from '../core/types.js';
import type { Analyzers } from '../core/ports.js';
import { createScorer } from '../core/scorer.js';
import type { Reference } from '../core/scorer-api.js';
import { createPriorSignalTracker } from '../core/signals/prior-signals.js';
import { modelLabel } from '../report/identity.js';
import type { NamedTrajectory } from '../report/run-naming.js';
import type { LoadedTrajectory } from '../report/types.js';
import { withoutScope } from '../core/scope-free.js';

/** A run with a known outcome and the trajectory it was read from. */
export interface KnownTrajectory {
  trajectory: LoadedTrajectory;
  run: ForecastRun;
}

export interface TrainInput {
  runs: ForecastRun[];
  /** The same runs with their trajectories (for scoring against references). */
  known: KnownTrajectory[];
  prior: PriorSample[];
  /** Trajectories left out: no pass/fail outcome, or no step. */
  skipped: { noOutcome: number; noSteps: number; noTask: number };
}

/** The analyzers `train` scores with: the given shell analyzer, no scope resolution (see scope-free.ts). */
export const trainAnalyzers = withoutScope;

/**
 * Scores the known runs once, reference-free. The runs come named by
 * `nameRuns` (report/run-naming.ts), as `report` and `calibrate` name them:
 * one run is one source (agent + model) in every command, and a model
 * nobody names is its own source per run folder.
 */
export function trainInput(trajectories: readonly NamedTrajectory[], reference: Reference, analyzers: Analyzers, config: ScoringConfig): TrainInput {
  const runs: ForecastRun[] = [];
  const known: KnownTrajectory[] = [];
  const prior: PriorSample[] = [];
  let noOutcome = 0;
  let noSteps = 0;
  let noTask = 0;
  for (const t of trajectories) {
    const outcome = t.outcome.outcome;
    if (outcome !== 'pass' && outcome !== 'fail') {
      noOutcome += 1;
      continue;
    }
    if (t.steps.length === 0) {
      noSteps += 1;
      continue;
    }
    // A run that names no task cannot be kept out of its own task's fold: it is not trained on.
    if (t.task === null) {
      noTask += 1;
      continue;
    }
    const scorer = createScorer({ reference, analyzers, config });
    const extra = createPriorSignalTracker(config.brevitySteps);
    const labels: Label[] = [];
    for (const s of t.steps) {
      const r = scorer.push(s);
      extra.add(r.state, r.label.sourceEdit);
      labels.push(r.label);
    }
    const identity = { id: t.id, task: t.task, agent: t.agent, model: modelLabel(t), passed: outcome === 'pass' };
    const run = forecastRun(identity, t.steps, scorer.states(), labels);
    runs.push(run);
    known.push({ trajectory: t, run });
    const final = scorer.score();
    const sig = extra.value();
    prior.push({
      source: sourceOf(run),
      task: run.task,
      passed: run.passed,
      coh: final.coh,
      temp: final.temp,
      focus: sig.focus,
      verify: sig.verify,
      edit: sig.edit,
      settle: sig.settle,
      steps: run.length,
    });
  }
  return { runs, known, prior, skipped: { noOutcome, noSteps, noTask } };
}

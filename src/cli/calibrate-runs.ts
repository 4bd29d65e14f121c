/**
 * The runs `steplens calibrate` replays: every trajectory with a pass/fail
 * outcome, scored once reference-free (the prior) and once against its
 * leave-one-out PTA where its task has one (the rule `steplens report` uses),
 * with the same incremental scorer the server runs; each named by its source
 * (agent + model).
 */
import type { CalibrationRun, TradeoffRun, WeightSample } from '../core/calibrate/index.js';
import { leaveOneOutPtas } from '../core/calibrate/references.js';
import type { ScoringConfig } from '../core/config.js';
import type { Analyzers } from '../core/ports.js';
import { createScorer } from '../core/scorer.js';
import type { Reference } from '../core/scorer-api.js';
import type { ScoreVector, State } from '../core/types.js';
import { MIN_REFERENCES } from '../report/score-corpus.js';
import type { LoadedTrajectory } from '../report/types.js';
import type { ScoredRun } from './scored-runs.js';
import { analyzersFor } from '../core/scope-free.js';

export interface KnownRun {
  trajectory: LoadedTrajectory;
  /** The run's task (runs that name none have no known outcome). */
  task: string;
  passed: boolean;
  /** Agent and model (the trajectory's own unless a `--sources` row overrides them). */
  agent: string;
  model: string;
}

export interface CalibrationInput {
  /** For the per-kind tables (reference-free). */
  perKind: CalibrationRun[];
  tradeoff: TradeoffRun[];
  weights: WeightSample[];
}

function scoreRun(t: LoadedTrajectory, reference: Reference, analyzers: Analyzers, config: ScoringConfig): { states: readonly State[]; totals: number[]; final: ScoreVector } {
  const scorer = createScorer({ reference, analyzers, config });
  const totals = t.steps.map((s) => scorer.push(s).score.total);
  return { states: scorer.states(), totals, final: scorer.score() };
}

const signals = (v: ScoreVector) => ({ struct: v.struct, cov: v.cov, coh: v.coh, temp: v.temp });

/** The source name of an agent and model. */
export const sourceName = (agent: string, model: string): string => `${agent} + ${model}`;

/** Scores every known run in both modes. */
export function scoreKnownRuns(known: readonly KnownRun[], prior: Reference, analyzers: Analyzers, config: ScoringConfig): ScoredRun[] {
  // A passing run's reference-free states build the other runs' PTAs, which read scopes; no other figure does (core/scope-free.ts).
  const free = known.map((k) => scoreRun(k.trajectory, prior, analyzersFor(prior, analyzers, k.passed), config));
  const ptas = leaveOneOutPtas(
    known.map((k, i) => ({ key: k.trajectory.path, task: k.task, passed: k.passed, states: free[i]!.states })),
    MIN_REFERENCES,
  );
  return known.map((k, i) => {
    const f = free[i]!;
    const pta = ptas[i];
    const ref = pta !== undefined ? scoreRun(k.trajectory, { kind: 'pta', pta }, analyzers, config) : undefined;
    return {
      run: {
        id: k.trajectory.id,
        task: k.task,
        passed: k.passed,
        states: f.states,
        totals: { referenceFree: f.totals, reference: ref?.totals ?? f.totals },
        hasReference: ref !== undefined,
        agent: k.agent,
        model: k.model,
        source: sourceName(k.agent, k.model),
      },
      weights: {
        task: k.task,
        source: sourceName(k.agent, k.model),
        passed: k.passed,
        reference: ref !== undefined ? signals(ref.final) : null,
        referenceFree: { ...signals(f.final), struct: null, cov: null },
      },
    };
  });
}

/** What each calibration reads of the scored runs. */
export function calibrationInput(scored: readonly ScoredRun[]): CalibrationInput {
  return {
    perKind: scored.map((s) => ({ states: s.run.states, totals: s.run.totals.referenceFree, passed: s.run.passed, ...(s.run.source !== undefined ? { source: s.run.source } : {}) })),
    tradeoff: scored.map((s) => s.run),
    weights: scored.map((s) => s.weights),
  };
}

/**
 * The PTA-mode samples `steplens train` chooses composite weights on: every
 * known run whose task has enough other passing runs, scored against its
 * leave-one-out reference (the PTA of the other passing runs of its task;
 * a failing run against one of those PTAs, a reference of the same size), the rule `report` and
 * `calibrate` use. These runs are scored with the real scope resolver (PTA
 * matching reads scopes), unlike the reference-free training samples.
 */
import { leaveOneOutPtas, type FailingReference } from '../core/calibrate/references.js';
import type { ScoringConfig } from '../core/config.js';
import type { PtaSample } from '../core/forecast/pta-weights.js';
import type { Analyzers } from '../core/ports.js';
import { createScorer } from '../core/scorer.js';
import type { Reference } from '../core/scorer-api.js';
import { MIN_REFERENCES } from '../report/score-corpus.js';
import type { KnownTrajectory } from './train-runs.js';

/**
 * Scores the runs of tasks with references against their leave-one-out PTAs (at least `minReferences` other passing
 * runs); `failing: 'all'` gives failing runs the older rule's PTA of every passing run (bench/pta-rules.ts compares them).
 */
export function ptaSamples(
  known: readonly KnownTrajectory[],
  prior: Reference,
  analyzers: Analyzers,
  config: ScoringConfig,
  minReferences = MIN_REFERENCES,
  failing: FailingReference = 'matched',
): PtaSample[] {
  const passingByTask = new Map<string, number>();
  for (const k of known) if (k.run.passed) passingByTask.set(k.run.task, (passingByTask.get(k.run.task) ?? 0) + 1);
  const picked = known.filter((k) => (passingByTask.get(k.run.task) ?? 0) >= minReferences);
  // Only passing runs become references: only their reference-free states are needed.
  const states = picked.map((k) => {
    if (!k.run.passed) return [];
    const scorer = createScorer({ reference: prior, analyzers, config });
    for (const s of k.trajectory.steps) scorer.push(s);
    return scorer.states();
  });
  const ptas = leaveOneOutPtas(
    picked.map((k, i) => ({ key: k.trajectory.path, task: k.run.task, passed: k.run.passed, states: states[i]! })),
    minReferences,
    failing,
  );
  const out: PtaSample[] = [];
  picked.forEach((k, i) => {
    const pta = ptas[i];
    if (pta === undefined) return;
    const scorer = createScorer({ reference: { kind: 'pta', pta }, analyzers, config });
    for (const s of k.trajectory.steps) scorer.push(s);
    const v = scorer.score();
    out.push({
      id: k.run.id,
      source: `${k.run.agent} + ${k.run.model}`,
      task: k.run.task,
      passed: k.run.passed,
      struct: v.struct ?? 0,
      cov: v.cov ?? 0,
      coh: v.coh,
      temp: v.temp,
      steps: k.trajectory.steps.length,
    });
  });
  return out;
}

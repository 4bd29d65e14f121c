/**
 * Size-matched leave-one-out references (a diagnostic of the reference rule, not what `train` or `report` use).
 * Today's rule (train-references.ts, core/calibrate/references.ts) scores a passing run against the PTA of the
 * task's n − 1 OTHER passing runs and a failing run against the PTA of all n: a failing run always meets a larger
 * reference, and the signals move with the reference's size. Here a failing run is scored against each of the n
 * PTAs of n − 1 passing runs (the ones its task's passing runs meet) and each signal is averaged, so every run is
 * compared with references of the same size; a task needs minReferences + 1 passing runs.
 */
import type { KnownTrajectory } from '../src/cli/train-runs.js';
import type { ScoringConfig } from '../src/core/config.js';
import type { PtaSample } from '../src/core/forecast/pta-weights.js';
import type { Analyzers } from '../src/core/ports.js';
import { buildPta } from '../src/core/pta/build.js';
import { createScorer } from '../src/core/scorer.js';
import type { Pta, Reference } from '../src/core/scorer-api.js';

/** The PTA-mode samples under size-matched references (see the file comment). */
export function matchedPtaSamples(known: readonly KnownTrajectory[], prior: Reference, analyzers: Analyzers, config: ScoringConfig, minReferences: number): PtaSample[] {
  const byTask = new Map<string, KnownTrajectory[]>();
  for (const k of known) byTask.set(k.run.task, [...(byTask.get(k.run.task) ?? []), k]);
  const signals = (k: KnownTrajectory, pta: Pta) => {
    const scorer = createScorer({ reference: { kind: 'pta', pta }, analyzers, config });
    for (const s of k.trajectory.steps) scorer.push(s);
    const v = scorer.score();
    return [v.struct ?? 0, v.cov ?? 0, v.coh, v.temp];
  };
  const out: PtaSample[] = [];
  for (const [task, runs] of byTask) {
    const passing = runs.filter((k) => k.run.passed);
    if (passing.length - 1 < minReferences) continue;
    const states = passing.map((k) => {
      const scorer = createScorer({ reference: prior, analyzers, config });
      for (const s of k.trajectory.steps) scorer.push(s);
      return scorer.states();
    });
    const ptas = passing.map((_, i) =>
      buildPta(
        task,
        states.filter((_, j) => j !== i),
      ),
    );
    for (const k of runs) {
      const each = k.run.passed ? [signals(k, ptas[passing.indexOf(k)]!)] : ptas.map((p) => signals(k, p));
      const [struct, cov, coh, temp] = [0, 1, 2, 3].map((j) => each.reduce((s, v) => s + v[j]!, 0) / each.length) as [number, number, number, number];
      out.push({ id: k.run.id, source: `${k.run.agent} + ${k.run.model}`, task, passed: k.run.passed, struct, cov, coh, temp, steps: k.trajectory.steps.length });
    }
  }
  return out;
}

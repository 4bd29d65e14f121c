/** Per-trajectory and per-task rows of the report. */
import { attemptFacts } from '../core/reliability/attempt-facts.js';
import { sourceLabel, type NamedTrajectory } from './run-naming.js';
import type { ScoredTrajectory } from './score-corpus.js';
import type { CorpusReport, TaskRow, TrajectoryRow } from './types.js';

/** One row per trajectory: identity, outcome, score, tier, waste and the attempt facts. */
export function trajectoryRows(trajectories: readonly NamedTrajectory[], scored: readonly ScoredTrajectory[]): TrajectoryRow[] {
  return trajectories.map((t, i) => {
    const o = t.outcome;
    const s = scored[i]!;
    const r = s.report;
    const waste = r?.waste ?? [];
    return {
      id: t.id,
      task: t.task,
      run: t.run,
      model: t.model,
      agent: t.agent,
      source: sourceLabel(t),
      format: t.format,
      steps: t.steps.length,
      outcome: o.outcome,
      outcomeSource: o.source,
      ...(t.meta.exitStatus !== undefined ? { exitStatus: t.meta.exitStatus } : {}),
      ...(s.references !== undefined ? { references: s.references } : {}),
      ...(s.against ? { reference: s.against } : {}),
      ...(s.unscored ? { unscored: s.unscored } : {}),
      ...(r ? { score: r.score, tier: r.tier, stages: r.stages } : {}),
      ...(r?.pPass !== undefined ? { pPass: r.pPass } : {}),
      ...(r?.lucky ? { lucky: r.lucky } : {}),
      // Distinct steps: waste items may overlap (a retry inside a cycle), and a step is wasted once.
      wastedSteps: s.wasted?.steps ?? 0,
      wastedTokens: s.wasted?.tokens ?? 0,
      waste,
      signals: [...new Set((r?.signals ?? []).map((x) => x.kind))],
      ...attemptFacts(t.steps, t.meta.patch),
    };
  });
}

/** One row per task, in first-seen order (trajectories that name no task share one row, task null). */
export function taskRows(rows: readonly TrajectoryRow[]): TaskRow[] {
  const byTask = new Map<string | null, TrajectoryRow[]>();
  for (const r of rows) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  return [...byTask].map(([task, rs]) => {
    const external = rs.flatMap((r) => (r.reference?.kind === 'external' ? [r.reference] : []));
    const first = external[0];
    return {
      task,
      trajectories: rs.length,
      passing: rs.filter((r) => r.outcome === 'pass').length,
      failing: rs.filter((r) => r.outcome === 'fail').length,
      other: rs.filter((r) => r.outcome !== 'pass' && r.outcome !== 'fail').length,
      references: rs.filter((r) => r.outcome === 'pass' && r.steps > 0).length,
      scored: rs.filter((r) => r.score).length,
      unscored: rs.filter((r) => !r.score).length,
      ...(first ? { external: { source: first.source, version: first.version, references: first.references, scored: external.length } } : {}),
    };
  });
}

/**
 * The caution owed when trajectories were scored against external PTAs: one that helped build such a PTA is
 * scored against a reference that contains it. Only failing ones are safe (PTAs are built from passing runs).
 */
export function externalReferenceWarnings(rows: readonly TrajectoryRow[]): string[] {
  const external = rows.filter((r) => r.reference?.kind === 'external');
  const exposed = external.filter((r) => r.outcome !== 'fail');
  if (exposed.length === 0) return [];
  const held = external.filter((r) => r.reference?.kind === 'external' && r.reference.holdsRun).length;
  const runs = (n: number) => `${n} trajector${n === 1 ? 'y was' : 'ies were'}`;
  return [
    `${runs(external.length)} scored against an external PTA, ${exposed.length} of them not failing. A run that helped build ` +
      `an external PTA is scored against a reference that contains it, so its score is optimistic: ${held} of the ${external.length} ` +
      `follow one of their PTA's reference paths step for step (column holds_run), as such a run does. Compare their scores ` +
      `with in-folder ones with care.`,
  ];
}

/** Corpus-wide counts. */
export function corpusCounts(rows: readonly TrajectoryRow[]): CorpusReport['counts'] {
  const n = (f: (r: TrajectoryRow) => boolean) => rows.filter(f).length;
  return {
    trajectories: rows.length,
    pass: n((r) => r.outcome === 'pass'),
    fail: n((r) => r.outcome === 'fail'),
    censored: n((r) => r.outcome === 'censored'),
    unknown: n((r) => r.outcome === 'unknown'),
    scored: n((r) => r.score !== undefined),
    scoredExternal: n((r) => r.reference?.kind === 'external'),
    scoredReferenceFree: n((r) => r.reference?.kind === 'reference-free'),
    unscoredNoReference: n((r) => r.unscored === 'no_reference'),
    unscoredNoSteps: n((r) => r.unscored === 'no_steps'),
    unscoredNoTask: n((r) => r.unscored === 'no_task'),
  };
}

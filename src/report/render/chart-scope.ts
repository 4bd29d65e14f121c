/**
 * What a chart's figures are over, said on the chart itself: a chart of every run pooled over several sources
 * is labelled pooled (a source's own distribution can differ from the pooled one), and one that puts sources side by
 * side says when they ran different tasks (their places then partly reflect how hard each one's tasks were).
 */
import { taskOverlap } from '../rank-shared.js';
import type { ModelRow, TrajectoryRow } from '../types.js';

/** `pooled over 3 sources` (null for one source or none: nothing is pooled). */
export function pooledLabel(rows: readonly TrajectoryRow[]): string | null {
  const sources = new Set(rows.map((r) => r.source)).size;
  return sources > 1 ? `pooled over ${sources} sources` : null;
}

/** The caution of a chart of `models` side by side when they ran different tasks (runs with an outcome), else null. */
export function differentTasksCaution(models: readonly ModelRow[], rows: readonly TrajectoryRow[]): string | null {
  if (models.length < 2) return null;
  const sets = models.map((m) => new Set(rows.filter((r) => r.source === m.source && (r.outcome === 'pass' || r.outcome === 'fail')).map((r) => r.task ?? `\u0000${r.id}`)));
  const { union, shared, same } = taskOverlap(sets);
  if (same) return null;
  return (
    `Caution: these ${models.length} sources ran different tasks (${shared.size} of ${union.size} run by all of them): ` +
    `a point's place partly reflects how hard its tasks were; side by side is not a ranking`
  );
}

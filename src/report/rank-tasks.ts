/**
 * The models table ranks sources by pass rate and mean quality. A pass rate is a rate on a set of tasks:
 * two sources that ran different tasks are compared partly on how hard their tasks were, not only on how
 * well they did. When the ranked sources did not all run the same tasks, the report says so, with each
 * source's task count and how many tasks every ranked source ran.
 */
import type { ModelRow, TrajectoryRow } from './types.js';

/** Each source's tasks among the runs its ranks stand on: evaluated (pass or fail) or scored. */
function tasksBySource(rows: readonly TrajectoryRow[]): Map<string, Set<string>> {
  const by = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.task === null || (r.outcome !== 'pass' && r.outcome !== 'fail' && !r.score)) continue;
    const s = by.get(r.source) ?? new Set<string>();
    s.add(r.task);
    by.set(r.source, s);
  }
  return by;
}

/** A warning when the sources given a pass-rate or quality rank ran different tasks (none when at most one is ranked). */
export function rankTaskWarnings(models: readonly ModelRow[], rows: readonly TrajectoryRow[]): string[] {
  const ranked = models.filter((m) => m.rankPass !== null || m.rankQuality !== null);
  if (ranked.length < 2) return [];
  const tasks = tasksBySource(rows);
  const sets = ranked.map((m) => tasks.get(m.source) ?? new Set<string>());
  const union = new Set(sets.flatMap((s) => [...s]));
  const shared = [...union].filter((t) => sets.every((s) => s.has(t))).length;
  if (sets.every((s) => s.size === union.size)) return [];
  const each = ranked.map((m, i) => `${m.source} ${sets[i]!.size}`).join(', ');
  return [
    `the ${ranked.length} ranked sources ran different tasks (${each}; ${shared} of ${union.size} tasks run by all of them): their pass-rate and quality ranks partly measure how hard each source's tasks were, not only the source`,
  ];
}

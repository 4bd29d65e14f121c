/**
 * Ranks of sources that ran different tasks. A pass rate or mean quality is a figure on a set of tasks: two sources
 * that ran different tasks are compared partly on how hard their tasks were. So when the sources that qualify for a
 * rank (rankWithTies: enough runs, an interval) did not all run the same tasks, they are ranked on the tasks all of
 * them ran, each with its figure on those tasks, and only when at least MIN_SHARED_TASKS such tasks exist; else none
 * is ranked. Sources that all ran the same tasks are ranked on their own figures, as before.
 */
import type { Interval } from '../core/stats/interval.js';
import { rankWithTies, type RankResult } from '../core/stats/ranking.js';
import type { SharedTaskFigure, TrajectoryRow } from './types.js';

/** Fewest tasks all compared sources ran for a rank among sources that ran different tasks. */
export const MIN_SHARED_TASKS = 5;

/** One ranking basis: the runs of a source it stands on (evaluated or scored) and its figure on a set of runs. */
export interface RankBasis {
  runs: (rs: readonly TrajectoryRow[]) => TrajectoryRow[];
  figure: (rs: readonly TrajectoryRow[]) => { estimate: number | null; interval: Interval | null };
}

/** The task of a run as a key; a run naming no task is a task of its own, shared with no other source. */
const taskKey = (r: TrajectoryRow, i: number, j: number): string => r.task ?? `\u0000${i}:${j}`;

/** How the task sets of some sources overlap: `same` when every source ran every task any of them ran. */
export function taskOverlap(sets: ReadonlyArray<ReadonlySet<string>>): { union: Set<string>; shared: Set<string>; same: boolean } {
  const union = new Set(sets.flatMap((s) => [...s]));
  const same = sets.every((s) => s.size === union.size);
  const shared = same ? union : new Set([...union].filter((t) => sets.every((s) => s.has(t))));
  return { union, shared, same };
}

/**
 * Ranks the sources (`groups`: each one's runs; `own`: each one's figure on all its runs, as its row shows it) on
 * `basis`; `on` holds the shared-task figure where one was used.
 */
export function rankSources(
  groups: ReadonlyArray<readonly TrajectoryRow[]>,
  own: ReadonlyArray<{ estimate: number | null; interval: Interval | null; n: number }>,
  basis: RankBasis,
  minRuns: number,
): { results: RankResult[]; on: Array<SharedTaskFigure | undefined> } {
  const runs = groups.map((g) => basis.runs(g));
  const results = rankWithTies(own, minRuns);
  const on: Array<SharedTaskFigure | undefined> = groups.map(() => undefined);
  const compared = results.flatMap((r, i) => (r.rank !== null ? [i] : []));
  if (compared.length < 2) return { results, on };
  const sets = compared.map((i) => new Set(runs[i]!.map((r, j) => taskKey(r, i, j))));
  const { union, shared, same } = taskOverlap(sets);
  if (same) return { results, on };
  const restricted = compared.map((i) => runs[i]!.filter((r) => r.task !== null && shared.has(r.task)));
  compared.forEach((i, k) => {
    const rs = restricted[k]!;
    on[i] = { sharedTasks: shared.size, ownTasks: sets[k]!.size, allTasks: union.size, sources: compared.length, n: rs.length, ...basis.figure(rs) };
  });
  const second: RankResult[] =
    shared.size >= MIN_SHARED_TASKS
      ? rankWithTies(
          compared.map((i) => ({ estimate: on[i]!.estimate, interval: on[i]!.interval, n: on[i]!.n })),
          minRuns,
        ).map((r) => (r.unranked === undefined ? r : { ...r, unranked: `on the ${shared.size} tasks all compared sources ran: ${r.unranked}` }))
      : compared.map(() => ({
          rank: null,
          tied: false,
          unranked: `ran different tasks: ${shared.size} of ${union.size} tasks run by all ${compared.length} sources with enough runs (a rank needs ${MIN_SHARED_TASKS})`,
        }));
  compared.forEach((i, k) => (results[i] = second[k]!));
  return { results, on };
}

/**
 * The models table ranks sources by pass rate and mean quality. A pass rate is a rate on a set of tasks: two sources
 * that ran different tasks are compared partly on how hard their tasks were. Such sources are ranked on the tasks all
 * of them ran, or not at all when too few (rank-shared.ts); these notes say which, with each source's task count, the
 * shared tasks, and the figures the ranks stand on.
 */
import { MIN_SHARED_TASKS } from './rank-shared.js';
import type { ModelRow, SharedTaskFigure } from './types.js';

const BASES = [
  { name: 'pass rate', runs: 'evaluated', on: (m: ModelRow) => m.rankPassOn, rank: (m: ModelRow) => m.rankPass, show: (x: number) => `${(100 * x).toFixed(1)} %`, k: 100 },
  { name: 'mean quality', runs: 'scored', on: (m: ModelRow) => m.rankQualityOn, rank: (m: ModelRow) => m.rankQuality, show: (x: number) => x.toFixed(1), k: 1 },
] as const;

const figure = (f: SharedTaskFigure, show: (x: number) => string, k: number): string =>
  f.estimate === null ? '-' : `${show(f.estimate)} ${f.interval ? `[${(k * f.interval.lo).toFixed(1)}, ${(k * f.interval.hi).toFixed(1)}]` : '[-]'}`;

/** One note per basis whose compared sources ran different tasks: ranked on the shared tasks, or not ranked. */
export function rankTaskWarnings(models: readonly ModelRow[]): string[] {
  return BASES.flatMap(({ name, runs, on, rank, show, k }) => {
    const compared = models.flatMap((m) => {
      const f = on(m);
      return f === undefined ? [] : [{ m, f }];
    });
    if (compared.length === 0) return [];
    const { sharedTasks, allTasks } = compared[0]!.f;
    const each = compared.map(({ m, f }) => `${m.source} ${f.ownTasks}`).join(', ');
    const tasks = `the ${compared.length} sources with enough ${runs} runs ran different tasks (${each}; ${sharedTasks} of ${allTasks} tasks run by all of them)`;
    if (sharedTasks < MIN_SHARED_TASKS)
      return [
        `No source is ranked by ${name}: ${tasks}, and a rank needs >= ${MIN_SHARED_TASKS} tasks all of them ran: a rank over different tasks partly measures how hard each source's tasks were, not only the source.`,
      ];
    const figures = compared.map(({ m, f }) => `${m.source} ${figure(f, show, k)} over ${f.n} runs`).join('; ');
    if (compared.every(({ m }) => rank(m) === null)) return [`No source is ranked by ${name}: ${tasks}, and on those ${sharedTasks} tasks fewer than 2 have enough runs and an interval: ${figures}.`];
    return [`Ranks by ${name} compare sources on the same tasks: ${tasks}, so they are ranked on those ${sharedTasks} tasks: ${figures}. The ${name} columns are over each source's own tasks.`];
  });
}

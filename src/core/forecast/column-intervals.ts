/**
 * The 95 % intervals of a leave-one-source-out table's columns (the reference-free and PTA-mode composites'): each
 * source's AUROC and the mean over sources, drawn as every other AUROC `train` prints is, by `separation` resampling
 * tasks (a task's runs are not independent).
 */
import type { BootstrapOptions } from '../stats/bootstrap.js';
import type { Interval } from '../stats/interval.js';
import { separation, type ScoredOutcome } from '../stats/separation.js';

export interface ColumnIntervals<C extends string> {
  bySource: Record<string, Record<C, Interval | null>>;
  mean: Record<C, Interval | null>;
}

/** A run as the tables score it: its task (none: a task of its own, separation's rule) and outcome. */
interface Run {
  task?: string | null | undefined;
  passed: boolean;
}

/**
 * Every column's intervals over `groups` (source → its runs), with a row for each of `rows` (the report's sources);
 * `source(name)` is the report's row of that source, handed to each column's score. `skip` columns stay null (the
 * held-out column where no source could be held out).
 */
export function columnIntervals<C extends string, S extends Run, R>(
  columns: readonly C[],
  rows: readonly string[],
  groups: ReadonlyMap<string, readonly S[]>,
  source: (name: string) => R,
  scoreOf: Record<C, (s: S, src: R) => number>,
  skip: ReadonlySet<C>,
  options: BootstrapOptions,
): ColumnIntervals<C> {
  const none = (): Record<C, Interval | null> => Object.fromEntries(columns.map((c) => [c, null])) as Record<C, Interval | null>;
  const bySource = Object.create(null) as Record<string, Record<C, Interval | null>>;
  for (const name of rows) bySource[name] = none();
  const mean = none();
  for (const c of columns) {
    if (skip.has(c)) continue;
    const runs: ScoredOutcome[] = [...groups].flatMap(([name, xs]) => xs.map((x) => ({ source: name, task: x.task ?? null, pass: x.passed, score: scoreOf[c](x, source(name)) })));
    // minPerClass 1: the report's mean is over every source with both outcomes.
    const sep = separation(runs, { ...options, unit: 'task', minPerClass: 1 });
    for (const s of sep.withinSource.sources) bySource[s.source]![c] = s.interval;
    mean[c] = sep.withinSource.interval;
  }
  return { bySource, mean };
}

/**
 * Why the models table gives no rank at all: a rank needs at least two sources with enough runs
 * (`--min-runs`) and an interval, and "rank 1" of the only such source read as a win over sources it was
 * never compared with. One line per basis (pass rate, mean quality) where exactly one source qualified.
 */
import { MIN_RANKED } from '../core/stats/ranking.js';
import type { ModelRow } from './types.js';

/** The notes on the pass-rate and quality ranks left out because fewer than MIN_RANKED sources qualified. */
export function rankNotes(models: readonly ModelRow[], minRuns: number): string[] {
  const bases = [
    { name: 'pass rate', runs: 'evaluated', ok: (m: ModelRow) => m.passRate !== null && m.passRateInterval !== null && m.evaluated >= minRuns },
    { name: 'mean quality', runs: 'scored', ok: (m: ModelRow) => m.meanQuality !== null && m.meanQualityInterval !== null && m.scored >= minRuns },
  ];
  return bases.flatMap(({ name, runs, ok }) => {
    const qualified = models.filter(ok);
    if (qualified.length === 0 || qualified.length >= MIN_RANKED) return [];
    const names = qualified.map((m) => m.source).join(', ');
    return [
      `No source is ranked by ${name}: only ${names} has >= ${minRuns} ${runs} runs (--min-runs) and an interval, and a rank among one source is no ranking (a rank needs ${MIN_RANKED} sources).`,
    ];
  });
}

/**
 * The multi-trial table's Pareto front is a ranking of configurations: none among one (front null), and one
 * among configurations whose repeated tasks differ partly measures how hard each one's tasks were.
 */
export function frontNotes(configurations: ReadonlyArray<{ configuration: string; taskIds: readonly string[] }>): string[] {
  if (configurations.length === 0) return [];
  if (configurations.length < MIN_RANKED)
    return [`No Pareto front in the multi-trial table: only ${configurations[0]!.configuration} ran a task more than once, and a front among one configuration is no ranking.`];
  const key = (ids: readonly string[]) => [...ids].sort().join('\n');
  if (configurations.every((c) => key(c.taskIds) === key(configurations[0]!.taskIds))) return [];
  const each = configurations.map((c) => `${c.configuration} ${c.taskIds.length}`).join(', ');
  return [`The multi-trial configurations repeated different tasks (${each}): their Pareto fronts partly measure how hard each one's tasks were.`];
}

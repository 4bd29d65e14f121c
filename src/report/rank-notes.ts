/**
 * Why the models table gives no rank at all: a rank needs at least two sources with enough runs
 * (`--min-runs`) and an interval, and "rank 1" of the only such source read as a win over sources it was
 * never compared with. One line per basis (pass rate, mean quality) where exactly one source qualified.
 */
import { MIN_RESAMPLE_UNITS } from '../core/stats/bootstrap.js';
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
 * The multi-trial table's Pareto front is a ranking of configurations: only those whose p_attempt has an interval
 * (at least MIN_RESAMPLE_UNITS repeated tasks, counted by their design effect) take part, none among one (front null), and one among configurations whose repeated
 * tasks differ partly measures how hard each one's tasks were.
 */
export function frontNotes(configurations: ReadonlyArray<{ configuration: string; taskIds: readonly string[]; pAttemptInterval: unknown }>): string[] {
  if (configurations.length === 0) return [];
  if (configurations.length < MIN_RANKED)
    return [`No Pareto front in the multi-trial table: only ${configurations[0]!.configuration} ran a task more than once, and a front among one configuration is no ranking.`];
  const ranked = configurations.filter((c) => c.pAttemptInterval !== null);
  const left = configurations.filter((c) => c.pAttemptInterval === null);
  const notes =
    left.length > 0
      ? [
          `Not in the Pareto fronts: ${left.map((c) => `${c.configuration} (${c.taskIds.length} repeated ${c.taskIds.length === 1 ? 'task' : 'tasks'})`).join(', ')}: ` +
            `p_attempt has no interval there (fewer than ${MIN_RESAMPLE_UNITS} tasks, or attempts so unevenly spread that they count as fewer), and a front from point figures alone is no ranking.`,
        ]
      : [];
  if (ranked.length < MIN_RANKED) {
    const only = ranked.length === 1 ? `only ${ranked[0]!.configuration} has` : 'no configuration has';
    return [...notes, `No Pareto front in the multi-trial table: ${only} a p_attempt interval, and a front needs ${MIN_RANKED} such configurations.`];
  }
  const key = (ids: readonly string[]) => [...ids].sort().join('\n');
  if (ranked.every((c) => key(c.taskIds) === key(ranked[0]!.taskIds))) return notes;
  const each = ranked.map((c) => `${c.configuration} ${c.taskIds.length}`).join(', ');
  return [...notes, `The multi-trial configurations repeated different tasks (${each}): their Pareto fronts partly measure how hard each one's tasks were.`];
}

/**
 * Multi-trial reliability in a corpus: a configuration is agent × model;
 * where a configuration ran the same task two or more times (different
 * runs), those attempts form its multi-trial table. Attempts with an unknown
 * outcome are left out; single-attempt tasks do not count.
 */
import { attemptChurn, reliabilityMetrics } from '../core/reliability/metrics.js';
import { reliabilityIntervals } from '../core/reliability/intervals.js';
import { paretoFronts, reliabilityVector } from '../core/reliability/pareto.js';
import type { Attempt } from '../core/reliability/types.js';
import type { BootstrapOptions } from '../core/stats/bootstrap.js';
import { clusteredRateInterval } from '../core/stats/clustered.js';
import { MIN_RANKED } from '../core/stats/ranking.js';
import { modelLabel } from './identity.js';
import type { AttemptRow, CorpusReport, ReliabilityRow, TrajectoryRow } from './types.js';

/** The configuration label of a trajectory: `agent + model`, as every other table names a source (a model nobody names: its run, see modelLabel). */
export function configurationOf(r: Pick<TrajectoryRow, 'agent' | 'model' | 'run'>): string {
  return `${r.agent} + ${modelLabel(r)}`;
}

/** p_attempt's Wilson interval with the tasks' design effect: a task's attempts are not independent (none below 5 tasks). */
function pAttemptInterval(list: readonly Attempt[]): ReliabilityRow['pAttemptInterval'] {
  const tasks = new Map<string, { k: number; n: number }>();
  for (const a of list) {
    if (a.outcome === 'censored') continue;
    const c = tasks.get(a.task) ?? { k: 0, n: 0 };
    tasks.set(a.task, { k: c.k + (a.outcome === 'pass' ? 1 : 0), n: c.n + 1 });
  }
  return clusteredRateInterval([...tasks.values()]);
}

/**
 * Attempts, metrics and Pareto fronts of every configuration with repeated tasks. A front is a ranking: only
 * configurations whose p_attempt has an interval (5 repeated tasks or more, by their design effect) take part, as a source without an interval
 * is unranked in the models table (a configuration of 2 tasks was front 1 beside one of 241); with fewer than
 * MIN_RANKED of them there is none (front null: "front 1" of the only one is no ranking). Every other metric has its
 * interval with the task as the unit (`reliabilityIntervals`; PCR's bootstrap drawn with `options`, the report's --seed).
 */
export function reliabilitySection(rows: readonly TrajectoryRow[], options: BootstrapOptions = {}): CorpusReport['reliability'] {
  const groups = new Map<string, Map<string, TrajectoryRow[]>>();
  for (const r of rows) {
    if (r.outcome === 'unknown' || r.task === null) continue;
    const cfg = configurationOf(r);
    const tasks = groups.get(cfg) ?? new Map<string, TrajectoryRow[]>();
    tasks.set(r.task, [...(tasks.get(r.task) ?? []), r]);
    groups.set(cfg, tasks);
  }
  const configurations: ReliabilityRow[] = [];
  const attempts: AttemptRow[] = [];
  for (const [configuration, tasks] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const repeated = [...tasks].filter(([, rs]) => rs.length >= 2).sort(([a], [b]) => (a < b ? -1 : 1));
    if (repeated.length === 0) continue;
    const list: Attempt[] = repeated.flatMap(([task, rs]) =>
      rs.map((r) => ({
        task,
        run: r.run,
        outcome: r.outcome as Attempt['outcome'],
        patchLines: r.patchLines,
        editVolume: r.editVolume,
        toolCalls: r.toolCalls,
        toolFailures: r.toolFailures,
      })),
    );
    for (const a of list) attempts.push({ configuration, ...a, pcr: attemptChurn(a) });
    configurations.push({
      configuration,
      taskIds: repeated.map(([t]) => t),
      front: null,
      ...reliabilityMetrics(list),
      pAttemptInterval: pAttemptInterval(list),
      ...reliabilityIntervals(list, options),
    });
  }
  const ranked = configurations.filter((c) => c.pAttemptInterval !== null);
  if (ranked.length >= MIN_RANKED) {
    const fronts = paretoFronts(ranked.map(reliabilityVector));
    ranked.forEach((c, i) => (c.front = fronts[i]!));
  }
  return { configurations, attempts };
}

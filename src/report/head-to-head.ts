/**
 * Head to head: every pair of sources that ran at least MIN_SHARED_TASKS tasks in common, compared on those tasks
 * only (pass rate over evaluated runs, mean quality over scored runs), task by task (core/stats/paired-difference).
 * The ranks of the models table need the tasks ALL ranked sources ran; with many sources that is often none, while
 * two of them may share many tasks: this keeps those comparisons, each on its own shared tasks. Pairs are not
 * transitive and no rank is drawn from them.
 */
import type { BootstrapOptions } from '../core/stats/bootstrap.js';
import { pairedTaskDifference } from '../core/stats/paired-difference.js';
import { MIN_SHARED_TASKS } from './rank-shared.js';
import type { HeadToHeadRow, TrajectoryRow } from './types.js';

/** Each task's values of a source's runs (runs naming no task are left out: they share no task). */
function byTask(rs: readonly TrajectoryRow[], value: (r: TrajectoryRow) => number | null): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const r of rs) {
    const v = value(r);
    if (r.task === null || v === null) continue;
    const xs = m.get(r.task);
    if (xs) xs.push(v);
    else m.set(r.task, [v]);
  }
  return m;
}

const passValue = (r: TrajectoryRow): number | null => (r.outcome === 'pass' ? 1 : r.outcome === 'fail' ? 0 : null);
const qualityValue = (r: TrajectoryRow): number | null => r.score?.total ?? null;

/** Runs of `a` on tasks `b` has values for. */
const runsOn = (a: ReadonlyMap<string, readonly number[]>, b: ReadonlyMap<string, readonly number[]>): number => [...a].reduce((n, [t, xs]) => n + (b.has(t) ? xs.length : 0), 0);

/** Pairs in source order (sources sorted by name, A before B); only pairs with MIN_SHARED_TASKS shared tasks of evaluated or scored runs. */
export function headToHead(rows: readonly TrajectoryRow[], options: BootstrapOptions = {}): HeadToHeadRow[] {
  const sources = [...new Set(rows.map((r) => r.source))].sort();
  const per = sources.map((s) => {
    const rs = rows.filter((r) => r.source === s);
    return { pass: byTask(rs, passValue), quality: byTask(rs, qualityValue) };
  });
  const out: HeadToHeadRow[] = [];
  for (let i = 0; i < sources.length; i++) {
    for (let j = i + 1; j < sources.length; j++) {
      const [x, y] = [per[i]!, per[j]!];
      const pass = pairedTaskDifference(x.pass, y.pass, options);
      const quality = pairedTaskDifference(x.quality, y.quality, options);
      if (pass.tasks < MIN_SHARED_TASKS && quality.tasks < MIN_SHARED_TASKS) continue;
      out.push({
        a: sources[i]!,
        b: sources[j]!,
        pass: { ...pass, runsA: runsOn(x.pass, y.pass), runsB: runsOn(y.pass, x.pass) },
        quality: { ...quality, runsA: runsOn(x.quality, y.quality), runsB: runsOn(y.quality, x.quality) },
      });
    }
  }
  return out;
}

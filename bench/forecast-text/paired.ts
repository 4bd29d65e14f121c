/**
 * Paired bootstrap differences of two scores on the same runs (bench/forecast-text.ts): AUROC(a) − AUROC(b) within
 * each source, their mean over the sources, and the within-task concordance difference; each draw resamples tasks
 * (a task with all its runs, as core/stats `separation` does with unit 'task'), and both scores are measured on the
 * same draw, so what the two share (the runs, the tasks' difficulty) leaves the interval.
 */
import { auroc } from '../../src/core/stats/auroc.js';
import { bootstrapDraws, resamplable, resampleIndices, spread, type BootstrapOptions } from '../../src/core/stats/bootstrap.js';
import type { Interval } from '../../src/core/stats/interval.js';
import { groupBy } from '../../src/core/stats/separation.js';

export interface Paired {
  source: string;
  task: string;
  pass: boolean;
  a: number;
  b: number;
}

export interface Difference {
  estimate: number | null;
  /** null below the resampling floor, or where every draw gives one value (two scores that order alike: no interval of zero width). */
  interval: Interval | null;
}

const aurocBy = (rs: readonly Paired[], pick: (r: Paired) => number) => auroc(rs.filter((r) => r.pass).map(pick), rs.filter((r) => !r.pass).map(pick))?.auroc ?? null;
const diffOf = (rs: readonly Paired[]): number | null => {
  const a = aurocBy(rs, (r) => r.a);
  const b = aurocBy(rs, (r) => r.b);
  return a === null || b === null ? null : a - b;
};

/** Mean over `sources` of each one's AUROC(a) − AUROC(b) (null when a source lacks an outcome). */
function meanDiff(rs: readonly Paired[], sources: readonly string[]): number | null {
  let s = 0;
  for (const src of sources) {
    const d = diffOf(rs.filter((r) => r.source === src));
    if (d === null) return null;
    s += d;
  }
  return s / sources.length;
}

function clustered(groups: ReadonlyArray<readonly Paired[]>, stat: (rs: readonly Paired[]) => number | null, o: BootstrapOptions): Interval | null {
  if (!resamplable(groups.length)) return null;
  return spread(bootstrapDraws((random) => stat(resampleIndices(random, groups.length).flatMap((i) => groups[i]!)), o));
}

/** AUROC(a) − AUROC(b) on one source's runs, tasks resampled. */
export function sourceDifference(rs: readonly Paired[], o: BootstrapOptions): Difference {
  return {
    estimate: diffOf(rs),
    interval: clustered([...groupBy(rs, (r) => r.task).values()], diffOf, o),
  };
}

/** The within-source mean's difference over `sources`, tasks resampled across them (they share tasks). */
export function meanDifference(rs: readonly Paired[], sources: readonly string[], o: BootstrapOptions): Difference {
  const own = rs.filter((r) => sources.includes(r.source));
  return {
    estimate: meanDiff(own, sources),
    interval: clustered([...groupBy(own, (r) => r.task).values()], (x) => meanDiff(x, sources), o),
  };
}

/** Concordance over (passing, failing) pairs of one source and task, for a minus for b; (source, task) groups resampled. */
export function withinTaskDifference(rs: readonly Paired[], o: BootstrapOptions): Difference & { pairs: number; tasks: number } {
  const groups = [...groupBy(rs, (r) => `${r.source}\0${r.task}`).values()].filter((g) => g.some((r) => r.pass) && g.some((r) => !r.pass));
  const ratio = (gs: ReadonlyArray<readonly Paired[]>) => {
    let ua = 0;
    let ub = 0;
    let n = 0;
    for (const g of gs) {
      for (const p of g.filter((r) => r.pass))
        for (const f of g.filter((r) => !r.pass)) {
          ua += p.a > f.a ? 1 : p.a === f.a ? 0.5 : 0;
          ub += p.b > f.b ? 1 : p.b === f.b ? 0.5 : 0;
          n += 1;
        }
    }
    return n === 0 ? null : (ua - ub) / n;
  };
  const pairs = groups.reduce((s, g) => s + g.filter((r) => r.pass).length * g.filter((r) => !r.pass).length, 0);
  const interval = resamplable(groups.length) ? spread(bootstrapDraws((random) => ratio(resampleIndices(random, groups.length).map((i) => groups[i]!)), o)) : null;
  return { estimate: ratio(groups), interval, pairs, tasks: groups.length };
}

/** The head-to-head table (report/head-to-head.ts): pairs of sources on the tasks both ran. */
import type { PairedDifference } from '../../core/stats/paired-difference.js';
import type { CorpusReport } from '../types.js';
import type { Cell, Table } from './table-cells.js';

const rounded =
  (digits: number) =>
  (x: number | null | undefined): Cell =>
    x === null || x === undefined ? null : Number(x.toFixed(digits));
/** Pass rates are fractions (3 decimals, a tenth of a percentage point); quality differences are points of the 0-100
 * score, 1 decimal as the models table prints mean quality: 3 claimed more than a ±2.5-point interval holds (audit29). */
const r3 = rounded(3);
const r1 = rounded(1);

/** Which side the interval puts ahead, or that it shows no difference (no interval: too few shared tasks). */
function verdict(d: PairedDifference, a: string, b: string): string {
  if (d.interval === null) return d.tasks === 0 ? '' : 'no interval (fewer than 5 shared tasks)';
  if (d.interval.lo > 0) return `${a} ahead`;
  if (d.interval.hi < 0) return `${b} ahead`;
  return 'no difference shown';
}

export function headToHeadTable(r: CorpusReport): Table {
  return {
    name: 'head-to-head',
    title:
      'Head to head: pairs of sources on the tasks both ran (at least 5): A minus B, task by task (each shared task weighted once), 95 % bootstrap interval resampling tasks; pass rate over evaluated runs, mean quality over scored runs. Pairs are not transitive: no rank is drawn from them',
    headers: [
      'a',
      'b',
      'pass_tasks',
      'pass_runs_a',
      'pass_runs_b',
      'pass_diff',
      'pass_diff_lo',
      'pass_diff_hi',
      'pass_verdict',
      'quality_tasks',
      'quality_diff',
      'quality_diff_lo',
      'quality_diff_hi',
      'quality_verdict',
    ],
    rows: r.headToHead.map((h) => [
      h.a,
      h.b,
      h.pass.tasks,
      h.pass.runsA,
      h.pass.runsB,
      r3(h.pass.estimate),
      r3(h.pass.interval?.lo),
      r3(h.pass.interval?.hi),
      verdict(h.pass, 'A', 'B'),
      h.quality.tasks,
      r1(h.quality.estimate),
      r1(h.quality.interval?.lo),
      r1(h.quality.interval?.hi),
      verdict(h.quality, 'A', 'B'),
    ]),
  };
}

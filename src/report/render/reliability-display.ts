/** The terminal's multi-trial table: each metric with its interval over tasks in one cell (`[-]`: too few tasks to tell). */
import type { Interval } from '../../core/stats/interval.js';
import type { CorpusReport } from '../types.js';
import type { Table } from './table-cells.js';

/** `0.667 [0.300, 0.900]`, `0.667 [-]` without an interval, `-` without a figure. */
const cell = (x: number | null, iv: Interval | null): string | null => (x === null ? null : iv === null ? `${x.toFixed(3)} [-]` : `${x.toFixed(3)} [${iv.lo.toFixed(3)}, ${iv.hi.toFixed(3)}]`);

export function reliabilityDisplay(r: CorpusReport): Table {
  return {
    name: 'reliability',
    title: `Multi-trial reliability (repeated tasks only): each figure with its ${Math.round(100 * r.statistics.level)} % interval over tasks ([-] below 5 tasks, counted by their design effect)`,
    headers: ['configuration', 'tasks', 'k', 'planned', 'passes', 'p_attempt', 'allpass_conservative', 'pass_at_k', 'cr', 'jcr', 'pcr', 'atfr', 'pareto_front'],
    rows: r.reliability.configurations.map((c) => [
      c.configuration,
      c.tasks,
      c.kMin === c.kMax ? `${c.kMin}` : `${c.kMin}-${c.kMax}`,
      c.planned,
      c.passes,
      cell(c.pAttempt, c.pAttemptInterval),
      cell(c.allPassConservative, c.allPassConservativeInterval),
      cell(c.passAtK, c.passAtKInterval),
      cell(c.cr, c.crInterval),
      cell(c.jcr, c.jcrInterval),
      cell(c.pcr, c.pcrInterval),
      cell(c.atfr, c.atfrInterval),
      c.front,
    ]),
  };
}

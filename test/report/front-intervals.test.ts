/**
 * The multi-trial Pareto front is a ranking: a configuration whose p_attempt has no interval (too few repeated tasks)
 * takes no part, as a source without an interval is unranked in the models table. On the corpus with one model name
 * for every run (`report --model m`: each agent's runs of a task by different models become its attempts), three
 * configurations repeat 2, 3 and 5 tasks, none with an interval; before, they were given fronts from point figures
 * (and, beside ../shared/calibration, mini-swe-agent 2.2.7's 2 tasks were front 1 beside SWE-agent 0.x's 241).
 */
import { describe, expect, it } from 'vitest';
import { frontNotes } from '../../src/report/rank-notes.js';
import { CORPUS, corpusReport } from './corpus-fixture.js';

describe('Pareto fronts only among configurations with a p_attempt interval', () => {
  const report = corpusReport([CORPUS], { naming: { model: 'm' } });
  const cfgs = report.reliability.configurations;

  it('gives no front to a configuration without an interval, and says why', () => {
    expect(cfgs.length).toBeGreaterThanOrEqual(2);
    expect(cfgs.every((c) => c.pAttemptInterval === null)).toBe(true);
    expect(cfgs.map((c) => c.front)).toEqual(cfgs.map(() => null));
    const notes = frontNotes(cfgs);
    expect(notes[0]).toMatch(/^Not in the Pareto fronts: .*\(2 repeated tasks\).*: p_attempt has no interval there/);
    expect(notes[1]).toBe('No Pareto front in the multi-trial table: no configuration has a p_attempt interval, and a front needs 2 such configurations.');
  });

  it('keeps the others ranked among themselves', () => {
    const interval = { lo: 0.1, hi: 0.2, level: 0.95 };
    const rows = [
      { configuration: 'a', taskIds: ['t1', 't2', 't3', 't4', 't5'], pAttemptInterval: interval },
      { configuration: 'b', taskIds: ['t1', 't2', 't3', 't4', 't5'], pAttemptInterval: interval },
      { configuration: 'c', taskIds: ['t1'], pAttemptInterval: null },
    ];
    expect(frontNotes(rows)).toEqual([expect.stringMatching(/^Not in the Pareto fronts: c \(1 repeated task\)/)]);
  });
});

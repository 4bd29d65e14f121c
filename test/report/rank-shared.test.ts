/**
 * Sources that ran different tasks are ranked on the tasks all of them ran (with the figure the rank stands on), or
 * not at all with fewer than MIN_SHARED_TASKS such tasks; sources that ran the same tasks keep their ranks.
 */
import { describe, expect, it } from 'vitest';
import { rankWithTies } from '../../src/core/stats/ranking.js';
import { modelRows } from '../../src/report/models.js';
import { MIN_SHARED_TASKS } from '../../src/report/rank-shared.js';
import { rankTaskWarnings } from '../../src/report/rank-tasks.js';
import type { TrajectoryRow } from '../../src/report/types.js';
import { row } from './trajectory-row.js';

/** `model`'s runs, one a task, on tasks t-`from` .. t-`from + n - 1`, passing those for which `pass(i)` holds. */
const runs = (model: string, from: number, n: number, pass: (i: number) => boolean): TrajectoryRow[] =>
  Array.from({ length: n }, (_, j) => {
    const i = from + j;
    return pass(i) ? row(model, 'pass', 70, 'Solid', undefined, `t__t-${i}`) : row(model, 'fail', 40, undefined, undefined, `t__t-${i}`);
  });
const of = (models: ReturnType<typeof modelRows>, name: string) => models.find((m) => m.model === name)!;

describe('ranks of sources that ran different tasks', () => {
  it('same tasks: ranks as before, on each source own figures', () => {
    const models = modelRows([...runs('A', 0, 30, (i) => i < 27), ...runs('B', 0, 30, (i) => i < 5)]);
    const expected = rankWithTies(
      [of(models, 'A'), of(models, 'B')].map((m) => ({ estimate: m.passRate, interval: m.passRateInterval, n: m.evaluated })),
      10,
    );
    expect([of(models, 'A').rankPass, of(models, 'B').rankPass]).toEqual(expected.map((e) => e.rank));
    expect([of(models, 'A').rankPass, of(models, 'B').rankPass]).toEqual([1, 2]);
    expect(models.every((m) => m.rankPassOn === undefined && m.rankQualityOn === undefined)).toBe(true);
    expect(rankTaskWarnings(models)).toEqual([]);
  });

  it('different tasks, enough shared: ranked on the shared tasks, which can reverse the order of the own-task figures', () => {
    // A passes every task only it ran (t-0..29) and 5 of the 30 shared (t-30..59); B passes 28 shared, none of its own.
    const models = modelRows([...runs('A', 0, 60, (i) => i < 35), ...runs('B', 30, 60, (i) => i < 58)]);
    const [a, b] = [of(models, 'A'), of(models, 'B')];
    expect(a.passRate).toBeGreaterThan(b.passRate!);
    expect([b.rankPass, a.rankPass]).toEqual([1, 2]);
    expect(a.rankPassOn).toMatchObject({ sharedTasks: 30, ownTasks: 60, allTasks: 90, sources: 2, n: 30, estimate: 5 / 30 });
    expect(b.rankPassOn).toMatchObject({ sharedTasks: 30, n: 30, estimate: 28 / 30 });
    const notes = rankTaskWarnings(models);
    expect(notes[0]).toMatch(
      /^Ranks by pass rate compare sources on the same tasks: .*30 of 90 tasks run by all of them.*ranked on those 30 tasks: a \+ B 93\.3 % \[78\.7, 98\.2\] over 30 runs; a \+ A 16\.7 % /,
    );
    expect(notes[1]).toMatch(/^Ranks by mean quality compare sources on the same tasks/);
  });

  it(`different tasks, fewer than ${MIN_SHARED_TASKS} shared: no rank, and a note that says why`, () => {
    const models = modelRows([...runs('A', 0, 30, (i) => i < 27), ...runs('B', 27, 30, (i) => i < 32)]);
    for (const m of models) {
      expect(m).toMatchObject({ rankPass: null, rankQuality: null, rankShift: null });
      expect(m.unrankedPass).toBe(`ran different tasks: 3 of 57 tasks run by all 2 sources with enough runs (a rank needs ${MIN_SHARED_TASKS})`);
      expect(m.rankPassOn).toMatchObject({ sharedTasks: 3, n: 3 });
    }
    const notes = rankTaskWarnings(models);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toBe(
      `No source is ranked by pass rate: the 2 sources with enough evaluated runs ran different tasks (a + A 30, a + B 30; 3 of 57 tasks run by all of them), and a rank needs >= ${MIN_SHARED_TASKS} tasks all of them ran: a rank over different tasks partly measures how hard each source's tasks were, not only the source.`,
    );
  });

  it('a source below --min-runs is not compared, so it does not shrink the shared tasks', () => {
    const models = modelRows([...runs('A', 0, 30, (i) => i < 27), ...runs('B', 0, 30, (i) => i < 5), ...runs('C', 100, 3, () => true)]);
    expect([of(models, 'A').rankPass, of(models, 'B').rankPass, of(models, 'C').rankPass]).toEqual([1, 2, null]);
    expect(rankTaskWarnings(models)).toEqual([]);
  });
});

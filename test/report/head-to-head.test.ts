/**
 * Head to head: pairs of sources compared on the tasks both ran, task by task, with an interval resampling tasks.
 * Kept where no rank can be drawn because not every source ran the same tasks (e.g. ../shared/calibration: three
 * sources share 3 of 286 tasks, but CodeR and SWE-agent 0.x share 181).
 */
import { describe, expect, it } from 'vitest';
import { pairedTaskDifference } from '../../src/core/stats/paired-difference.js';
import { headToHeadTable } from '../../src/report/render/head-to-head-table.js';
import { headToHead } from '../../src/report/head-to-head.js';
import type { CorpusReport, TrajectoryRow } from '../../src/report/types.js';
import { row } from './trajectory-row.js';

/** `model`'s runs, `per` a task, on tasks t-`from` .. t-`from + n - 1`, passing those for which `pass(i)` holds. */
const runs = (model: string, from: number, n: number, pass: (i: number) => boolean, per = 1): TrajectoryRow[] =>
  Array.from({ length: n }, (_, j) => from + j).flatMap((i) =>
    Array.from({ length: per }, () => (pass(i) ? row(model, 'pass', 70, 'Solid', undefined, `t__t-${i}`) : row(model, 'fail', 40, undefined, undefined, `t__t-${i}`))),
  );

describe('pairedTaskDifference', () => {
  it('weights each shared task once, whatever its runs on either side, and leaves other tasks out', () => {
    const a = new Map([
      ['x', [1, 1, 1, 0]],
      ['y', [0]],
      ['only-a', [1]],
    ]);
    const b = new Map([
      ['x', [0]],
      ['y', [0, 0]],
      ['only-b', [0]],
    ]);
    expect(pairedTaskDifference(a, b)).toEqual({ tasks: 2, estimate: (0.75 + 0) / 2, interval: null });
    expect(pairedTaskDifference(a, new Map())).toEqual({ tasks: 0, estimate: null, interval: null });
  });
});

describe('headToHead', () => {
  it('compares two sources on their shared tasks though a third keeps every rank away', () => {
    // A passes the 20 shared tasks t-10..29 one time in two, B never; C shares 2 tasks with them.
    const rows = [...runs('A', 0, 30, (i) => i % 2 === 0), ...runs('B', 10, 30, () => false, 3), ...runs('C', 28, 2, () => true), ...runs('C', 50, 10, () => true)];
    const pairs = headToHead(rows, { seed: 1 });
    expect(pairs.map((p) => [p.a, p.b])).toEqual([['a + A', 'a + B']]);
    const [ab] = pairs;
    expect(ab!.pass).toMatchObject({ tasks: 20, runsA: 20, runsB: 60, estimate: 0.5 });
    expect(ab!.pass.interval!.lo).toBeGreaterThan(0.2);
    expect(ab!.quality).toMatchObject({ tasks: 20, estimate: 15 });
    const table = headToHeadTable({ headToHead: pairs } as CorpusReport);
    const r = (x: number, d: number) => Number(x.toFixed(d));
    expect(table.rows[0]).toEqual([
      'a + A',
      'a + B',
      20,
      20,
      60,
      0.5,
      r(ab!.pass.interval!.lo, 3),
      r(ab!.pass.interval!.hi, 3),
      'A ahead',
      20,
      15,
      r(ab!.quality.interval!.lo, 1),
      r(ab!.quality.interval!.hi, 1),
      'A ahead',
    ]);
  });

  it('prints quality differences to 1 decimal, as the models table prints mean quality (audit29)', () => {
    const pair = { a: 'x', b: 'y', pass: { tasks: 9, runsA: 9, runsB: 9, estimate: 0.21666, interval: { lo: 0.16249, hi: 0.26944, level: 0.95 } } };
    const quality = { tasks: 9, runsA: 9, runsB: 9, estimate: 4.8564, interval: { lo: 2.2751, hi: 7.3169, level: 0.95 } };
    const table = headToHeadTable({ headToHead: [{ ...pair, quality }] } as unknown as CorpusReport);
    expect(table.rows[0]!.slice(5, 8)).toEqual([0.217, 0.162, 0.269]);
    expect(table.rows[0]!.slice(10, 13)).toEqual([4.9, 2.3, 7.3]);
  });

  it('says when the interval shows no difference', () => {
    const rows = [...runs('A', 0, 12, (i) => i % 2 === 0), ...runs('B', 0, 12, (i) => i % 2 === 1)];
    const table = headToHeadTable({ headToHead: headToHead(rows, { seed: 1 }) } as CorpusReport);
    expect(table.rows[0]![2]).toBe(12);
    expect(table.rows[0]![8]).toBe('no difference shown');
  });
});

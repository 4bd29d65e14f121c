/**
 * Best-of-N's gap closed is measured on the groups with a passing and a failing run only: its n is shown
 * (`informative`), and it has no interval below MIN_RESAMPLE_UNITS (5) of them: 2 groups resample to 3 distinct draws. The scores are plain numbers in the shape the
 * repro found on real SWE-agent 0.x + gpt-4 runs (/work/notes/s44/rank-bestofn-one-informative.mjs: gap 1 [1, 1]).
 */
import { describe, expect, it } from 'vitest';
import { bestOfN } from '../../src/core/stats/best-of-n.js';
import { MIN_RESAMPLE_UNITS } from '../../src/core/stats/bootstrap.js';
import { selectionLine } from '../../src/report/render/summary.js';
import type { ScoredOutcome } from '../../src/core/stats/separation.js';

const group = (task: string, runs: Array<[boolean, number]>): ScoredOutcome[] => runs.map(([pass, score]) => ({ source: 'SWE-agent 0.x + gpt-4', task, pass, score }));
/** One task with a pass and a fail, seven all-fail tasks (three runs each). */
const mixed = group('django__django-10914', [
  [true, 63.2],
  [false, 55.1],
  [false, 41.7],
]);
const allFail = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].flatMap((t, i) =>
  group(`task-${t}`, [
    [false, 50 + i],
    [false, 40 + i],
    [false, 30 + i],
  ]),
);

describe('best-of-N gap closed', () => {
  it('from one informative group has an estimate and n = 1 but no interval (it was [1, 1])', () => {
    const b = bestOfN([...mixed, ...allFail], { reps: 200 });
    expect(b).toMatchObject({ groups: 8, runs: 24, informative: 1, gapClosed: 1, gapInterval: null });
    expect(b.top.interval).not.toBeNull();
    // The report's line: the gap with its n, and no interval.
    expect(selectionLine({ score: 'total', source: 'all', ...b, groupsByReference: { 'in-folder': 0, external: 0, 'reference-free': b.groups } })).toMatch(
      /over 8 groups .*; gap closed 1\.000 \[-\] \(n = 1 group with a pass and a fail\)$/,
    );
  });

  it('from two informative groups has none; from MIN_RESAMPLE_UNITS it has one', () => {
    const second = group('django__django-11001', [
      [false, 70.4],
      [true, 52.3],
    ]);
    const b = bestOfN([...mixed, ...second, ...allFail], { reps: 200 });
    expect(b.informative).toBe(2);
    expect(b.gapClosed).toBeCloseTo((1 + 0 - (1 / 3 + 1 / 2)) / (2 - (1 / 3 + 1 / 2)), 12);
    expect(b.gapInterval).toBeNull();
    const more = ['11002', '11003', '11004'].flatMap((t, i) =>
      group(`django__django-${t}`, [
        [true, 60 + i],
        [false, 45 + i],
      ]),
    );
    const five = bestOfN([...mixed, ...second, ...more, ...allFail], { reps: 200 });
    expect(five.informative).toBe(MIN_RESAMPLE_UNITS);
    expect(five.gapInterval).not.toBeNull();
  });
});

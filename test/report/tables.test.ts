import { describe, expect, it } from 'vitest';
import { modelRows } from '../../src/report/models.js';
import { csvTable, markdownTable, textTable } from '../../src/report/render/format-table.js';
import { luckyChiSquare, separation } from '../../src/report/statistics.js';
import type { TrajectoryRow } from '../../src/report/types.js';
import { row } from './trajectory-row.js';

const rows: TrajectoryRow[] = [
  row('A', 'pass', 80, 'Ideal'),
  row('A', 'pass', 40, 'Lucky', 'C1'),
  row('A', 'fail', 30, 'Off-track'),
  row('A', 'pass', 40, 'Lucky', 'C1'),
  row('B', 'pass', 70, 'Solid'),
  row('B', 'fail', 50, 'Partial-fail'),
  row('B', 'fail'),
  row('B', 'pass', 30, 'Lucky', 'C2'),
  row('C', 'unknown'),
];

describe('per-model table on hand-built rows', () => {
  // Each run of a source a task of its own (runs of one task are one unit of the intervals:
  // test/report/task-clusters.test.ts); A and B ran the same 4 tasks, so their ranks compare them (rank-shared.test.ts).
  const ownTasks = rows.map((r) => ({ ...r, task: `t__t-${rows.filter((o) => o.model === r.model).indexOf(r)}` }));
  const models = modelRows(ownTasks, { minRuns: 1 });
  it('pass rate over evaluated, quality over scored, ranks and shift by hand', () => {
    const a = models.find((m) => m.model === 'A')!;
    const b = models.find((m) => m.model === 'B')!;
    // 3/4 against 2/4: Wilson intervals overlap, so both rank 1, tied. The means of 4 and 3 scores have no bootstrap
    // interval (below MIN_RESAMPLE_UNITS), so neither is ranked on quality, and there is no shift.
    const noInterval = { meanQualityInterval: null, rankQuality: null, rankShift: null, unrankedQuality: 'no interval (n too small)' };
    expect(a).toMatchObject({ evaluated: 4, passes: 3, passRate: 0.75, scored: 4, meanQuality: 47.5, rankPass: 1, rankPassTied: true, ...noInterval });
    expect(b).toMatchObject({ evaluated: 4, passes: 2, passRate: 0.5, scored: 3, meanQuality: 50, rankPass: 1, rankPassTied: true, ...noInterval });
    expect(a.passRateInterval!.lo).toBeCloseTo(0.3006, 4);
    expect(a.passRateInterval!.hi).toBeCloseTo(0.9544, 4);
    // Below the default minimum of 10 runs nothing is ranked, and each row says why.
    const unranked = modelRows(ownTasks).find((m) => m.model === 'A')!;
    expect(unranked).toMatchObject({ rankPass: null, rankQuality: null, rankShift: null, unrankedPass: 'n 4 < 10', unrankedQuality: 'no interval (n too small)' });
    expect(a.tierShares).toEqual({ Ideal: 1 / 3, Solid: 0, Lucky: 2 / 3 });
    expect(a.luckyMix.C1).toBe(2);
    expect(b.luckyRate).toBe(0.5);
    const c = models.find((m) => m.model === 'C')!;
    // Waste counts scored runs: C's only run is unscored.
    expect(c).toMatchObject({ passRate: null, rankPass: null, tierShares: null, wastedSteps: 0 });
    expect(a.wastedSteps).toBe(4);
    // The rows as built, every run of one task: one unit, so no interval and no rank.
    expect(modelRows(rows, { minRuns: 1 }).find((m) => m.model === 'A')).toMatchObject({ passRate: 0.75, passRateInterval: null, rankPass: null });
  });
  it('each tier share carries its Wilson interval (audit19: the shares were printed bare, "1" for 2 of 2 runs)', () => {
    const a = models.find((m) => m.model === 'A')!;
    // A's 3 scored passing runs, one task each: Wilson's interval of 1/3 Ideal and 2/3 Lucky.
    expect(a.tierShareIntervals!.Ideal!.lo).toBeCloseTo(0.0615, 4);
    expect(a.tierShareIntervals!.Ideal!.hi).toBeCloseTo(0.7923, 4);
    expect(a.tierShareIntervals!.Lucky).toEqual(a.luckyRateInterval);
    expect(a.tierShareIntervals!.Solid!.lo).toBe(0);
    expect(models.find((m) => m.model === 'C')!.tierShareIntervals).toBeNull();
    // Every passing run of one task: one unit, no interval (as the pass rate).
    expect(modelRows(rows, { minRuns: 1 }).find((m) => m.model === 'A')!.tierShareIntervals).toEqual({ Ideal: null, Solid: null, Lucky: null });
  });
  it('χ² of model × Lucky category on the 2×2 table [[2,0],[0,1]]', () => {
    const chi = luckyChiSquare(rows);
    expect(chi.table).toEqual([
      [2, 0],
      [0, 1],
    ]);
    expect(chi.dof).toBe(1);
    expect(chi.statistic).toBeCloseTo(3, 12); // N(ad−bc)²/(r1 r2 c1 c2) = 3·4/4
    expect(chi.note).toMatch(/below 5/);
  });
  it('AUROC of the composite over scored pass/fail rows', () => {
    const total = separation(rows)[0]!;
    // pass {80,40,40,60,30} vs fail {30,50}: wins = 2+1.5 ... by pairs
    expect(total).toMatchObject({ signal: 'total', reference: 'all', nPass: 5, nFail: 2 });
    expect(total.pooled.auroc).toBeCloseTo((2 + 1 + 1 + 2 + 0.5) / 10, 12);
    // Within source: A {80,40,40} vs {30} = 1; B {70,30} vs {50} = 0.5; neither has 3 of each, so no mean.
    expect(total.withinSource.sources.map((x) => [x.source, x.auroc])).toEqual([
      ['a + A', 1],
      ['a + B', 0.5],
    ]);
    expect(total.withinSource.mean).toBeNull();
    expect(separation(rows, { minPerClass: 1 })[0]!.withinSource.mean).toBeCloseTo(0.75, 12);
  });
});

describe('table writers', () => {
  const t = {
    name: 'x',
    title: 'X',
    headers: ['name', 'n'],
    rows: [
      ['a, "b"', 1],
      ['c|d', null],
    ],
  };
  it('CSV quotes commas and quotes; empty for null', () => {
    expect(csvTable(t)).toBe('name,n\n"a, ""b""",1\nc|d,\n');
  });
  it('Markdown escapes pipes and right-aligns numeric columns', () => {
    expect(markdownTable(t)).toBe('| name | n |\n| --- | ---: |\n| a, "b" | 1 |\n| c\\|d | - |');
  });
  it('text tables align columns', () => {
    expect(textTable(t)).toBe('name    n\na, "b"  1\nc|d     -');
  });
});

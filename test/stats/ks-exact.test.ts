/**
 * audit21: report's pooled_ks_p was the asymptotic p at any n, too small for few runs: one passing and one failing
 * run (SWE-agent 0.x + gpt-4 on django__django-10914, ../shared/calibration) printed 0.289 where every order of two
 * runs gives D = 1, p = 1. Up to n·m = 10,000 the p is now exact (R's ks.test, scipy's ks_2samp method 'exact').
 */
import { describe, expect, it } from 'vitest';
import { ksExactP, ksTwoSample } from '../../src/core/stats/ks.js';
import type { CorpusReport } from '../../src/report/types.js';
import { cli } from '../cli/run-cli.js';

describe('KS two-sample p: exact for small samples', () => {
  it('one run against one: p 1 (it was 0.289)', () => {
    // The two runs' composite scores (report --json): the passing one 76.06, the failing one 75.18.
    expect(ksTwoSample([76.06], [75.18])).toMatchObject({ d: 1, p: 1, method: 'exact' });
  });

  it('3 against 3, disjoint: 2 of the 20 merge orders give D = 1, p 0.1 (asymptotic 0.033)', () => {
    expect(ksTwoSample([1, 2, 3], [4, 5, 6])!.p).toBeCloseTo(0.1, 12);
    expect(ksExactP(3, 3, 1)).toBeCloseTo(0.1, 12);
  });

  it('large samples keep the asymptotic p (and a p too small for an exact difference of sums)', () => {
    const a = Array.from({ length: 101 }, (_, i) => i);
    const b = Array.from({ length: 100 }, (_, i) => i + 0.5);
    expect(ksTwoSample(a, b)!.method).toBe('asymptotic');
    const apart = ksTwoSample(
      Array.from({ length: 100 }, (_, i) => i),
      Array.from({ length: 100 }, (_, i) => i + 1000),
    )!;
    expect(apart.method).toBe('asymptotic');
    expect(apart.p).toBeGreaterThan(0);
  });

  it('report.json says which p it is', async () => {
    const run = await cli('report', 'examples/runs', '--outcomes', 'examples/runs/outcomes.csv', '--json');
    const total = (JSON.parse(run.stdout) as CorpusReport).separation.find((s) => s.signal === 'total' && s.reference === 'all')!;
    // 5 passing against 3 failing runs: counted exactly.
    expect(total).toMatchObject({ nPass: 5, nFail: 3, ksMethod: 'exact' });
  });
});

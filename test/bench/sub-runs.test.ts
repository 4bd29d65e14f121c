/** Repeated sub-runs (bench/sub-runs.ts): the interval over child processes that forecast and label-per-step give their rows. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { target } from '../../bench/report.js';
import { MIN_SUB_RUNS, runSubRuns, subRunMedian, subRunRatio } from '../../bench/sub-runs.js';

describe('subRunRatio', () => {
  it('is the geometric mean of the ratios with a t interval on their logs (computed apart in Python)', () => {
    const r = subRunRatio([1.1, 1.2, 1.3]);
    expect(r.value).toBeCloseTo(1.1972158, 6);
    expect(r.interval![0]).toBeCloseTo(0.972822, 5);
    expect(r.interval![1]).toBeCloseTo(1.473369, 5);
    // forecast's six sub-runs of 21:52 (t with 5 degrees of freedom).
    const six = subRunRatio([1.401, 1.51, 0.879, 1.267, 1.286, 1.419]);
    expect(six.value).toBeCloseTo(1.2751678, 6);
    expect(six.interval![0]).toBeCloseTo(1.040726, 5);
    expect(six.interval![1]).toBeCloseTo(1.562421, 5);
  });

  it('gives no interval below MIN_SUB_RUNS, and a point for identical sub-runs', () => {
    expect(MIN_SUB_RUNS).toBe(3);
    expect(subRunRatio([1.1, 1.3]).interval).toBeUndefined();
    expect(subRunRatio([1.1, 1.3]).value).toBeCloseTo(Math.sqrt(1.1 * 1.3), 12);
    const same = subRunRatio([0.9, 0.9, 0.9, 0.9]);
    expect(same.value).toBeCloseTo(0.9, 12);
    expect(same.interval![0]).toBeCloseTo(0.9, 12);
    expect(same.interval![1]).toBeCloseTo(0.9, 12);
  });

  it('is wider than the spread within one run when the sub-runs disagree, so a row near its bound reads unsettled', () => {
    // The forecast row of stop 73 and its two reruns alone: 1.277, 1.206, 1.158.
    const r = subRunRatio([1.277, 1.206, 1.158]);
    expect(r.interval![0]).toBeLessThan(1.158);
    expect(r.interval![1]).toBeGreaterThan(1.277);
    expect(target('forecast push', r.value, '<=', 1.2, '', r.interval).settled).toBe(false);
  });
});

describe('subRunMedian', () => {
  it('gives the median and the widest order statistics that cover it at 95 % (exact binomial, from 6 values)', () => {
    // 6: the lowest and highest, 1 - 2/64 = 96.9 %; 5 has no interval (1 - 2/32 = 93.75 %).
    const six = subRunMedian([2.77, 1.6, 2.88, 1.9, 19.5, 1.7]);
    expect(six.value).toBeCloseTo((1.9 + 2.77) / 2, 12);
    expect(six.interval).toEqual([1.6, 19.5]);
    expect(six.coverage).toBeCloseTo(1 - 2 / 64, 12);
    const five = subRunMedian([3, 1, 2, 5, 4]);
    expect(five.value).toBe(3);
    expect(five.interval).toBeUndefined();
    // 10: k = 2 (1 - 2 * 11/1024 = 97.9 %; k = 3 would cover 89.1 %).
    const ten = subRunMedian([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(ten.value).toBe(5.5);
    expect(ten.interval).toEqual([2, 9]);
    expect(ten.coverage).toBeCloseTo(1 - (2 * 11) / 1024, 12);
  });

  it('settles a p99 row only when every one of 6 sub-runs is on the same side of the bound', () => {
    const mixed = subRunMedian([1.2, 1.4, 1.5, 1.6, 1.7, 2.9]);
    expect(target('p99', mixed.value, '<', 2, 'ms', mixed.interval).settled).toBe(false);
    const under = subRunMedian([1.2, 1.4, 1.5, 1.6, 1.7, 1.9]);
    const t = target('p99', under.value, '<', 2, 'ms', under.interval);
    expect([t.met, t.settled]).toEqual([true, true]);
  });
});

describe('runSubRuns', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-sub-runs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the script the given number of times and reads the JSON of its last line', () => {
    const script = path.join(dir, 'child.mjs');
    writeFileSync(script, `console.log('progress'); console.log(JSON.stringify({ args: process.argv.slice(2), pid: process.pid }));\n`);
    const out = runSubRuns<{ args: string[]; pid: number }>(script, ['--runs', '2'], 3);
    expect(out.map((o) => o.args)).toEqual([
      ['--runs', '2'],
      ['--runs', '2'],
      ['--runs', '2'],
    ]);
    // Each a process of its own: that is the point of a sub-run.
    expect(new Set(out.map((o) => o.pid)).size).toBe(3);
  });

  it('throws naming the sub-run and the child error when a child fails', () => {
    const script = path.join(dir, 'fails.mjs');
    writeFileSync(script, `console.error('no corpus'); process.exit(2);\n`);
    expect(() => runSubRuns(script, [], 2)).toThrow(/sub-run 1 of 2 .*no corpus/s);
  });
});

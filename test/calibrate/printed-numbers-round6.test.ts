/**
 * audit26 (round 5 left them): `calibrate`'s "mean within source … passing stopped X %" line printed three bare means
 * over 11 sources, some of one run; the single-kind tables printed the steps saved per failing (and per stopped) run as
 * bare means. Each now has its 95 % interval (and the tables their n); the rates' interval keeps a one-run source's width.
 */
import { describe, expect, it } from 'vitest';
import { withinSourceMeans } from '../../src/core/calibrate/within-source.js';
import { runFacts, type TradeoffRun } from '../../src/core/calibrate/index.js';
import { meanOfRatesInterval } from '../../src/core/stats/interval.js';
import { cliShared } from '../cli/run-cli.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';
const IV = String.raw`\d+\.\d%( \[\d+\.\d%, \d+\.\d%\]| \[-\])`;

describe('calibrate prints the within-source means and the steps saved with intervals', () => {
  it('the mean within source line gives each mean an interval, the single-kind tables their steps saved one and n', async () => {
    const { code, stdout } = await cliShared('calibrate', '--runs', RUNS, '--split', 'none');
    expect(code).toBe(0);
    const line = stdout.split('\n').find((l) => l.startsWith('  mean within source ('));
    expect(line).toBeDefined();
    expect(line).toMatch(new RegExp(`passing stopped \\d+\\.\\d% \\[\\d+\\.\\d%, \\d+\\.\\d%\\], failing stopped \\d+\\.\\d% \\[\\d+\\.\\d%, \\d+\\.\\d%\\], failing tokens saved ${IV}$`));
    // The policy written without a held-out check stops some runs: 0.6 % of passing runs per source on average, over
    // 11 sources of which several have 1-3 passing runs: the upper end is far above the point.
    const hi = Number(/passing stopped [\d.]+% \[[\d.]+%, ([\d.]+)%\]/.exec(line!)![1]);
    expect(hi).toBeGreaterThan(10);
    const table = stdout.slice(stdout.indexOf('blindRetry: '), stdout.indexOf('regressionLoop: '));
    expect(table).toContain('steps saved/failing run [95%]');
    expect(table).toMatch(
      /\n +2 +14\/192 \(7\.3%, ≤11\.2%\) +91\/810 \(11\.2% \[9\.2%, 13\.6%\]\) +1\.1 \[\d\.\d, \d\.\d\] \(n 810\) +9\.9 \[\d+\.\d, \d+\.\d\] \(n 91\) +1\/1 \(100\.0%, ≤100\.0%\) +warn\n/,
    );
  });

  it('a small mean keeps its interval apart: decimals enough that the ends differ (0.0 [0.0, 0.0] was rounding)', async () => {
    const { code, stdout } = await cliShared('calibrate', '--runs', RUNS, '--split', 'none');
    expect(code).toBe(0);
    const table = stdout.slice(stdout.indexOf('regressionLoop: '), stdout.indexOf('cycle: '));
    // regressionLoop 3 stops 2 of 810 failing runs: 0.01 steps saved a failing run, its draws 0.00-0.03.
    expect(table).toMatch(/\n +3 +3\/192 .*? 0\.01 \[0\.00, 0\.0[1-9]\] \(n 810\)/);
    const collapsed = [...stdout.matchAll(/(\d+\.\d+) \[(\d+\.\d+), (\d+\.\d+)\] \(n \d+\)/g)].filter((m) => m[2] === m[3] && m[1] === m[2]);
    expect(collapsed.map((m) => m[0])).toEqual([]);
  });

  it('a source of one passing run keeps the interval of the mean wide (a bootstrap of its runs would not)', () => {
    const iv = meanOfRatesInterval([
      { k: 0, n: 100 },
      { k: 0, n: 1 },
    ])!;
    expect(iv.lo).toBe(0);
    expect(iv.hi).toBeGreaterThan(0.2);
    // One group: Agresti-Coull's interval (2 successes in 4 more trials).
    const one = meanOfRatesInterval([{ k: 3, n: 10 }])!;
    const pt = 5 / 14;
    expect(one.hi).toBeCloseTo(pt + 1.959964 * Math.sqrt((pt * (1 - pt)) / 14), 5);
    expect(meanOfRatesInterval([])).toBeNull();
  });

  it('withinSourceMeans leaves out sources without both outcomes and gives no token interval under 5 failing runs', () => {
    const state = { cost: 10 } as unknown as TradeoffRun['states'][number];
    const run = (source: string, passed: boolean): TradeoffRun => ({
      id: `${source}-${passed}`,
      task: 't',
      passed,
      states: [state, state, state],
      totals: { reference: [0, 0, 0], referenceFree: [0, 0, 0] },
      hasReference: false,
      source,
    });
    const runs = [run('a', true), run('a', false), run('a', false), run('b', true)];
    const w = withinSourceMeans(runs, runs.map(runFacts), [null, 0, null])!;
    expect(w.counted).toBe(1);
    expect(w.sources).toBe(2);
    expect(w.failingRate.mean).toBe(0.5);
    expect(w.failingTokenShare.mean).toBeCloseTo(20 / 60, 12);
    expect(w.failingTokenShare.interval).toBeNull();
    expect(w.failingRate.interval).not.toBeNull();
  });
});

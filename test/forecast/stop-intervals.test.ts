/**
 * audit30: `train`'s lowForecast rule table printed failing runs stopped as a bare count (`15 / 810`) and the
 * failing steps and tokens saved as bare shares (`0.2 %`), where calibrate's tables give each its interval. Each
 * point now carries a 95 % bootstrap interval of both shares, resampling the failing runs (as calibrate's), and the
 * table prints them, with a Wilson interval beside the failing runs stopped.
 */
import { describe, expect, it } from 'vitest';
import { checkStopApart } from '../../src/core/forecast/stop-apart.js';
import { evaluateForecastStop, type StopRun } from '../../src/core/forecast/stop-eval.js';
import { wilsonInterval } from '../../src/core/stats/interval.js';
import { cli } from '../cli/run-cli.js';

/** A run of `n` steps whose pPass is `p` at every step, each step costing `cost` tokens. */
const run = (passed: boolean, p: number, n: number, cost = 100): StopRun => ({ source: 'a', passed, pPass: new Float64Array(n).fill(p), costs: new Float64Array(n).fill(cost) });

describe("the lowForecast stop's saved shares", () => {
  it('carry a bootstrap interval over the failing runs that holds the point', () => {
    // 30 failing runs of 40-69 steps, a third of them with a low pPass (stopped), and 100 passing runs never stopped.
    const failing = Array.from({ length: 30 }, (_, i) => run(false, i % 3 === 0 ? 0.01 : 0.5, 40 + i, 50 + i));
    const e = evaluateForecastStop([...Array.from({ length: 100 }, () => run(true, 0.6, 50)), ...failing]);
    const p = e.points.find((x) => x.floor === 0.02 && x.minSteps === 20)!;
    expect(p.failingStopped).toBe(10);
    for (const [share, iv] of [
      [p.failingStepsSaved, p.failingStepsSavedInterval],
      [p.failingTokensSaved, p.failingTokensSavedInterval],
    ] as const) {
      expect(share).toBeGreaterThan(0);
      expect(iv).not.toBeNull();
      expect(iv!.lo).toBeLessThanOrEqual(share);
      expect(iv!.hi).toBeGreaterThanOrEqual(share);
      expect(iv!.hi).toBeGreaterThan(iv!.lo);
    }
    // A point that saves nothing has no interval to draw.
    const none = e.points.find((x) => x.failingStopped === 0);
    if (none) expect([none.failingStepsSavedInterval, none.failingTokensSavedInterval]).toEqual([null, null]);
  });

  it('and the choice checked apart from the runs that made it (its line under the table) carries one too', () => {
    // 200 passing runs above every floor, 100 failing ones of 40-59 steps at pPass 0.04, over 5 task folds.
    const runs = [...Array.from({ length: 200 }, () => run(true, 0.6, 50)), ...Array.from({ length: 100 }, (_, i) => run(false, 0.04, 40 + (i % 20), 50 + i))];
    const apart = checkStopApart(
      runs,
      runs.map((_, i) => i % 5),
      5,
      evaluateForecastStop(runs),
    );
    expect(apart.counts.failingStopped).toBe(100);
    const iv = apart.failingTokensSavedInterval;
    expect(iv).not.toBeNull();
    expect(iv!.lo).toBeLessThanOrEqual(apart.failingTokensSaved);
    expect(iv!.hi).toBeGreaterThanOrEqual(apart.failingTokensSaved);
    expect(iv!.hi).toBeGreaterThan(iv!.lo);
  });

  it("train's table prints them, and the failing runs stopped with a Wilson interval (the sample runs)", async () => {
    const r = await cli('train', '--out', '/dev/null', '--outcomes', 'examples/runs/outcomes.csv', 'examples/runs');
    const lines = r.stdout.split('\n');
    const head = lines.findIndex((l) => l.startsWith('rule ') && l.includes('passing stopped (upper bound)'));
    expect(lines[head]).toMatch(/failing stopped \[Wilson 95 %\] +failing steps saved \[95 %\] +failing tokens saved \[95 %\]/);
    const rows = lines.slice(head + 2).filter((l) => l.startsWith('pPass <'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const m = /\s(\d+) \/ (\d+) \(([\d.]+) % \[([\d.]+) %, ([\d.]+) %\]\)\s+([\d.]+) % (\[[^\]]*\])\s+([\d.]+) % (\[[^\]]*\])/.exec(row);
      expect(m, row).not.toBeNull();
      const w = wilsonInterval(Number(m![1]), Number(m![2]));
      expect([m![4], m![5]]).toEqual([(100 * w.lo).toFixed(1), (100 * w.hi).toFixed(1)]);
      // 3 failing runs: too few to resample.
      expect([m![7], m![9]]).toEqual(['[-]', '[-]']);
    }
  });
});

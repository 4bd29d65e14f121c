/**
 * audit21: the forecaster's calibration tables headed the observed pass rate "passed": `report --forecast` printed
 * "n 20 ... passed 1" for 20 runs that all passed (a share of 1, read as one run), and `train` did the same ("runs 199,
 * mean pPass 0.320, passed 0.322"). The column is the pass rate: it says so now, in report (terminal, Markdown, CSV)
 * and in train.
 */
import { describe, expect, it } from 'vitest';
import { forecastText } from '../../src/cli/train-forecast-text.js';
import { trainForecast } from '../../src/core/forecast/train.js';
import { syntheticSource } from '../forecast/synthetic-source.js';
import { cli } from '../cli/run-cli.js';

describe('the observed pass rate is headed as a rate', () => {
  it('report --forecast: calibration and reliability-diagram tables', async () => {
    const run = await cli('report', 'examples/runs', '--outcomes', 'examples/runs/outcomes.csv', '--forecast', 'bundled');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const header = (title: string) => lines[lines.findIndex((l) => l.startsWith(title)) + 1]!;
    expect(header('Calibration of pPass per source').split(/ +/)).toEqual([
      'source',
      'n',
      'mean_ppass',
      'pass_rate',
      'ece',
      'ece_lo',
      'ece_hi',
      'perfect_mean',
      'perfect_p95',
      'p',
      'debiased',
      'debiased_lo',
      'debiased_hi',
    ]);
    expect(header('Reliability diagram of pPass').split(/ +/)).toEqual(['source', 'bin', 'n', 'mean_ppass', 'pass_rate', 'pass_rate_lo', 'pass_rate_hi']);
  });

  it('train: the calibration and reliability tables', () => {
    const r = trainForecast([...syntheticSource('A', 12, 12, 1), ...syntheticSource('B', 12, 12, 2)], { folds: 3, seed: 1, reps: 100 });
    const text = forecastText(r.evaluation, r.models);
    expect(text).toMatch(/\nsource +runs +mean pPass +pass rate \[95 %: Wilson, tasks' design effect\] +ECE \(10 bins\)/);
    expect(text).not.toMatch(/mean pPass +passed/);
  });
});

/**
 * audit21: counts of one printed in the plural: `train` on one source said "over 1 sources" and "(1 sources)", its
 * head line "on 1 tasks", and report's χ² note "(have 1 Lucky passes, 1 models, 1 categories)".
 */
import { describe, expect, it } from 'vitest';
import { forecastText } from '../../src/cli/train-forecast-text.js';
import { trainForecast } from '../../src/core/forecast/train.js';
import { luckyChiSquare } from '../../src/report/statistics.js';
import type { TrajectoryRow } from '../../src/report/types.js';
import { cli } from '../cli/run-cli.js';
import { syntheticSource } from './synthetic-source.js';

describe('counts of one in the singular', () => {
  it('train on one source: "over 1 source", "(1 source)"', () => {
    const r = trainForecast(syntheticSource('A', 6, 6, 1), { folds: 3, seed: 1, reps: 100 });
    const text = forecastText(r.evaluation, r.models);
    expect(text).toContain('over 1 source (run length alone');
    expect(text).toContain('mean within source (1 source)');
    expect(text).not.toMatch(/\b1 sources\b/);
  });

  it('report: the χ² note of one Lucky pass of one model', () => {
    const row = { outcome: 'pass', lucky: 'C2', source: 'CodeR + gpt-4' } as unknown as TrajectoryRow;
    expect(luckyChiSquare([row]).note).toBe('needs Lucky passes of at least 2 models in at least 2 categories (have 1 Lucky pass, 1 model, 1 category)');
  });

  it('calibrate on one task: "splitting 1 task"', async () => {
    const run = await cli('calibrate', 'examples/runs/mini-swe-agent/deepseek_chat_dev', '--outcomes', 'examples/runs/outcomes.csv');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^steplens calibrate: splitting 1 task \(seed 1, hold-out 0\.5\) leaves a half without runs\n$/);
  });
});

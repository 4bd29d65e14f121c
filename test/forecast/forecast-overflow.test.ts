/**
 * A forecast file of finite JSON numbers can still give a NaN pPass: weights of 1e308 overflow the linear score to
 * ±Infinity (Infinity · 0 or Infinity − Infinity is NaN). Such a file once loaded, `rank` printed NaN scores ranked
 * 1, 2, 3 and `report --forecast` never finished; it is now refused on load with one error naming the problem.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FORECAST_FORMAT, FORECAST_SCHEMA, parseForecast, type ForecastModel } from '../../src/core/forecast/model.js';
import { cli } from '../cli/run-cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-overflow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = (weights: number[], scale = [0.3, 2], mean = [0, 0], intercept = 0): ForecastModel => ({
  match: {},
  features: ['logSteps', 'shareE'],
  mean,
  scale,
  weights,
  intercept,
  calibration: { a: 0, b: 1 },
  trainedOn: { runs: 10, passing: 5, tasks: 5 },
});
const file = (m: ForecastModel) => ({ format: FORECAST_FORMAT, schema: FORECAST_SCHEMA, version: 1, createdAt: '2026-12-01T00:00:00.000Z', models: [m] });

describe('a forecast file whose weights overflow', () => {
  it('is refused by parseForecast, naming the model and why', () => {
    expect(parseForecast(file(model([0.4, -0.2]))).ok).toBe(true);
    const cases: Array<[ForecastModel, RegExp]> = [
      // 1e308 / 0.3 is Infinity.
      [model([1e308, 1e308]), /^invalid forecast model: models\.0: weights\.0 \/ scale\.0 \(1e\+308 \/ 0\.3\) overflows, so pPass would not be a number; retrain with steplens train$/],
      // 1e308 / 2 is finite, but the score over a feature of 1 already is not.
      [model([0.1, 1e308], [0.3, 2]), /^invalid forecast model: models\.0: its weights \(up to 1e\+308 in magnitude\) make the linear score overflow, so pPass/],
      // Finite coefficients whose mean terms overflow the intercept.
      [model([1e300, 0], [1, 1], [1e10, 0]), /make the linear score overflow/],
    ];
    for (const [m, message] of cases) {
      const r = parseForecast(file(m));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(message);
    }
  });

  it('makes rank and report exit 1 with that one line, before scoring anything', async () => {
    const f = path.join(dir, 'big.json');
    writeFileSync(f, JSON.stringify(file(model([1e308, 1e308]))));
    const runs = path.resolve('examples/runs');
    const traj = path.join(runs, 'mini-swe-agent/deepseek_chat_dev/pylint-dev__astroid-1196.traj.json');
    for (const args of [
      ['rank', '--forecast', f, traj],
      ['report', runs, '--outcomes', path.join(runs, 'outcomes.csv'), '--forecast', f],
    ]) {
      const r = await cli(...args);
      expect(r.code, args[0]).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual([
        `steplens ${args[0]}: ${f}: invalid forecast model: models.0: weights.0 / scale.0 (1e+308 / 0.3) overflows, so pPass would not be a number; retrain with steplens train`,
      ]);
    }
  }, 60_000);
});

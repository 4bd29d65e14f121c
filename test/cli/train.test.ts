/** `steplens train` on the real corpus (outcomes from the evaluation files beside its runs). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ForecastEvaluation } from '../../src/core/forecast/evaluate.js';
import { parseForecast } from '../../src/core/forecast/model.js';
import type { PriorWeightsReport } from '../../src/core/forecast/prior-weights.js';
import { CORPUS, cli } from './run-cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('steplens train', () => {
  it('writes a versioned model file with its held-out evaluation and prints the tables', async () => {
    const out = path.join(dir, 'forecast.json');
    const r = await cli('train', '--out', out, '--folds', '3', CORPUS);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/held out, 3 task-disjoint folds/);
    expect(r.stdout).toMatch(/reliability at the end of each run/);
    expect(r.stdout).toMatch(/lowForecast stop rule/);
    expect(r.stdout).toMatch(/reference-free composite, leave one source out/);
    const doc: unknown = JSON.parse(readFileSync(out, 'utf8'));
    const parsed = parseForecast(doc);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.version).toBe(1);
    // The evaluation `train` writes (free-form in the file's schema).
    const e = parsed.value.evaluation as { runs: number; forecast: ForecastEvaluation; referenceFree: PriorWeightsReport };
    expect(e.runs).toBeGreaterThanOrEqual(40);
    expect(Object.keys(e.forecast.overall.at)).toEqual(['10', '20', '40']);
    expect(e.forecast.reliability).toHaveLength(10);
    expect(Object.keys(e.forecast.bySource).length).toBeGreaterThan(3);
    expect(e.referenceFree.chosen.weights).toBeDefined();
  }, 120_000);

  it('names a bad option in one line', async () => {
    const r = await cli('train', CORPUS);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--out FORECAST.json is required/);
    const b = await cli('train', '--out', path.join(dir, 'x.json'), '--by', 'team', CORPUS);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/--by must be 'agent' or 'model'/);
  });
});

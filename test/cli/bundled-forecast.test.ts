/**
 * `--forecast bundled`: the forecaster shipped in data/forecast.json (scripts/train-bundled-forecast.sh, trained on
 * the team's public runs with known outcomes; docs/forecast.md "The bundled forecaster"). score, rank, report and
 * serve take the word where they take a model file, and load that file.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_FORECAST, bundledForecastFile, forecastFileArg, packageRoot } from '../../src/package-files.js';
import { serverConfig } from '../../src/server/config.js';
import { readForecastFile } from '../../src/settings-files.js';
import { cli } from './run-cli.js';

const runs = path.join(packageRoot(), 'examples', 'runs', 'mini-swe-agent');
const A1196 = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].map((n) => path.join(runs, n, 'pylint-dev__astroid-1196.traj.json'));

/** The part of `train`'s evaluation read here. */
interface HeldOut {
  end: { withinSource: { mean: number; sources: Array<{ counted: boolean }> } };
}

describe('the bundled forecaster', () => {
  it('is a model trained on about a thousand runs of several sources, carrying its held-out evaluation', async () => {
    const file = await readForecastFile(bundledForecastFile());
    const sources = file.models.filter((m) => m.match.agent !== undefined);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    expect(file.models.some((m) => m.match.agent === undefined && m.match.model === undefined)).toBe(true);
    expect(file.models[0]!.trainedOn.runs).toBeGreaterThanOrEqual(1000);
    // The headline docs/forecast.md quotes: each source ranked by a model fitted without it.
    const raw = JSON.parse(readFileSync(bundledForecastFile(), 'utf8')) as { evaluation: { forecast: { leaveSourceOut: HeldOut } } };
    const held = raw.evaluation.forecast.leaveSourceOut.end.withinSource;
    expect(held.sources.filter((s) => s.counted).length).toBeGreaterThanOrEqual(3);
    expect(held.mean).toBeGreaterThan(0.7);
  });

  it('score and rank read `--forecast bundled` as the shipped file', async () => {
    expect(forecastFileArg(BUNDLED_FORECAST)).toBe(bundledForecastFile());
    expect(forecastFileArg('my.json')).toBe('my.json');
    const byWord = await cli('score', '--forecast', 'bundled', '--json', A1196[0]!);
    const byPath = await cli('score', '--forecast', bundledForecastFile(), '--json', A1196[0]!);
    expect(byWord.code, byWord.stderr).toBe(0);
    const pPass = (JSON.parse(byWord.stdout) as { pPass?: number }).pPass;
    expect(pPass).toBeGreaterThan(0);
    expect(pPass).toBeLessThan(1);
    expect(pPass).toBe((JSON.parse(byPath.stdout) as { pPass?: number }).pPass);
    const ranked = await cli('rank', '--forecast', 'bundled', '--json', ...A1196);
    expect(ranked.code, ranked.stderr).toBe(0);
    const doc = JSON.parse(ranked.stdout) as { by: string; runs: Array<{ score: number }> };
    expect(doc.by).toBe('pPass');
    expect(doc.runs).toHaveLength(3);
  });

  it('report scores by it and counts the runs it was trained on, whose pPass is in-sample', async () => {
    const outcomes = path.join(packageRoot(), 'examples', 'runs', 'outcomes.csv');
    // It lists every run it was trained on (a parser that reads these logs differently would drop them from the list).
    const file = await readForecastFile(bundledForecastFile());
    expect(file.trainedRuns?.runs).toHaveLength(file.models[0]!.trainedOn.runs);
    const r = await cli('report', '--json', '--outcomes', outcomes, '--forecast', 'bundled', ...A1196);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { inputs: { forecastInSample?: { inSample: number; withPPass: number } }; trajectories: Array<{ pPass?: number }> };
    expect(doc.trajectories.map((t) => typeof t.pPass)).toEqual(['number', 'number', 'number']);
    // The sample runs are among the public runs it was trained on.
    expect(doc.inputs.forecastInSample).toMatchObject({ inSample: 3, withPPass: 3 });
    const text = await cli('report', '--outcomes', outcomes, '--forecast', bundledForecastFile(), ...A1196);
    expect(text.stdout).toContain('warning: 3 of 3 runs with a pPass are runs the forecaster was trained on');
    const plain = await cli('report', '--outcomes', outcomes, ...A1196);
    expect(plain.stdout).not.toContain('trained on');
  });

  it('serve loads it from --forecast bundled or STEPLENS_FORECAST=bundled; a missing file is still named', async () => {
    const data = mkdtempSync(path.join(os.tmpdir(), 'steplens-bundled-forecast-'));
    for (const [argv, env] of [
      [['--forecast', 'bundled'], {}],
      [[], { STEPLENS_FORECAST: 'bundled' }],
    ] as const) {
      const config = await serverConfig([...argv, '--data', data, '--no-seed'], env, '/');
      expect(config.app.forecast?.models.length).toBeGreaterThanOrEqual(4);
    }
    await expect(serverConfig(['--forecast', 'bundled.json', '--data', data], {}, data)).rejects.toMatchObject({
      message: expect.stringContaining(path.join(data, 'bundled.json')) as unknown,
    });
  });
});

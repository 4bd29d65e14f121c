/**
 * `report --forecast FILE` on runs the forecaster was trained on: pPass separation, calibration and best-of-N on
 * them are in-sample. `train` lists its runs by fingerprint in the file (`trainedRuns`), whatever their paths or
 * order; `report` counts the runs with a pPass among them (report.json `inputs.forecastInSample`, per source) and
 * says so in a headline warning; on runs it was not trained on it says nothing; on a file without the list, that it
 * cannot tell.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForecast, type ForecastFile } from '../../src/core/forecast/model.js';
import { packageRoot } from '../../src/package-files.js';
import type { ForecastInSample } from '../../src/report/types.js';
import { cli } from './run-cli.js';

const examples = path.join(packageRoot(), 'examples', 'runs');
const outcomes = path.join(examples, 'outcomes.csv');
/** Three real runs that are not among the examples (test/fixtures/SOURCES.md). */
const fixtures = ['coder__django__django-11797.traj.gz', 'coder__sympy__sympy-13971.traj.gz', 'swe-agent-0__django__django-11564.traj.gz'].map((f) => path.join(packageRoot(), 'test', 'fixtures', f));
const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-in-sample-'));
const trained = path.join(dir, 'forecast.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readFile = (file: string): ForecastFile => {
  const parsed = parseForecast(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

async function report(forecast: string, ...paths: string[]): Promise<{ inSample: ForecastInSample | undefined; stdout: string }> {
  const json = await cli('report', '--json', '--outcomes', outcomes, '--forecast', forecast, ...paths);
  expect(json.code, json.stderr).toBe(0);
  const text = await cli('report', '--outcomes', outcomes, '--forecast', forecast, ...paths);
  expect(text.code, text.stderr).toBe(0);
  return { inSample: (JSON.parse(json.stdout) as { inputs: { forecastInSample?: ForecastInSample } }).inputs.forecastInSample, stdout: text.stdout };
}

beforeAll(async () => {
  const r = await cli('train', '--out', trained, '--outcomes', outcomes, '--folds', '2', examples);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

describe('train lists the runs it was trained on', () => {
  it('one fingerprint per run trained on, sorted, the same from another folder with the inputs in another order', async () => {
    const file = readFile(trained);
    const runs = file.models[0]!.trainedOn.runs;
    expect(runs).toBeGreaterThanOrEqual(5);
    expect(file.trainedRuns?.fingerprint).toBe('steps-sha256-16');
    expect(file.trainedRuns!.runs).toHaveLength(runs);
    expect(file.trainedRuns!.runs).toEqual([...file.trainedRuns!.runs].sort());
    // The same logs copied elsewhere, their folders given one by one in reverse order.
    const copy = path.join(dir, 'elsewhere', 'logs');
    cpSync(examples, copy, { recursive: true });
    const folders = readdirSync(copy, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => path.join(copy, d.name))
      .sort()
      .reverse();
    const other = path.join(dir, 'other.json');
    const r = await cli('train', '--out', other, '--outcomes', path.join(copy, 'outcomes.csv'), '--folds', '2', ...folders);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`its ${runs} training runs listed by fingerprint`);
    expect(readFile(other).trainedRuns).toEqual(file.trainedRuns);
  }, 60_000);
});

describe('report --forecast on runs the forecaster was trained on', () => {
  it('counts them in report.json and warns in the headline', async () => {
    const runs = readFile(trained).models[0]!.trainedOn.runs;
    const { inSample, stdout } = await report(trained, examples);
    // Every run train fitted on, and one it did not: the ATIF run, which outcomes.csv gives no outcome.
    expect(inSample).toMatchObject({ checked: true, inSample: runs, withPPass: runs + 1 });
    expect(inSample!.bySource.reduce((n, s) => n + s.inSample!, 0)).toBe(runs);
    expect(inSample!.bySource.filter((s) => s.inSample === 0).map((s) => s.withPPass)).toEqual([1]);
    expect(stdout).toContain(`warning: ${runs} of ${runs + 1} runs with a pPass are runs the forecaster was trained on (`);
    expect(stdout).toMatch(/the pPass separation, calibration and best-of-N include them in-sample, so they are optimistic/);
  }, 60_000);

  it('counts only those among other runs, per source', async () => {
    const { inSample, stdout } = await report(trained, path.join(examples, 'mini-swe-agent'), ...fixtures);
    expect(inSample?.checked).toBe(true);
    expect(inSample?.withPPass).toBe(7);
    expect(inSample?.inSample).toBe(4);
    expect(inSample?.bySource).toEqual([
      { source: 'mini-swe-agent 2.2.7 + deepseek/deepseek-chat', inSample: 4, withPPass: 4 },
      { source: 'swe-agent + (model not named) fixtures', inSample: 0, withPPass: 3 },
    ]);
    expect(stdout).toContain('warning: 4 of 7 runs with a pPass are runs the forecaster was trained on (mini-swe-agent 2.2.7 + deepseek/deepseek-chat 4 of 4)');
  }, 60_000);

  it('says nothing on runs it was not trained on', async () => {
    const { inSample, stdout } = await report(trained, ...fixtures);
    expect(inSample).toMatchObject({ checked: true, inSample: 0, withPPass: 3 });
    expect(stdout).not.toMatch(/trained on|in-sample/);
  }, 60_000);

  it('loads a file that does not list its runs, and says that it cannot tell', async () => {
    const raw = JSON.parse(readFileSync(trained, 'utf8')) as Record<string, unknown>;
    delete raw.trainedRuns;
    const old = path.join(dir, 'old.json');
    writeFileSync(old, JSON.stringify(raw));
    const { inSample, stdout } = await report(old, examples);
    expect(inSample).toMatchObject({ checked: false, inSample: null });
    expect(stdout).toContain('the forecaster does not list the runs it was trained on');
    expect(stdout).not.toContain('warning: ');
    // Without --forecast there is nothing to count.
    const plain = await cli('report', '--json', '--outcomes', outcomes, ...fixtures);
    expect((JSON.parse(plain.stdout) as { inputs: object }).inputs).not.toHaveProperty('forecastInSample');
  }, 60_000);
});

describe('score and rank --forecast name a run the forecaster was trained on', () => {
  const mini = (run: string) => path.join(examples, 'mini-swe-agent', run, 'pylint-dev__astroid-1196.traj.json');

  it('score warns on stderr for a training run, not for another, nor without --forecast', async () => {
    const seen = await cli('score', '--json', '--forecast', trained, mini('deepseek_chat_dev'));
    expect(seen.code, seen.stderr).toBe(0);
    expect(seen.stderr).toContain(`warning: ${mini('deepseek_chat_dev')} is a run the forecaster was trained on: its pPass is in-sample (optimistic)`);
    const unseen = await cli('score', '--json', '--forecast', trained, fixtures[2]!);
    expect(unseen.code, unseen.stderr).toBe(0);
    expect(unseen.stderr).not.toContain('trained on');
    const plain = await cli('score', '--json', mini('deepseek_chat_dev'));
    expect(plain.stderr).not.toContain('trained on');
  }, 60_000);

  it('score marks the pPass itself: pPassInSample in --json and --jsonl (as POST /v1/score, rank --json), a note beside it in text', async () => {
    // audit19: the JSON carried pPass alone, so a script reading --jsonl over many runs could not tell which were in-sample.
    const doc = (stdout: string) => JSON.parse(stdout) as { pPass?: number; pPassInSample?: boolean };
    expect(doc((await cli('score', '--json', '--forecast', trained, mini('deepseek_chat_dev'))).stdout).pPassInSample).toBe(true);
    expect(doc((await cli('score', '--json', '--forecast', trained, fixtures[2]!)).stdout).pPassInSample).toBe(false);
    expect(doc((await cli('score', '--json', mini('deepseek_chat_dev'))).stdout)).not.toHaveProperty('pPassInSample');
    const lines = (await cli('score', '--jsonl', '--forecast', trained, mini('deepseek_chat_dev'), fixtures[2]!)).stdout.trim().split('\n').map(doc);
    expect(lines.map((l) => l.pPassInSample)).toEqual([true, false]);
    const text = await cli('score', '--forecast', trained, mini('deepseek_chat_dev'), fixtures[2]!);
    const pPassLines = text.stdout.split('\n').filter((l) => l.startsWith('forecast P(pass)'));
    expect(pPassLines).toEqual([
      expect.stringMatching(/^forecast P\(pass\) \d\.\d{3} \(in-sample: the forecaster was trained on this run, so optimistic\)$/),
      expect.stringMatching(/^forecast P\(pass\) \d\.\d{3}$/),
    ]);
  }, 60_000);

  it('rank names the training runs of the group in one line', async () => {
    const runs = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun'].map(mini);
    const r = await cli('rank', '--forecast', trained, ...runs);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${runs.join(', ')} are runs the forecaster was trained on: their pPass is in-sample (optimistic)`);
  }, 60_000);
});

/**
 * `serve --forecast FILE` where FILE lists its training runs (`steplens train` writes `trainedRuns`): a run scored
 * over HTTP that the forecaster was trained on says so (`pPassInSample: true`), as `report` and the CLI do, so a
 * client measuring pPass over `POST /v1/score` or `/v1/rank` can leave in-sample runs out; a run it was not trained
 * on says `false`; a file without the list says nothing (it cannot tell). Real runs, a real `train`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForecast, type ForecastFile } from '../../src/core/forecast/model.js';
import { packageRoot } from '../../src/package-files.js';
import { scoreResponseSchema } from '../../src/protocol/report-schemas.js';
import { cli } from '../cli/run-cli.js';
import { removeDir, startApp, tempDir } from './helpers.js';

const examples = path.join(packageRoot(), 'examples', 'runs');
/** Two runs `train` is given (in examples/runs/outcomes.csv) and one it is not (test/fixtures/SOURCES.md). */
const trainedOn = [
  { task: 'pylint-dev__astroid-1196', file: path.join(examples, 'mini-swe-agent', 'deepseek_chat_dev', 'pylint-dev__astroid-1196.traj.json') },
  { task: 'pylint-dev__astroid-1196', file: path.join(examples, 'mini-swe-agent', 'deepseek_chat_dev_rerun', 'pylint-dev__astroid-1196.traj.json') },
];
const unseen = { task: 'django__django-11564', file: path.join(packageRoot(), 'test', 'fixtures', 'swe-agent-0__django__django-11564.traj.gz') };
const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-serve-in-sample-'));
const out = path.join(dir, 'forecast.json');
let file: ForecastFile;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const trajectoryOf = (f: string): unknown => JSON.parse(f.endsWith('.gz') ? gunzipSync(readFileSync(f)).toString('utf8') : readFileSync(f, 'utf8'));
const post = async (url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  const r = await cli('train', '--out', out, '--outcomes', path.join(examples, 'outcomes.csv'), '--folds', '2', examples);
  expect(r.code, r.stderr).toBe(0);
  const parsed = parseForecast(JSON.parse(readFileSync(out, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error);
  file = parsed.value;
  expect(file.trainedRuns?.runs.length).toBeGreaterThanOrEqual(5);
}, 60_000);

describe('HTTP scoring names in-sample pPass', () => {
  it('POST /v1/score, /v1/score/batch, /v1/score/steps and /v1/rank: true for a run trained on, false for another', async () => {
    const data = await tempDir();
    const srv = await startApp({ dataDir: data, forecast: file });
    try {
      for (const run of trainedOn) {
        const r = await post(`${srv.url}/v1/score`, { task: run.task, trajectory: trajectoryOf(run.file) });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        expect(scoreResponseSchema.safeParse(r.json).success).toBe(true);
        expect(typeof r.json.pPass).toBe('number');
        expect(r.json.pPassInSample, run.file).toBe(true);
      }
      const other = await post(`${srv.url}/v1/score`, { task: unseen.task, trajectory: trajectoryOf(unseen.file) });
      expect(other.status).toBe(200);
      expect(other.json.pPassInSample).toBe(false);

      const batch = await post(`${srv.url}/v1/score/batch`, {
        items: [
          { task: trainedOn[0]!.task, trajectory: trajectoryOf(trainedOn[0]!.file) },
          { task: unseen.task, trajectory: trajectoryOf(unseen.file) },
        ],
      });
      expect(batch.status).toBe(200);
      expect((batch.json.results as Array<{ pPassInSample?: boolean }>).map((x) => x.pPassInSample)).toEqual([true, false]);

      const steps = await post(`${srv.url}/v1/score/steps`, { task: trainedOn[1]!.task, trajectory: trajectoryOf(trainedOn[1]!.file) });
      expect(steps.status, JSON.stringify(steps.json).slice(0, 300)).toBe(200);
      expect((steps.json.report as { pPassInSample?: boolean }).pPassInSample).toBe(true);

      // One task's group: both runs trained on; the answer keeps each run's flag beside its pPass.
      const rank = await post(`${srv.url}/v1/rank`, { runs: trainedOn.map((r, i) => ({ id: `r${i}`, trajectory: trajectoryOf(r.file) })) });
      expect(rank.status, JSON.stringify(rank.json).slice(0, 300)).toBe(200);
      const ranked = rank.json.runs as Array<{ id: string; pPass?: number; pPassInSample?: boolean }>;
      expect(ranked.map((r) => [r.id, r.pPassInSample]).sort()).toEqual([
        ['r0', true],
        ['r1', true],
      ]);
    } finally {
      await srv.app.close();
      await removeDir(data);
    }
  });

  it('a forecast file that lists no training runs: pPass without the flag (it cannot tell)', async () => {
    const data = await tempDir();
    const { trainedRuns: _dropped, ...unlisted } = file;
    const srv = await startApp({ dataDir: data, forecast: unlisted });
    try {
      const r = await post(`${srv.url}/v1/score`, { task: trainedOn[0]!.task, trajectory: trajectoryOf(trainedOn[0]!.file) });
      expect(r.status).toBe(200);
      expect(typeof r.json.pPass).toBe('number');
      expect('pPassInSample' in r.json).toBe(false);
    } finally {
      await srv.app.close();
      await removeDir(data);
    }
  });
});

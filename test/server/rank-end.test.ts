/**
 * `POST /v1/rank` with `"rankModel"` (issue 26 item 3; docs/rank.md "The end-of-run model on the server"): a server
 * started with a forecast file holding an end-of-run model (test/fixtures/forecast-end, as `serve --forecast` loads
 * it) scores each trajectory by it, through a scoring worker, and its pPass equals `steplens rank --rank-model end
 * --json` on the same files with the same file (online == batch); a live session keeps the prefix model, and the
 * answer says per run which model gave its pPass. A file without an end model, or no forecast model at all, is one
 * `no_forecast_model` error naming what is missing. Real runs of one task (the three pylint-dev__astroid-1196 runs).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForecast } from '../../src/core/forecast/model.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { packageRoot } from '../../src/package-files.js';
import { rankResponseSchema, type RankResponse } from '../../src/protocol/rank-bodies.js';
import { RANK_BIN, rankJson } from '../cli/rank-bin.js';
import { ASTROID, Client, readDoc, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

const FILES = [ASTROID.passA, ASTROID.passB, ASTROID.fail];
const FIXTURE = path.join(packageRoot(), 'test', 'fixtures', 'forecast-end', 'forecast-end.json.gz');
const parsed = parseForecast(JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')));
if (!parsed.ok) throw new Error(parsed.error);
const withEnd = parsed.value;
const { end: _end, ...withoutEnd } = withEnd;

interface Answer extends Partial<RankResponse> {
  error?: { code: string; message: string };
}

describe.skipIf(!existsSync(RANK_BIN))('POST /v1/rank "rankModel"', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-rank-end-srv-'));
  const modelFile = path.join(dir, 'forecast-end.json');
  writeFileSync(modelFile, JSON.stringify(withEnd));
  let data: string;
  let srv: Running;
  let noEnd: Running;
  let none: Running;
  beforeAll(async () => {
    data = await tempDir();
    srv = await startApp({ dataDir: `${data}/a`, forecast: withEnd, scoringWorkers: 1 });
    noEnd = await startApp({ dataDir: `${data}/b`, forecast: withoutEnd });
    none = await startApp({ dataDir: `${data}/c` });
  });
  afterAll(async () => {
    for (const s of [srv, noEnd, none]) await s.app.close();
    await removeDir(data);
    rmSync(dir, { recursive: true, force: true });
  });
  const rank = async (s: Running, body: unknown): Promise<{ status: number; body: Answer }> => {
    const res = await fetch(`${s.url}/v1/rank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Answer };
  };
  const trajectories = async () => (await Promise.all(FILES.map(readDoc))).map((trajectory) => ({ trajectory }));

  it('"end": each trajectory\'s pPass is rank --rank-model end --json\'s on the same files and model file, and the order with it', async () => {
    const batch = rankJson('--forecast', modelFile, '--rank-model', 'end', ...FILES);
    const online = await rank(srv, { runs: await trajectories(), rankModel: 'end' });
    expect(online.status, JSON.stringify(online.body)).toBe(200);
    expect(rankResponseSchema.safeParse(online.body).success).toBe(true);
    expect(online.body.rankModel).toBe('end');
    expect(online.body.by).toBe('pPass');
    // The pPass and order (the composite is each side's reference-free one: the server's prior is its data folder's, the CLI's the bundled references').
    expect(online.body.runs!.map((x) => [x.index, x.pPass, x.score, x.steps])).toEqual(batch.runs.map((x) => [x.index, x.pPass, x.score, x.steps]));
    expect(online.body.runs!.every((x) => x.pPassModel === 'end')).toBe(true);
    // The end model is what moved them: the prefix model gives other values (and batch's prefix answer is the server's).
    const prefixBatch = rankJson('--forecast', modelFile, ...FILES);
    const prefix = await rank(srv, { runs: await trajectories(), rankModel: 'prefix' });
    expect(prefix.body.rankModel).toBe('prefix');
    expect(prefix.body.runs!.map((x) => [x.index, x.pPass, x.pPassModel])).toEqual(prefixBatch.runs.map((x) => [x.index, x.pPass, 'prefix']));
    for (const x of online.body.runs!) expect(x.pPass).not.toBe(prefix.body.runs!.find((y) => y.index === x.index)!.pPass);
    // Not asked: the answer as before, with neither field.
    const plain = await rank(srv, { runs: await trajectories() });
    expect(plain.body.rankModel).toBeUndefined();
    expect(plain.body.runs!.map((x) => [x.index, x.pPass, x.pPassModel])).toEqual(prefixBatch.runs.map((x) => [x.index, x.pPass, undefined]));
  });

  it('"end" with a live session: the session keeps the prefix model, the trajectories take the end model, each says which', async () => {
    const log = parseTrajectoryText(readFileSync(ASTROID.fail, 'utf8'), 'auto', ASTROID.fail);
    if (!log.ok) throw log.error;
    const { agent, model } = log.value.meta;
    const steps = await readSteps(ASTROID.fail);
    const c = await Client.connect(srv.wsUrl);
    try {
      c.send({ type: 'start', session: 'live', task: ASTROID.task, agent, model });
      await c.nextOf('started', 'live');
      steps.forEach((step, seq) => c.send({ type: 'step', session: 'live', seq, step }));
      c.send({ type: 'end', session: 'live' });
      await c.nextOf('final', 'live');
    } finally {
      c.close();
    }
    const docs = await trajectories();
    const r = await rank(srv, { runs: [docs[0], docs[1], { session: 'live' }], rankModel: 'end' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const byIndex = new Map(r.body.runs!.map((x) => [x.index, x]));
    expect([0, 1, 2].map((i) => byIndex.get(i)!.pPassModel)).toEqual(['end', 'end', 'prefix']);
    const prefixBatch = rankJson('--forecast', modelFile, ...FILES);
    const endBatch = rankJson('--forecast', modelFile, '--rank-model', 'end', ...FILES);
    // The session's pPass is the prefix model's at its last step (batch's, for the same run), the trajectories' the end model's.
    expect(byIndex.get(2)!.pPass).toBe(prefixBatch.runs.find((x) => x.index === 2)!.pPass);
    for (const i of [0, 1]) expect(byIndex.get(i)!.pPass).toBe(endBatch.runs.find((x) => x.index === i)!.pPass);
  });

  it('refuses "end" from a forecast file without an end model, and any rankModel without a forecast model: one no_forecast_model error', async () => {
    const runs = await trajectories();
    const noEndModel = await rank(noEnd, { runs, rankModel: 'end' });
    expect(noEndModel.status).toBe(409);
    expect(noEndModel.body.error?.code).toBe('no_forecast_model');
    expect(noEndModel.body.error?.message).toBe(
      `rankModel "end": the server's forecast model (version ${withoutEnd.version}) has no end-of-run model (serve --forecast FILE with a file trained with steplens train --end-model; the bundled one has none)`,
    );
    // The same server ranks by its prefix model as before.
    expect((await rank(noEnd, { runs, rankModel: 'prefix' })).body.by).toBe('pPass');
    for (const asked of ['end', 'prefix']) {
      const r = await rank(none, { runs, rankModel: asked });
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('no_forecast_model');
      expect(r.body.error?.message).toContain(`rankModel "${asked}": this server has no forecast model`);
    }
    expect((await rank(none, { runs })).body.by).toBe('reference-free');
    const bad = await rank(srv, { runs, rankModel: 'best' });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('bad_message');
    expect(bad.body.error?.message).toContain('rankModel');
  });
});

/** HTTP-only: requests go through fastify's `inject` (no port, no socket). */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { serverConfig } from '../../src/server/config.js';
import { ASTROID, readDoc, readSteps, removeDir, tempDir, useInjectApp } from './helpers.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../data/example');

/** The parts of the answers these tests read (reports, batch results, OpenRLHF rewards, errors). */
interface Answer {
  error?: { code: string; message: string };
  results?: unknown[];
  score?: { total: number; struct: number | null; coh: number };
  steps?: number;
  reference?: { kind: string };
  rewards?: number[];
  scores?: number[];
  extra_logs?: Record<string, number[]>;
}

const app = useInjectApp({ seedDirs: [EXAMPLES] });

async function postTo(server: FastifyInstance, route: string, body: unknown): Promise<{ status: number; body: Answer }> {
  const res = await server.inject({ method: 'POST', url: route, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json<Answer>() };
}

const post = (route: string, body: unknown) => postTo(app(), route, body);

describe('POST /v1/score/batch', () => {
  it('answers one result per item, in order, equal to POST /v1/score; a bad item gets its own error and the others still score', async () => {
    const docs = await Promise.all([ASTROID.passA, ASTROID.fail].map(readDoc));
    const singles = await Promise.all(docs.map((trajectory) => post('/v1/score', { task: ASTROID.task, trajectory })));
    const batch = await post('/v1/score/batch', {
      items: [
        { task: ASTROID.task, trajectory: docs[0] },
        { task: ASTROID.task, trajectory: { hello: 'world' } },
        { task: ASTROID.task, trajectory: docs[1] },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.results).toHaveLength(3);
    expect(batch.body.results![0]).toEqual(singles[0]!.body);
    expect(batch.body.results![1]).toEqual({ error: { code: 'unknown_format', message: expect.stringMatching(/^items\[1\]\.trajectory: /) } });
    expect(batch.body.results![2]).toEqual(singles[1]!.body);
    expect(singles[0]!.body.reference?.kind).toBe('pta');
  });

  it('refuses an empty or malformed batch naming the field', async () => {
    expect(await post('/v1/score/batch', { items: [] })).toMatchObject({ status: 400, body: { error: { code: 'bad_message', message: expect.stringMatching(/^body\.items: /) } } });
    expect(await post('/v1/score/batch', { items: [{ trajectory: {} }] })).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/^body\.items\[0\]\.task: /) } } });
  });
});

describe('POST /get_reward (OpenRLHF remote reward model)', () => {
  it('scores each query like POST /v1/score: prompt stripped, label = task id, rewards = composite / 100', async () => {
    const texts = await Promise.all([ASTROID.passA, ASTROID.fail].map((f) => readFile(f, 'utf8')));
    const expected = await Promise.all(texts.map((t) => post('/v1/score', { task: ASTROID.task, trajectory: JSON.parse(t) })));
    const prompt = 'Fix the issue in the repository.\n';
    const res = await post('/get_reward', { query: texts.map((t) => prompt + t), prompts: [prompt, prompt], labels: [ASTROID.task, JSON.stringify({ task: ASTROID.task, passed: false })] });
    expect(res.status).toBe(200);
    const totals = expected.map((e) => e.body.score!.total / 100);
    expect(res.body.rewards).toEqual(totals);
    expect(res.body.scores).toEqual(totals);
    expect(res.body.extra_logs!.steps).toEqual(expected.map((e) => e.body.steps));
    expect(res.body.extra_logs!.reference).toEqual([1, 1]);
    expect(res.body.extra_logs!.struct).toEqual(expected.map((e) => e.body.score!.struct));
    for (const values of Object.values(res.body.extra_logs!)) expect(values).toHaveLength(2);
  });

  it('takes JSON Lines steps (the steplens format) inside a query without prompts; a task without reference scores against the prior', async () => {
    const steps = await readSteps(ASTROID.fail);
    const lines = steps.map((step) => JSON.stringify(step)).join('\n');
    const expected = await post('/v1/score', { task: 'some-task', trajectory: JSON.parse(`[${steps.map((step) => JSON.stringify(step)).join(',')}]`) });
    const res = await post('/get_reward', { query: [lines], labels: ['some-task'] });
    expect(res.status).toBe(200);
    expect(res.body.extra_logs!.steps).toEqual([steps.length]);
    expect(res.body.rewards).toEqual([expected.body.score!.total / 100]);
    expect(res.body.extra_logs!.reference).toEqual([0]);
    expect(res.body.extra_logs!.struct).toEqual([-1]);
  });

  it('refuses bad requests naming the query: missing label, unreadable rollout, mismatched lengths', async () => {
    const text = await readFile(ASTROID.passA, 'utf8');
    expect(await post('/get_reward', { query: [text] })).toMatchObject({ status: 400, body: { error: { code: 'bad_message', message: expect.stringMatching(/^labels\[0\]: required/) } } });
    expect(await post('/get_reward', { query: [text, 'Hello world'], labels: [ASTROID.task, ASTROID.task] })).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_input', message: expect.stringMatching(/^query\[1\]: invalid JSON/) } },
    });
    expect(await post('/get_reward', { query: [text], labels: ['a', 'b'] })).toMatchObject({ status: 400, body: { error: { message: 'labels: 2 entries for 1 queries' } } });
    expect(await post('/get_reward', { query: 'x' })).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/^body\.query: /) } } });
    expect(await post('/get_reward', { query: [text], labels: ['{"task": 3}'] })).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/^labels\[0\]: task: /) } } });
  });
});

describe('serve --config', () => {
  let dir = '';
  afterAll(() => removeDir(dir));

  it('loads a scoring config file whose weights change the server scores', async () => {
    dir = await tempDir();
    const file = path.join(dir, 'weights.json');
    await writeFile(file, JSON.stringify({ weights: { struct: 0, cov: 0, coh: 1, temp: 0 } }));
    const config = await serverConfig(['--config', file, '--data', path.join(dir, 'cfg'), '--no-seed', '--seed', EXAMPLES], {}, dir);
    expect(config.app.config?.weights).toEqual({ struct: 0, cov: 0, coh: 1, temp: 0 });
    expect(config.app.compressTexts).toBeUndefined();
    expect((await serverConfig(['--compress-texts'], {}, dir)).app.compressTexts).toBe(true);
    expect((await serverConfig([], { STEPLENS_COMPRESS_TEXTS: '1' }, dir)).app.compressTexts).toBe(true);
    const cohOnly = await buildApp({ logLevel: 'silent', ...config.app });
    try {
      const { body: report } = await postTo(cohOnly, '/v1/score', { task: ASTROID.task, trajectory: await readDoc(ASTROID.passA) });
      expect(report.score!.total).toBeCloseTo(100 * report.score!.coh, 9);
    } finally {
      await cohOnly.close();
    }
    await writeFile(file, JSON.stringify({ weights: { struct: -1 } }));
    await expect(serverConfig(['--config', file], {}, dir)).rejects.toThrow(/weights\.struct/);
  });
});

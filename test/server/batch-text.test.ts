/**
 * `POST /v1/score/batch` answers with JSON text built in the job, an item at a time (docs/reliability.md, T98). Its
 * answer was an object: 1,024 items' reports (8 MB) read back from the scoring worker and serialised on the main thread
 * in one go, 200-370 ms of every tenant's event loop at each such answer. The job's value is now the answer's text and
 * the items refused (counted and logged on the main thread); the client gets the same answer as before.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ASTROID, bearerJson, tenantTokens, useApps } from './helpers.js';
import { inlineJob } from './inline-job.js';

const apps = useApps();
const runs = Promise.all([ASTROID.passA, ASTROID.fail].map((f) => readFile(f, 'utf8')));

describe("a batch's answer", () => {
  it('leaves the job as JSON text, its refused items beside it', async () => {
    const [pass] = await runs;
    const result = await inlineJob('batch', `{"items":[{"task":"${ASTROID.task}","trajectory":${pass}},{"task":"${ASTROID.task}","trajectory":"not a log"}]}`);
    expect(result.ok).toBe(true);
    const value = (result as { value: { text?: unknown; refusals?: unknown } }).value;
    expect(typeof value.text).toBe('string');
    const { results } = JSON.parse(value.text as string) as { results: Array<{ error?: { code: string } }> };
    expect(results.map((r) => r.error?.code)).toEqual([undefined, 'bad_input']);
    expect(value.refusals).toEqual([{ item: 1, code: 'bad_input' }]);
  });

  it.each([
    ['a scoring worker', 1],
    ['inline (no worker)', 0],
  ])(
    'is what each item scored alone answers, an error without its detail (%s)',
    async (name, scoringWorkers) => {
      const app = await apps.start(`batch-text-${scoringWorkers}`, { tokens: tenantTokens(['a']), scoringWorkers });
      const post = async (path: string, body: unknown): Promise<{ status: number; type: string | null; json: unknown }> => {
        const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: bearerJson('a'), body: JSON.stringify(body) });
        return { status: res.status, type: res.headers.get('content-type'), json: await res.json() };
      };
      const [pass, fail] = (await runs).map((t) => JSON.parse(t) as unknown);
      const items = [
        { task: ASTROID.task, trajectory: pass, passed: true },
        { task: ASTROID.task, trajectory: fail },
        { task: ASTROID.task, trajectory: 'not a log' },
      ];
      const batch = await post('/v1/score/batch', { items });
      expect(batch.status).toBe(200);
      expect(batch.type).toMatch(/^application\/json/);
      const alone = await Promise.all(items.slice(0, 2).map((item) => post('/v1/score', item)));
      const { results } = batch.json as { results: Array<Record<string, unknown>> };
      expect(results.slice(0, 2)).toEqual(alone.map((a) => a.json));
      // The same header as an object's answer (fastify's `application/json; charset=utf-8`).
      expect(batch.type).toBe(alone[0]!.type);
      expect(results[2]).toEqual({ error: { code: 'bad_input', message: expect.stringContaining('items[2]') } });
      expect(name).toBeTruthy();
    },
    60_000,
  );
});

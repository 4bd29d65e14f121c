/**
 * POST /v1/score of a log with records it cannot read scores the rest, as the CLI does, and says which records were
 * left out (`skipped`): before, the answer looked like the score of the whole log (review s42, left item).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ASTROID, readDoc, startApp, type Running } from './helpers.js';

let srv: Running;

beforeAll(async () => {
  srv = await startApp({});
});

afterAll(async () => {
  await srv.app.close();
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${srv.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

it('names the records it left out, and scores the rest as the log without them', async () => {
  const clean = (await readDoc(ASTROID.fail)) as { messages: unknown[] };
  const broken = { ...clean, messages: [...clean.messages.slice(0, 10), 7, { role: 3 }, ...clean.messages.slice(10)] };

  const whole = await post('/v1/score', { task: ASTROID.task, trajectory: clean });
  expect(whole.status).toBe(200);
  expect(whole.body).not.toHaveProperty('skipped');

  const partial = await post('/v1/score', { task: ASTROID.task, trajectory: broken });
  expect(partial.status).toBe(200);
  const { skipped, ...report } = partial.body;
  expect(skipped).toEqual([
    { at: expect.stringContaining('10') as unknown, message: expect.any(String) as unknown },
    { at: expect.stringContaining('11') as unknown, message: expect.any(String) as unknown },
  ]);
  expect(report).toEqual(whole.body);

  const batch = await post('/v1/score/batch', {
    items: [
      { task: ASTROID.task, trajectory: broken },
      { task: ASTROID.task, trajectory: clean },
    ],
  });
  const [first, second] = batch.body.results as Array<Record<string, unknown>>;
  expect(first?.skipped).toEqual(skipped);
  expect(second).not.toHaveProperty('skipped');
});

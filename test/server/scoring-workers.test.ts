/**
 * F4: HTTP scoring ran on the event loop every session shares: POST /v1/score of 100,000 steps held another
 * client's ping for 2.1 s, a batch of 1,024 x 180 steps for 3.8 s (bench/stall.ts: 15.9 s and 14.2 s here).
 * Scoring now runs in worker threads (the body travels as raw bytes, only the answer comes back) and a
 * trajectory is capped like a stream session. Ordering, not timing: pongs asked for after a large batch was
 * sent come back before its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readDoc, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let steps: Step[];
let dir: string;
let threaded: Running;
let inline: Running;

beforeAll(async () => {
  steps = await readSteps(ASTROID.passA);
  dir = await tempDir();
  threaded = await startApp({ dataDir: `${dir}/threaded`, scoringWorkers: 1, limits: { maxStepsPerSession: 400 } });
  inline = await startApp({ dataDir: `${dir}/inline`, scoringWorkers: 0, limits: { maxStepsPerSession: 400 } });
});
afterAll(async () => {
  await threaded.app.close();
  await inline.app.close();
  await removeDir(dir);
});

const post = async (srv: Running, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${srv.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('HTTP scoring in worker threads', () => {
  it('answers the same as scoring on the main thread, for every scoring route', async () => {
    const doc = await readDoc(ASTROID.fail);
    const requests: Array<[string, unknown]> = [
      ['/v1/score', { task: ASTROID.task, format: 'mini-swe-agent', trajectory: doc, passed: false }],
      [
        '/v1/score/batch',
        {
          items: [
            { task: ASTROID.task, trajectory: doc },
            { task: 't', trajectory: { nope: 1 } },
            { task: 'other', trajectory: steps },
          ],
        },
      ],
      ['/get_reward', { query: [JSON.stringify(doc)], labels: [ASTROID.task] }],
      ['/v1/score', { task: ASTROID.task, trajectory: '{"task": ' }],
      ['/v1/score/steps', { task: ASTROID.task, format: 'auto', trajectory: doc, passed: false }],
      ['/v1/score/steps', { task: ASTROID.task, trajectory: { hello: 1 } }],
    ];
    for (const [path, body] of requests) expect(await post(threaded, path, body), path).toEqual(await post(inline, path, body));
    const added = await post(threaded, `/v1/tasks/${ASTROID.task}/references`, { trajectory: doc });
    expect(added).toEqual(await post(inline, `/v1/tasks/${ASTROID.task}/references`, { trajectory: doc }));
    expect(added).toMatchObject({ status: 201, body: { version: 1 } });
  });

  it('keeps the event loop free while a large batch is scored: pongs come back before the answer', async () => {
    const c = await Client.connect(threaded.wsUrl);
    const items = Array.from({ length: 96 }, (_, i) => ({ task: ASTROID.task, trajectory: steps.slice(i % 5) }));
    let answered = false;
    const batch = post(threaded, '/v1/score/batch', { items }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    let pongsFirst = 0;
    for (let i = 0; i < 10; i++) {
      await c.sync();
      if (!answered) pongsFirst++;
    }
    const result = await batch;
    expect(result.status).toBe(200);
    expect((result.body.results as unknown[]).length).toBe(items.length);
    expect(pongsFirst).toBe(10);
    c.close();
  });

  it('scores an upload for the web view (POST /v1/score/steps) in a worker too: pongs keep coming while it is scored', async () => {
    // 400 steps score in ~80 ms once the worker is warm: too short for a fixed wait and a count of pongs (a Node 24
    // CI run answered the upload first). Instead pongs are asked for one after another until the answer, and none
    // may take half as long as the whole upload: inline, one pong waits out the scoring.
    const c = await Client.connect(threaded.wsUrl);
    const long = Array.from({ length: 400 }, (_, i) => ({ ...steps[i % steps.length]!, t: i }));
    const began = performance.now();
    let answered = false;
    const upload = post(threaded, '/v1/score/steps', { task: ASTROID.task, trajectory: long }).then((r) => {
      answered = true;
      return r;
    });
    let pongs = 0;
    let slowest = 0;
    while (!answered) {
      const t = performance.now();
      await c.sync();
      slowest = Math.max(slowest, performance.now() - t);
      pongs++;
    }
    const took = performance.now() - began;
    const result = await upload;
    expect(result.status).toBe(200);
    expect((result.body.steps as unknown[]).length).toBe(400);
    expect(pongs).toBeGreaterThan(2);
    expect(slowest, `slowest pong ${slowest.toFixed(1)} ms of an upload answered in ${took.toFixed(1)} ms`).toBeLessThan(took / 2);
    c.close();
  });

  it('caps a trajectory at the per-session step limit, naming it', async () => {
    const long = Array.from({ length: 450 }, (_, i) => ({ ...steps[i % steps.length]!, t: i }));
    expect(await post(threaded, '/v1/score', { task: 't', trajectory: long })).toEqual({
      status: 413,
      body: { error: { code: 'too_large', message: 'body.trajectory: 450 steps exceed the limit of 400 steps' } },
    });
    const batch = await post(threaded, '/v1/score/batch', {
      items: [
        { task: 't', trajectory: long },
        { task: 't', trajectory: steps },
      ],
    });
    expect((batch.body.results as Array<Record<string, unknown>>)[0]).toEqual({ error: { code: 'too_large', message: 'items[0].trajectory: 450 steps exceed the limit of 400 steps' } });
    // The web view's upload route has the same limit (it had none: 80,000 steps were scored on the main thread).
    expect(await post(threaded, '/v1/score/steps', { task: 't', trajectory: long })).toEqual({
      status: 413,
      body: { error: { code: 'too_large', message: 'body.trajectory: 450 steps exceed the limit of 400 steps' } },
    });
  });
});

describe('the scoring queue gives a finished job its bytes back', () => {
  it('scores many more bodies in turn than the queue holds at once (a worker-transferred body read 0 bytes when it ended)', async () => {
    const doc = await readDoc(ASTROID.fail);
    const body = JSON.stringify({ task: ASTROID.task, trajectory: doc });
    // The queue holds 4 bodies of the cap: 6 of these at once. 10 in turn were refused `overloaded` from the 7th.
    const maxBodyBytes = Math.ceil(1.5 * Buffer.byteLength(body));
    const qdir = await tempDir();
    const srv = await startApp({ dataDir: qdir, scoringWorkers: 1, limits: { maxBodyBytes } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${srv.url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
    } finally {
      await srv.app.close();
      await removeDir(qdir);
    }
  });
});

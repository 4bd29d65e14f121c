/**
 * What the server serves for the web view: the page and its hashed assets
 * (public, with security headers), the token rule for everything else, an
 * upload scored step by step, a session's path over its PTA, the calibration.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreStepsResponseSchema, alignmentSchema } from '../../src/protocol/view-bodies.js';
import { webRoot } from '../../src/server/web-assets.js';
import { SseReader } from './sse.js';
import { ASTROID, Client, readDoc, readEvents, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/example');
let dir: string;
let open: Running;
let locked: Running;
let calibrated: Running;

beforeAll(async () => {
  dir = await tempDir();
  const cal = path.join(dir, 'calibration');
  await mkdir(cal);
  await writeFile(
    path.join(cal, 'calibration.json'),
    JSON.stringify({ policy: { blindRetry: { warn: 2, stop: 5 } }, tradeoff: { runs: { passing: 35, failing: 16 }, choice: { maxFalseStop: 0.05 } } }),
  );
  await writeFile(path.join(cal, 'tradeoff.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>t</title></svg>\n');
  open = await startApp({ dataDir: `${dir}/open`, seedDirs: [EXAMPLE], limits: { liveViewers: 1 } });
  locked = await startApp({ dataDir: `${dir}/locked`, tokens: ['s3cret'] });
  calibrated = await startApp({ dataDir: `${dir}/cal`, calibrationDir: cal });
});

afterAll(async () => {
  // fetch's pool may hold a socket that never sent a request, which server.close() would wait on: cut them.
  await Promise.all(
    [open, locked, calibrated].map(async ({ app }) => {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    }),
  );
  await removeDir(dir);
});

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
const post = (base: string, p: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('the page', () => {
  it('is built, served at / and at its routes with a strict CSP, with hashed assets cached for good', async () => {
    expect(webRoot(), 'dist/web is missing: run `npm run build` first').toBeDefined();
    for (const p of ['/', '/session/abc', '/task/django__django-11099', '/score', '/calibration']) {
      const res = await fetch(`${locked.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    const html = await (await fetch(`${locked.url}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    expect(html).not.toMatch(/(?:src|href)="https?:/);
    for (const a of assets) {
      expect(a).toMatch(/-[A-Za-z0-9_-]{8}\.(js|css)$/);
      const res = await fetch(`${locked.url}${a}`);
      expect(res.status, a).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
    expect((await fetch(`${locked.url}/assets/nope.js`)).status).toBe(404);
  });

  it('tells the page whether to ask for a token; everything else needs one (in a header, never required in the URL)', async () => {
    expect(await json(await fetch(`${locked.url}/web/info`))).toEqual({ auth: 'token' });
    expect(await json(await fetch(`${open.url}/web/info`))).toEqual({ auth: 'open' });
    for (const p of ['/v1/sessions', '/v1/live', '/v1/calibration', '/v1/sessions/x/steps']) {
      expect((await fetch(`${locked.url}${p}`)).status, p).toBe(401);
    }
    expect((await post(locked.url, '/v1/score/steps', { task: 't', trajectory: [] })).status).toBe(401);
    expect(await json(await fetch(`${locked.url}/v1/sessions`, { headers: { authorization: 'Bearer s3cret' } }))).toEqual({ sessions: [] });
    const live = await SseReader.open(`${locked.url}/v1/live`, { authorization: 'Bearer s3cret' });
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toMatch(/^text\/event-stream/);
    expect((await live.nextOf('snapshot')).sessions).toEqual([]);
    live.close();
  });
});

describe('POST /v1/score/steps', () => {
  it('scores an uploaded run step by step: the same report as POST /v1/score, every step, and its path over the PTA', async () => {
    const doc = await readDoc(ASTROID.fail);
    const body = { task: ASTROID.task, format: 'auto', trajectory: doc, passed: false };
    const view = scoreStepsResponseSchema.parse(await json(await post(open.url, '/v1/score/steps', body)));
    const report = await json<Record<string, unknown>>(await post(open.url, '/v1/score', body));
    expect(view.report).toEqual(report);
    expect(view.format).toBe('mini-swe-agent');
    expect(view.steps).toHaveLength((await readSteps(ASTROID.fail)).length);
    expect(view.steps[view.steps.length - 1]?.score).toEqual(report.score);
    expect(view.steps.map((s) => s.stage).join('')).toBe(report.stages);
    expect(view.alignment?.steps).toHaveLength(view.steps.length);
    expect(view.alignment?.matchedNodes.length).toBeGreaterThan(0);

    const prior = scoreStepsResponseSchema.parse(await json(await post(open.url, '/v1/score/steps', { ...body, task: 'no-such-task' })));
    expect(prior.alignment).toBeUndefined();
    expect(prior.report.reference.kind).toBe('prior');
  });

  it('refuses a bad body with one error naming the field', async () => {
    const bad = await post(open.url, '/v1/score/steps', { task: ASTROID.task, trajectory: { hello: 1 } });
    expect(bad.status).toBe(400);
    expect((await json<{ error: { code: string; message: string } }>(bad)).error).toMatchObject({ code: 'unknown_format', message: expect.stringMatching(/^body\.trajectory: /) });
    const noTask = await post(open.url, '/v1/score/steps', { trajectory: await readDoc(ASTROID.fail) });
    expect((await json<{ error: { message: string } }>(noTask)).error.message).toMatch(/^body\.task: /);
  });
});

describe('GET /v1/sessions/:id/alignment', () => {
  it("draws a live session over its task's PTA; a task without one is unknown_task", async () => {
    const c = await Client.connect(open.wsUrl);
    const events = await readEvents(ASTROID.passB);
    c.send({ type: 'start', session: 'al-1', task: ASTROID.task, format: 'mini-swe-agent' });
    c.send({ type: 'start', session: 'al-2', task: 'no-such-task', format: 'mini-swe-agent' });
    events.forEach((step, seq) => c.send({ type: 'step', session: 'al-1', seq, step }));
    await c.sync();
    const a = alignmentSchema.parse(await json(await fetch(`${open.url}/v1/sessions/al-1/alignment`)));
    expect(a.task).toBe(ASTROID.task);
    expect(a.matchedNodes.length).toBeGreaterThan(10);
    expect(a.bestPath?.hits.length).toBeGreaterThan(0);
    const none = await fetch(`${open.url}/v1/sessions/al-2/alignment`);
    expect(none.status).toBe(404);
    expect((await json<{ error: { code: string } }>(none)).error.code).toBe('unknown_task');

    // Ended (its scorer released to bound memory), the session still shows its steps and the same path.
    c.send({ type: 'end', session: 'al-1' });
    await c.nextOf('final', 'al-1');
    const after = alignmentSchema.parse(await json(await fetch(`${open.url}/v1/sessions/al-1/alignment`)));
    expect(after).toEqual(a);
    const view = await json<{ steps: unknown[]; state: string }>(await fetch(`${open.url}/v1/sessions/al-1/steps`));
    expect(view.steps).toHaveLength(a.steps.length);
    c.close();
  });

  it('refuses a second live viewer past the limit with overloaded (503)', async () => {
    const first = await SseReader.open(`${open.url}/v1/live`);
    await first.nextOf('snapshot');
    const second = await fetch(`${open.url}/v1/live`);
    expect(second.status).toBe(503);
    expect((await json<{ error: { code: string } }>(second)).error.code).toBe('overloaded');
    first.close();
  });
});

describe('GET /v1/calibration', () => {
  it('answers configured: false without --calibration, else the chosen policy and the chart', async () => {
    expect(await json(await fetch(`${open.url}/v1/calibration`))).toEqual({ configured: false });
    expect((await fetch(`${open.url}/v1/calibration/tradeoff.svg`)).status).toBe(404);
    const c = await json<Record<string, unknown>>(await fetch(`${calibrated.url}/v1/calibration`));
    expect(c).toMatchObject({ configured: true, policy: { blindRetry: { warn: 2, stop: 5 } }, maxFalseStop: 0.05, runs: { passing: 35, failing: 16 } });
    const svg = await fetch(`${calibrated.url}/v1/calibration/tradeoff.svg`);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await svg.text()).toMatch(/^<svg /);
  });
});

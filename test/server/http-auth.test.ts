import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { ASTROID, Client, readDoc, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let open: Running;
let locked: Running;

beforeAll(async () => {
  dir = await tempDir();
  open = await startApp({ dataDir: `${dir}/open`, limits: { maxBodyBytes: 4 * 1024 * 1024 } });
  locked = await startApp({ dataDir: `${dir}/locked`, tokens: ['s3cret', 'other'] });
});

afterAll(async () => {
  await open.app.close();
  await locked.app.close();
  await removeDir(dir);
});

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, ...body.error };
}

describe('HTTP bodies', () => {
  it('answers 400 naming the field for bad bodies', async () => {
    const doc = await readDoc(ASTROID.fail);
    expect(await errorOf(await post(open.url, '/v1/score', { trajectory: doc }))).toMatchObject({ status: 400, code: 'bad_message', message: expect.stringMatching(/^body\.task: /) });
    expect(await errorOf(await post(open.url, '/v1/score', { task: 't' }))).toMatchObject({ status: 400, message: expect.stringMatching(/^body\.trajectory: /) });
    expect(await errorOf(await post(open.url, '/v1/score', { task: 't', trajectory: doc, format: 'word' }))).toMatchObject({ status: 400, message: expect.stringMatching(/^body\.format: expected one of auto, steplens, openhands, swe-agent, mini-swe-agent, atif/) });
    expect(await errorOf(await post(open.url, '/v1/score', { task: 't', trajectory: doc, passed: 'yes' }))).toMatchObject({ status: 400, message: expect.stringMatching(/^body\.passed: /) });
    expect(await errorOf(await post(open.url, '/v1/score', { task: 't', trajectory: doc, policy: { budget: { maxSteps: -1 } } }))).toMatchObject({ status: 400, message: expect.stringMatching(/^body\.policy\.budget\.maxSteps: /) });
    expect(await errorOf(await post(open.url, '/v1/score', '{"task": '))).toMatchObject({ status: 400, code: 'bad_message' });
    expect(await errorOf(await post(open.url, '/v1/score', { task: 't', trajectory: { hello: 'world' } }))).toMatchObject({ status: 400, code: 'unknown_format', message: expect.stringMatching(/^body\.trajectory: /) });
    expect(await errorOf(await post(open.url, '/v1/tasks/x/references', { trajectory: 5 }))).toMatchObject({ status: 400 });
    expect(await errorOf(await post(open.url, '/v1/score', { task: 't', trajectory: 'x'.repeat(5 * 1024 * 1024) }))).toMatchObject({ status: 413, code: 'too_large' });
  });

  it('answers 404 for unknown sessions, tasks and routes', async () => {
    expect(await errorOf(await fetch(`${open.url}/v1/sessions/nope`))).toMatchObject({ status: 404, code: 'unknown_session' });
    expect(await errorOf(await fetch(`${open.url}/v1/tasks/nope/pta`))).toMatchObject({ status: 404, code: 'unknown_task' });
    expect((await fetch(`${open.url}/v2/nothing`)).status).toBe(404);
  });

  it('scores against the prior for a task without PTA, and serves health, readiness and metrics', async () => {
    const res = await post(open.url, '/v1/score', { task: 'no-such-task', format: 'mini-swe-agent', trajectory: await readDoc(ASTROID.fail) });
    expect(res.status).toBe(200);
    const report = (await res.json()) as { reference: unknown; score: { struct: unknown } };
    expect(report.reference).toEqual({ kind: 'prior' });
    expect(report.score.struct).toBeNull();
    expect(await (await fetch(`${open.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${open.url}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${open.url}/metrics`)).text();
    for (const name of ['steplens_steps_scored_total', 'steplens_step_latency_seconds', 'steplens_active_sessions', 'steplens_active_connections',
      'steplens_signals_fired_total', 'steplens_refusals_total', 'steplens_pta_cache_hits_total', 'steplens_pta_cache_misses_total', 'steplens_pta_cache_entries']) {
      expect(metrics).toContain(name);
    }
    expect(metrics).toMatch(/steplens_refusals_total\{code="bad_message"\} [1-9]/);
  });
});

describe('auth', () => {
  it('is off without tokens', async () => {
    const c = await Client.connect(open.wsUrl);
    await c.sync();
    c.close();
    expect((await fetch(`${open.url}/v1/tasks`)).status).toBe(200);
  });

  it('refuses the upgrade with 401 without a token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic s3cret' }]) {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(locked.wsUrl, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => reject(new Error('upgrade accepted without a valid token')));
        ws.on('error', () => undefined);
      });
      expect(status).toBe(401);
    }
    expect(await errorOf(await fetch(`${locked.url}/v1/tasks`))).toMatchObject({ status: 401, code: 'unauthorized' });
    expect((await fetch(`${locked.url}/healthz`)).status).toBe(200);
  });

  it('accepts a bearer header or a ?token= query', async () => {
    const a = await Client.connect(locked.wsUrl, { authorization: 'Bearer s3cret' });
    await a.sync();
    const b = await Client.connect(`${locked.wsUrl}?token=other`);
    await b.sync();
    a.close();
    b.close();
    expect((await fetch(`${locked.url}/v1/tasks`, { headers: { authorization: 'Bearer other' } })).status).toBe(200);
  });
});

describe('backpressure', () => {
  it('closes a client that stops reading with 1008 and a reason', async () => {
    const srv = await startApp({ dataDir: `${dir}/slow`, limits: { outgoingQueueBytes: 64 * 1024 } });
    const c = await Client.connect(srv.wsUrl);
    const raw = (c.ws as unknown as { _socket: Socket })._socket;
    raw.pause();
    const closed = new Promise<number>((resolve) => c.ws.on('close', (code) => resolve(code)));
    const ping = JSON.stringify({ type: 'ping' });
    // Pongs pile up on the server while the client reads nothing.
    for (let i = 0; i < 400_000 && c.ws.readyState === WebSocket.OPEN; i++) {
      c.ws.send(ping);
      if (i % 5000 === 0) await new Promise((r) => setImmediate(r));
    }
    raw.resume();
    const code = await closed;
    expect([1008, 1006]).toContain(code);
    const metrics = await (await fetch(`${srv.url}/metrics`)).text();
    expect(metrics).toMatch(/steplens_active_connections 0/);
    expect(metrics).toMatch(/steplens_refusals_total\{code="overloaded"\} 1/);
    await srv.app.close();
  });
});

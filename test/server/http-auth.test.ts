import { describe, expect, it } from 'vitest';
import { get } from 'node:http';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { Client, useApp, useApps } from './helpers.js';

const open = useApp();
const locked = useApp({ tokens: ['s3cret', 'other'] });
/** The tests' own apps (a short ticket lifetime, a small outgoing queue). */
const apps = useApps();

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, ...body.error };
}

describe('auth', () => {
  it('is off without tokens', async () => {
    const c = await Client.connect(open().wsUrl);
    await c.sync();
    c.close();
    expect((await fetch(`${open().url}/v1/tasks`)).status).toBe(200);
  });

  it('refuses the upgrade with 401 without a token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic s3cret' }]) {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(locked().wsUrl, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => reject(new Error('upgrade accepted without a valid token')));
        ws.on('error', () => undefined);
      });
      expect(status).toBe(401);
    }
    expect(await errorOf(await fetch(`${locked().url}/v1/tasks`))).toMatchObject({ status: 401, code: 'unauthorized' });
    expect((await fetch(`${locked().url}/healthz`)).status).toBe(200);
    // Readiness too: balancers and Kubernetes probes send no token (deploy/ probes /readyz).
    expect([(await fetch(`${locked().url}/readyz`)).status, await (await fetch(`${locked().url}/readyz`)).json()]).toEqual([200, { status: 'ready' }]);
  });

  it('accepts a bearer header; refuses a token in the URL, on every route, naming the ticket instead', async () => {
    const a = await Client.connect(locked().wsUrl, { authorization: 'Bearer s3cret' });
    await a.sync();
    a.close();
    expect((await fetch(`${locked().url}/v1/tasks`, { headers: { authorization: 'Bearer other' } })).status).toBe(200);
    for (const route of ['/v1/tasks', '/v1/live', '/v1/sessions', '/metrics']) {
      const refused = await errorOf(await fetch(`${locked().url}${route}?token=s3cret`));
      expect(refused).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(refused.message).toContain('ticket');
    }
    expect(await upgradeStatus(`${locked().wsUrl}?token=s3cret`)).toBe(401);
    // Beside a good header too (it was accepted then): the URL with the token has reached the logs all the same.
    const both = await errorOf(await fetch(`${locked().url}/v1/tasks?token=s3cret`, { headers: { authorization: 'Bearer s3cret' } }));
    expect(both).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('opens /v1/stream and /v1/live with a ticket: once, for its own route, until it expires', async () => {
    const mint = async (route: string): Promise<string> => {
      const res = await fetch(`${locked().url}/v1/tickets`, { method: 'POST', headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json' }, body: JSON.stringify({ route }) });
      expect(res.status).toBe(200);
      return ((await res.json()) as { ticket: string }).ticket;
    };
    const stream = await mint('/v1/stream');
    const c = await Client.connect(`${locked().wsUrl}?ticket=${encodeURIComponent(stream)}`);
    await c.sync();
    c.close();
    // Taken once: the same ticket again is refused, as is a live ticket on the stream route and a forged one.
    expect(await upgradeStatus(`${locked().wsUrl}?ticket=${encodeURIComponent(stream)}`)).toBe(401);
    const live = await mint('/v1/live');
    expect(await upgradeStatus(`${locked().wsUrl}?ticket=${encodeURIComponent(live)}`)).toBe(401);
    expect(await upgradeStatus(`${locked().wsUrl}?ticket=${encodeURIComponent(`${live.split('.')[0]!}.AAAA`)}`)).toBe(401);
    // A ticket opens nothing but its route, even an ordinary GET.
    expect((await fetch(`${locked().url}/v1/sessions?ticket=${encodeURIComponent(await mint('/v1/live'))}`)).status).toBe(401);
    // Minting needs the token in the header.
    expect((await fetch(`${locked().url}/v1/tickets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"route":"/v1/live"}' })).status).toBe(401);
    expect(await feedStatus(`${locked().url}/v1/live?ticket=${encodeURIComponent(live)}`)).toBe(200);
  });

  it('refuses an expired ticket', async () => {
    const srv = await apps.start('short', { tokens: ['t0k'], limits: { ticketTtlMs: 50 } });
    const res = await fetch(`${srv.url}/v1/tickets`, { method: 'POST', headers: { authorization: 'Bearer t0k', 'content-type': 'application/json' }, body: '{"route":"/v1/stream"}' });
    const { ticket } = (await res.json()) as { ticket: string };
    await new Promise((r) => setTimeout(r, 120));
    expect(await feedStatus(`${srv.url}/v1/live?ticket=${encodeURIComponent(ticket)}`)).toBe(401);
    expect(await upgradeStatus(`${srv.wsUrl}?ticket=${encodeURIComponent(ticket)}`)).toBe(401);
    await srv.app.close();
  });
});

/**
 * The status of a live feed, read on its own socket, which is then destroyed (fetch's pool may keep a spare
 * connection open that never sends a request, which app.close() then waits for).
 */
function feedStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
  });
}

/** The HTTP status a WebSocket upgrade gets (101 when it opened). */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });
}

describe('backpressure', () => {
  // 3-5 s in CI; 111 s at load ~20 (the server reads pings until the kernel's buffers and the queue fill).
  it('closes a client that stops reading with 1008 and a reason', { timeout: 300_000 }, async () => {
    const srv = await apps.start('slow', { limits: { outgoingQueueBytes: 64 * 1024 } });
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
    // The server takes FRAMES_PER_TURN of them a turn (frame-batch.ts): read nothing until it has given up on us.
    const refused = async () => (await (await fetch(`${srv.url}/metrics`)).text()).includes('steplens_refusals_total{code="overloaded"} 1');
    for (const deadline = Date.now() + 240_000; Date.now() < deadline && !(await refused());) await new Promise((r) => setTimeout(r, 50));
    raw.resume();
    const code = await closed;
    expect([1008, 1006]).toContain(code);
    const metrics = await (await fetch(`${srv.url}/metrics`)).text();
    expect(metrics).toMatch(/steplens_active_connections 0/);
    expect(metrics).toMatch(/steplens_refusals_total\{code="overloaded"\} 1/);
    await srv.app.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { Client, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let open: Running;
let locked: Running;

beforeAll(async () => {
  dir = await tempDir();
  open = await startApp({ dataDir: `${dir}/open` });
  locked = await startApp({ dataDir: `${dir}/locked`, tokens: ['s3cret', 'other'] });
});

afterAll(async () => {
  await open.app.close();
  await locked.app.close();
  await removeDir(dir);
});

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, ...body.error };
}

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

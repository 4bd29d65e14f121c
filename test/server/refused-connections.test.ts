/**
 * A request refused before its route runs (no or a wrong token, a role that may not, another site's page) has its
 * connection closed once answered, its body awaited no longer than a client's headers are (T53): a client without
 * a token kept each connection for the body it trickled in after its 401 (up to requestTimeoutMs, 120 s) or idle
 * after it (keep-alive), 256 of them per address. A body that does come is still read before the answer
 * (error-shapes.test.ts: no broken pipe).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let srv: Running;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({ dataDir: dir, tokens: [{ token: 'tok', tenant: 'team' }], limits: { headersTimeoutMs: 300 } });
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await srv.app.close();
  await removeDir(dir);
});

/** Writes `head` (and none of the body it announces); resolves with the answer read and whether the server closed the connection after it. */
function send(head: string): Promise<{ text: string; closed: boolean }> {
  const { hostname, port } = new URL(srv.url);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port) });
    sockets.push(s);
    let text = '';
    s.on('error', () => undefined);
    s.on('data', (d) => {
      text += d.toString();
      // An answer kept alive: the server waits for the rest of the body (or the next request).
      if (/\r\n\r\n[\s\S]*\}$/.test(text) && /keep-alive/i.test(text)) resolve({ text, closed: false });
    });
    s.once('close', () => resolve({ text, closed: true }));
    s.write(head);
  });
}

const post = (auth: string) => `POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${auth}Content-Length: 1000000\r\n\r\n{"a":`;

describe('connections of refused requests', () => {
  it('answers a 401 whose body does not come once a client is given for its headers, and closes its connection', async () => {
    for (const auth of ['', 'Authorization: Bearer wrong\r\n']) {
      const r = await send(post(auth));
      expect(r.text).toMatch(/^HTTP\/1.1 401/);
      expect(r.text).toMatch(/\r\nconnection: close\r\n/i);
      expect(r.closed).toBe(true);
    }
  });

  it('closes the connection of a 401 without a body (no idle keep-alive)', async () => {
    const r = await send('GET /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(r.text).toMatch(/^HTTP\/1.1 401/);
    expect(r.closed).toBe(true);
  });

  it("keeps an authorised client's connection", async () => {
    const r = await send('GET /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\n\r\n');
    expect(r.text).toMatch(/^HTTP\/1.1 200/);
    expect(r.closed).toBe(false);
  });
});

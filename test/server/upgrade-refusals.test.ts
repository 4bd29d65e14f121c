/**
 * Upgrade requests that cannot become a stream get the JSON error shape of every other route: an upgrade to a
 * plain route was upgraded (101) and closed with 1005, a malformed handshake got ws's 400 text/html.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { httpErrorSchema } from '../../src/protocol/http-bodies.js';
import { rawHttp, useApp } from './helpers.js';

const app = useApp();
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/** Sends a raw request and reads the whole answer (the server closes after an upgrade refusal). */
async function raw(path: string, headers: Record<string, string>): Promise<{ status: number; type: string; body: unknown }> {
  const lines = Object.entries({ Host: '127.0.0.1', Connection: 'Upgrade', Upgrade: 'websocket', ...headers }).map(([k, v]) => `${k}: ${v}`);
  const { status, head, body } = await rawHttp(app().url, `GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  const type = /content-type: ([^\r\n]*)/i.exec(head)?.[1] ?? '';
  return { status, type, body: body ? JSON.parse(body) : null };
}

describe('WebSocket upgrades that cannot be a stream', () => {
  it('an upgrade to a plain route: 400 bad_message naming the stream route, not 101 then close 1005', async () => {
    for (const path of ['/v1/tasks', '/healthz', '/']) {
      const res = await raw(path, { 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': KEY });
      expect(res.status, path).toBe(400);
      expect(res.type).toMatch(/^application\/json/);
      expect(httpErrorSchema.parse(res.body).error).toEqual({ code: 'bad_message', message: expect.stringMatching(/is not a WebSocket endpoint: the stream is GET \/v1\/stream/) });
    }
  });

  it('a malformed handshake on /v1/stream: 400 bad_message in JSON naming the header', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ 'Sec-WebSocket-Version': '13' }, /Sec-WebSocket-Key is missing/],
      [{ 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'short' }, /Sec-WebSocket-Key is missing or not 16 bytes/],
      [{ 'Sec-WebSocket-Version': '99', 'Sec-WebSocket-Key': KEY }, /Sec-WebSocket-Version 99 is not supported/],
      [{ 'Sec-WebSocket-Key': KEY }, /Sec-WebSocket-Version is missing/],
    ];
    for (const [headers, message] of cases) {
      const res = await raw('/v1/stream', headers);
      expect(res.status).toBe(400);
      expect(res.type).toMatch(/^application\/json/);
      expect(httpErrorSchema.parse(res.body).error).toEqual({ code: 'bad_message', message: expect.stringMatching(message) });
    }
  });

  it('a well-formed handshake still opens the stream, and an unknown path stays 404 unknown_route', async () => {
    const ws = new WebSocket(app().wsUrl);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.close();
    const res = await raw('/v1/nope', { 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': KEY });
    expect([res.status, httpErrorSchema.parse(res.body).error.code]).toEqual([404, 'unknown_route']);
  });
});

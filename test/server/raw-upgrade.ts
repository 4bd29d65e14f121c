/** A raw WebSocket upgrade to /v1/stream, for tests of what the server answers before the handshake. */
import { request } from 'node:http';
import type { Duplex } from 'node:stream';
import { bearer } from './helpers.js';

/**
 * Asks `base`'s /v1/stream for an upgrade with `token`: the HTTP answer it got (status and body) when it was refused,
 * else 101, its socket closed at once or, with `keep`, returned open.
 */
export function rawUpgrade(base: string, token: string, keep = false): Promise<{ status: number; body: string; socket?: Duplex }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/v1/stream', base), {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...bearer(token) },
    });
    req.on('upgrade', (_res, socket) => {
      if (!keep) socket.destroy();
      resolve({ status: 101, body: '', ...(keep ? { socket } : {}) });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * HTTP requests pipelined on one connection (T47): up to PIPELINED_REQUESTS unanswered at once are all answered, in
 * order, on a connection that stays open; a connection sending more before reading the answers is closed, not
 * answered without end.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINED_REQUESTS } from '../../src/server/pipelined-requests.js';
import { removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let srv: Running;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({ dataDir: dir, tokens: [{ token: 'tok', tenant: 'team' }] });
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await srv.app.close();
  await removeDir(dir);
});

/** Sends `n` GET /v1/tasks at once on one connection; resolves when `answers` have come or the server closed it. */
function pipeline(n: number, answers: number): Promise<{ answered: number; closed: boolean }> {
  const { hostname, port } = new URL(srv.url);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port) });
    sockets.push(s);
    let text = '';
    const answered = () => text.split('HTTP/1.1 200 OK').length - 1;
    s.on('error', () => undefined);
    s.on('data', (d) => {
      text += d.toString();
      if (answered() >= answers) resolve({ answered: answered(), closed: false });
    });
    s.once('close', () => resolve({ answered: answered(), closed: true }));
    s.write(`GET /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\n\r\n`.repeat(n));
  });
}

describe('pipelined HTTP requests', () => {
  it(`answers ${PIPELINED_REQUESTS} pipelined requests, keeping the connection`, async () => {
    const r = await pipeline(PIPELINED_REQUESTS, PIPELINED_REQUESTS);
    expect(r).toEqual({ answered: PIPELINED_REQUESTS, closed: false });
  });

  it('closes a connection with more requests unanswered at once', async () => {
    // Resolves at once if all 2,000 are answered (the old behaviour), else when the server closes the connection.
    const r = await pipeline(2000, 2000);
    expect(r.closed).toBe(true);
    expect(r.answered).toBeLessThan(2000);
    // Other connections are served as before.
    expect((await fetch(`${srv.url}/v1/tasks`, { headers: { authorization: 'Bearer tok' } })).status).toBe(200);
  });
});

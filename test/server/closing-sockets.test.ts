/**
 * The server's own closes of HTTP connections (src/server/closing-sockets.ts, T118): after an answer that ends its
 * connection (`Connection: close`) and at the keep-alive timeout, Node closed the socket and left what the kernel
 * still held to an orphan socket, outside the process and its connection caps, for as long as the client kept its end
 * open without reading. Now the server waits for the client's close, and resets the connection of a client that has
 * not closed within `answerDrainMs` (a refusal counted); a client that reads gets its whole answer and is not cut.
 * The sockets' guards are used as the app wires them (socket-guards.ts). Counts only: no timing is asserted.
 */
import type http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveGuarded, stopGuarded } from './guarded-answers.js';

/** Small enough for the kernels to take whole at once: the process holds none of it (T113 does not see it). */
const ANSWER = Buffer.alloc(16 * 1024, 120);

const sockets: net.Socket[] = [];
afterEach(() => stopGuarded(sockets));

/** Sends one GET; `read` false: the client never reads a byte nor closes. Resolves the bytes read once it closes. */
function get(port: number, read: boolean, close: boolean): { bytes: Promise<number> } {
  const s = net.connect({ host: '127.0.0.1', port });
  sockets.push(s);
  s.on('error', () => undefined);
  let n = 0;
  const bytes = new Promise<number>((resolve) => {
    s.on('data', (d: Buffer) => (n += d.length));
    s.once('close', () => resolve(n));
  });
  s.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n${close ? 'Connection: close\r\n' : ''}\r\n`);
  if (!read) s.pause();
  return { bytes };
}

const connections = (server: http.Server) => new Promise<number>((resolve) => server.getConnections((_e, count) => resolve(count)));
/** Waits for the first cut, or (without one) 20 s: a bound on the wait, not a figure checked. */
const cutOrGiveUp = (cut: Promise<void>) => Promise.race([cut, new Promise((resolve) => setTimeout(resolve, 20_000))]);

describe("the server's own closes wait for the client's", () => {
  it('after an answer with Connection: close: a client that reads gets it whole, one that never reads is reset', async () => {
    const { port, server, cuts, cut } = await serveGuarded(ANSWER, 500);
    const reader = get(port, true, true);
    expect(await reader.bytes).toBeGreaterThan(ANSWER.length);
    get(port, false, true);
    await cutOrGiveUp(cut);
    // Before: closed by Node at once, its bytes left to the kernel, nothing counted.
    expect(cuts).toEqual(['overloaded']);
    expect(await connections(server)).toBe(0);
  }, 30_000);

  it('at the keep-alive timeout: an idle connection whose client never reads is reset, not left to the kernel', async () => {
    // Node adds a second to keepAliveTimeout before it fires.
    const { port, server, cuts, cut } = await serveGuarded(ANSWER, 500, 100);
    get(port, false, false);
    await cutOrGiveUp(cut);
    expect(cuts).toEqual(['overloaded']);
    expect(await connections(server)).toBe(0);
  }, 30_000);
});

/**
 * HTTP answers nobody reads (src/server/answer-drain.ts, T113): an answer written whole whose bytes the client does not
 * take within `answerDrainMs` has its connection reset (Node times out neither the response nor the socket), while a
 * client that reads gets the whole answer. The sockets' own guards are used as the app wires them (socket-guards.ts).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/server/server-limits.js';
import { parseLimits } from '../../src/server/config.js';
import { serveGuarded, stopGuarded } from './guarded-answers.js';

/** More than the loopback's buffers take (up to 4 MiB a socket sending, ~128 KiB receiving when not read). */
const ANSWER = Buffer.alloc(24 * 1024 * 1024, 120);

const sockets: net.Socket[] = [];
afterEach(() => stopGuarded(sockets));

/** Sends one GET; `read` false: the client never reads a byte. Resolves the bytes it read once the connection ends. */
function get(port: number, read: boolean): { bytes: Promise<number> } {
  const s = net.connect({ host: '127.0.0.1', port });
  sockets.push(s);
  s.on('error', () => undefined);
  let n = 0;
  const bytes = new Promise<number>((resolve) => {
    s.on('data', (d: Buffer) => {
      n += d.length;
      // The head and the whole body: done.
      if (n > ANSWER.length) resolve(n);
    });
    s.once('close', () => resolve(n));
  });
  s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  if (!read) s.pause();
  return { bytes };
}

describe('answers nobody reads (answerDrainMs)', () => {
  it('resets the connection of an answer not read within the bound; a client that reads gets its whole answer', async () => {
    // A reader in this process takes the answer (one write of 24 MiB, its progress seen when done) well within 3 s.
    const { port, server, cuts, cut } = await serveGuarded(ANSWER, 3000);
    const reader = get(port, true);
    get(port, false);
    // Bounded by the reader's answer and the cut (or, without the bound, 10 times it): no timing is asserted.
    await Promise.race([cut, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    expect(cuts).toEqual(['overloaded']);
    expect(await reader.bytes).toBeGreaterThan(ANSWER.length);
    // The server's side of the unread connection is gone: nothing of the answer is held for it.
    const left = await new Promise<number>((resolve) => server.getConnections((_e, count) => resolve(count)));
    expect(left).toBeLessThanOrEqual(1);
  }, 40_000);

  it('is set with --limit answerDrainMs=N, 0 turning it off', () => {
    expect(parseLimits(['answerDrainMs=60000', 'answerDrainMs=0'])).toEqual({ answerDrainMs: 0 });
    expect(DEFAULT_LIMITS.answerDrainMs).toBe(300_000);
  });
});

/**
 * HTTP answers nobody reads (src/server/answer-drain.ts, T113): an answer written whole whose bytes the client does not
 * take within `answerDrainMs` has its connection reset (Node times out neither the response nor the socket), while a
 * client that reads gets the whole answer. The sockets' own guards are used as the app wires them (socket-guards.ts).
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { guardSockets } from '../../src/server/socket-guards.js';
import { DEFAULT_LIMITS } from '../../src/server/server-limits.js';
import { parseLimits } from '../../src/server/config.js';

/** More than the loopback's buffers take (up to 4 MiB a socket sending, ~128 KiB receiving when not read). */
const ANSWER = Buffer.alloc(24 * 1024 * 1024, 120);

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** A server answering every GET with {@link ANSWER}, guarded as the app's; `cuts` counts the refusals it records. */
async function serve(answerDrainMs: number): Promise<{ port: number; cuts: string[]; cut: Promise<void> }> {
  const cuts: string[] = [];
  let told: () => void = () => undefined;
  const cut = new Promise<void>((resolve) => (told = resolve));
  const server = http.createServer((_req, res) => res.end(ANSWER));
  servers.push(server);
  const metrics = { refusals: { inc: (labels: { code: string }) => (cuts.push(labels.code), told()) } };
  guardSockets(server, { ...DEFAULT_LIMITS, answerDrainMs }, metrics as never, pino({ level: 'silent' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, cuts, cut };
}

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
    const { port, cuts, cut } = await serve(3000);
    const reader = get(port, true);
    get(port, false);
    // Bounded by the reader's answer and the cut (or, without the bound, 10 times it): no timing is asserted.
    await Promise.race([cut, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    expect(cuts).toEqual(['overloaded']);
    expect(await reader.bytes).toBeGreaterThan(ANSWER.length);
    // The server's side of the unread connection is gone: nothing of the answer is held for it.
    const left = await new Promise<number>((resolve) => servers[0]!.getConnections((_e, count) => resolve(count)));
    expect(left).toBeLessThanOrEqual(1);
  }, 40_000);

  it('is set with --limit answerDrainMs=N, 0 turning it off', () => {
    expect(parseLimits(['answerDrainMs=60000', 'answerDrainMs=0'])).toEqual({ answerDrainMs: 0 });
    expect(DEFAULT_LIMITS.answerDrainMs).toBe(300_000);
  });
});

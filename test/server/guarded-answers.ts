/**
 * A plain HTTP server answering every GET with one fixed body, its sockets guarded as the app wires them
 * (socket-guards.ts): what the answer-drain (T113) and closing-sockets (T118) tests drive. `cuts` records the
 * refusals its metrics count; `cut` resolves at the first.
 */
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { guardSockets } from '../../src/server/socket-guards.js';
import { DEFAULT_LIMITS } from '../../src/server/server-limits.js';

export interface GuardedAnswers {
  port: number;
  server: http.Server;
  cuts: string[];
  cut: Promise<void>;
}

const servers: http.Server[] = [];

/** Starts one on 127.0.0.1 with `answerDrainMs` (and Node's `keepAliveTimeout` when given). */
export async function serveGuarded(answer: Buffer, answerDrainMs: number, keepAliveTimeout?: number): Promise<GuardedAnswers> {
  const cuts: string[] = [];
  let told: () => void = () => undefined;
  const cut = new Promise<void>((resolve) => (told = resolve));
  const server = http.createServer((_req, res) => res.end(answer));
  if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
  servers.push(server);
  const metrics = { refusals: { inc: (labels: { code: string }) => (cuts.push(labels.code), told()) } };
  guardSockets(server, { ...DEFAULT_LIMITS, answerDrainMs }, metrics as never, pino({ level: 'silent' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server, cuts, cut };
}

/** Destroys the clients' `sockets` and closes every server started (for afterEach). */
export async function stopGuarded(sockets: net.Socket[]): Promise<void> {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

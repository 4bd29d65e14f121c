/**
 * The stream heartbeat counts only a pong that echoes its last ping (src/server/connection.ts, T114). Any pong used to
 * count: a client that never read its socket (its scores and the server's pings left unread) kept itself alive with
 * pongs of its own, holding its queued frames (up to `outgoingQueueBytes`) and the kernel's copy for as long as it
 * liked. A client that reads answers the ping (ws, browsers and the Python client echo it) and stays.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { Connection } from '../../src/server/connection.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const wss of servers.splice(0)) {
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
});

/** A server-side Connection and the client at the other end. */
async function pair(): Promise<{ conn: Connection; server: WebSocket; client: WebSocket }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(wss);
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client: WebSocket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise<void>((resolve) => client.once('open', () => resolve()));
  const server = await accepted;
  return { conn: new Connection(1, server, 1 << 30), server, client };
}

const pongCame = (server: WebSocket): Promise<void> => new Promise((resolve) => server.once('pong', () => resolve()));

describe('stream heartbeat', () => {
  it('cuts a client that never reads, whatever pongs of its own it sends; keeps one that answers the ping', async () => {
    const { conn, server, client } = await pair();
    // The client stops reading: the server's ping is never seen, so never answered; it sends pongs of its own instead.
    (client as unknown as { _socket: { pause(): void } })._socket.pause();
    expect(conn.beat()).toBe(true);
    for (const payload of [undefined, Buffer.alloc(0), Buffer.alloc(8)]) {
      const came = pongCame(server);
      client.pong(payload);
      await came;
    }
    expect(conn.beat()).toBe(false);

    const honest = await pair();
    expect(honest.conn.beat()).toBe(true);
    await pongCame(honest.server);
    expect(honest.conn.beat()).toBe(true);
    await pongCame(honest.server);
    expect(honest.conn.beat()).toBe(true);
  });
});

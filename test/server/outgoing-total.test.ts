/**
 * T66: every stream connection's queued answers together are bounded (`outgoingBytesTotal`, outgoing-total.ts).
 * Bounded per connection only (`outgoingQueueBytes`), clients that sent and never read held that much on each of
 * their connections. Past the total, a connection holding more than BACKLOG_FLOOR is closed as too slow; a client
 * that reads still gets its frames.
 */
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { Connection } from '../../src/server/connection.js';
import { BACKLOG_FLOOR, OutgoingTotal } from '../../src/server/outgoing-total.js';
import type { ServerMessage } from '../../src/protocol/server-messages.js';

const FRAME = { type: 'error', code: 'bad_message', message: 'x'.repeat(32 * 1024) } as ServerMessage;

let wss: WebSocketServer;
const clients: WebSocket[] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
});
afterAll(async () => {
  for (const c of clients) c.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
});

/** A client and the server's side of its connection; `reading` false: the client never reads. */
async function connect(reading: boolean): Promise<{ client: WebSocket; socket: WebSocket; received: () => number; closed: Promise<number> }> {
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  clients.push(client);
  await new Promise<void>((resolve) => client.once('open', () => resolve()));
  if (!reading) (client as unknown as { _socket: { pause(): void } })._socket.pause();
  let received = 0;
  client.on('message', () => received++);
  const socket = await accepted;
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  return { client, socket, received: () => received, closed };
}

/** Sends `n` frames at most, 16 a turn as the server's batches do; how many were taken before the connection refused one. */
async function sendUpTo(conn: Connection, n: number): Promise<number> {
  for (let i = 0; i < n; i++) {
    if (!conn.send(FRAME)) return i;
    if (i % 16 === 15) await nextTurn();
  }
  return n;
}

describe('all connections’ outgoing queues together', () => {
  it('closes a connection that does not read once the total is passed; one that reads is served; its bytes come back', async () => {
    const outgoing = new OutgoingTotal(2 * 1024 * 1024);
    const unread = await connect(false);
    const b = new Connection(1, unread.socket, 1 << 30, undefined, undefined, outgoing);
    // 400 frames of 32 KiB (12.5 MiB): more than the loopback buffers hold, far under b's own bound (1 GiB).
    const taken = await sendUpTo(b, 400);
    expect(taken).toBeLessThan(400);
    expect(unread.socket.bufferedAmount).toBeGreaterThan(BACKLOG_FLOOR);
    const reader = await connect(true);
    const a = new Connection(2, reader.socket, 1 << 30, undefined, undefined, outgoing);
    expect(await sendUpTo(a, 20)).toBe(20);
    for (let i = 0; i < 200 && reader.received() < 20; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reader.received()).toBe(20);
    // b is closed as too slow (its close frame unread: cut after 2 s), and its bytes leave the total.
    expect(await unread.closed).toBe(1006);
    await nextTurn();
    expect(outgoing.total).toBeLessThan(BACKLOG_FLOOR);
  });

  it('a bound of 0 leaves a connection to its own bound', async () => {
    const outgoing = new OutgoingTotal(0);
    const unread = await connect(false);
    const b = new Connection(3, unread.socket, 1 << 30, undefined, undefined, outgoing);
    expect(await sendUpTo(b, 200)).toBe(200);
    unread.client.terminate();
  });
});

/**
 * A connection cut for not reading (src/server/cut-unread.ts, T59): its socket is destroyed with one error, so each
 * write still queued fails with that one. Destroyed without one, Node builds an `ERR_STREAM_DESTROYED` (message and
 * stack) for every queued write: a stream client over its outgoing queue holds thousands, and cutting 8 of one
 * tenant's held every other client's event loop 0.8 s (16 live viewers: 0.3-0.5 s).
 */
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { Connection } from '../../src/server/connection.js';
import { LiveFeed } from '../../src/server/live-feed.js';
import { createMetrics } from '../../src/server/metrics.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';

const FRAME = 'x'.repeat(32 * 1024);

describe('cutting a connection whose client does not read', () => {
  it('fails every frame still queued on a stream connection with one error, naming why', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    await new Promise<void>((resolve) => client.once('open', () => resolve()));
    // The client stops reading: no frame, no ping, is read from here on (so no pong comes back either).
    (client as unknown as { _socket: { pause(): void } })._socket.pause();
    const socket = await accepted;
    const conn = new Connection(1, socket, 1 << 30);
    expect(conn.beat()).toBe(true);
    // More than the loopback buffers hold: most of these wait in the socket's own queue.
    const failed: Error[] = [];
    const done: Array<Promise<void>> = [];
    for (let i = 0; i < 400; i++) done.push(new Promise<void>((resolve) => socket.send(FRAME, (error) => (error && failed.push(error), resolve()))));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(conn.beat()).toBe(false); // its ping unanswered: cut
    await Promise.all(done);
    await closed;
    expect(failed.length).toBeGreaterThan(10);
    expect(new Set(failed).size).toBe(1);
    expect(failed[0]!.message).toMatch(/heartbeat/);
    client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  it('destroys a live viewer past its queue with one error saying it was not reading', () => {
    const metrics = createMetrics({ cacheStats: () => ({ hits: 0, misses: 0, entries: 0, bytes: 0 }) });
    const feed = new LiveFeed({ maxViewers: 4, queueBytes: 1000, config: DEFAULT_CONFIG, metrics, log: pino({ level: 'silent' }), heartbeatMs: 60_000 });
    const written: string[] = [];
    let destroyedWith: unknown = 'never destroyed';
    const res = Object.assign(new EventEmitter(), {
      writableLength: 0,
      destroyed: false,
      writableEnded: false,
      writeHead: () => res,
      write: (t: Buffer) => {
        written.push(t.toString());
        return true;
      },
      destroy: (error?: Error) => {
        destroyedWith = error;
        res.destroyed = true;
        res.emit('close');
        return res;
      },
      end: () => undefined,
    });
    feed.attach({ socket: Object.assign(new EventEmitter(), { setNoDelay: () => undefined }) } as never, res as never, LOCAL_PRINCIPAL, undefined);
    const session = { id: 's', tenant: LOCAL_PRINCIPAL.tenant, key: `${LOCAL_PRINCIPAL.tenant}:s`, totals: [], recentStages: '', task: 't', format: 'steplens', ended: false, connection: 1 };
    const full = { ...session, states: () => [], signals: [], length: 0, currentScore: () => ({ total: 0 }), reference: { kind: 'prior' }, startedAt: 0, stepTexts: () => [] };
    feed.started(full as never);
    res.writableLength = 1001 + Buffer.byteLength(written[0]!);
    feed.started(full as never);
    expect(destroyedWith).toBeInstanceOf(Error);
    expect((destroyedWith as Error).message).toMatch(/not reading/);
    feed.close();
  });
});

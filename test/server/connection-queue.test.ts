/**
 * Messages that waited behind an asynchronous one (a session's start) run QUEUED_PER_TURN a turn once it settles
 * (src/server/connection.ts). They all ran at once: a burst of 20,000 steps sent right behind 4 starts held every
 * other client's loop 1.3 s (bench/stall.js burst-20k), however the frame batch paced the reads. Order holds,
 * nothing is lost, a close runs what only waits for a turn, and past MAX_QUEUED_MESSAGES the socket is not read.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Connection, MAX_QUEUED_MESSAGES, QUEUED_PER_TURN } from '../../src/server/connection.js';
import { recordingSocket } from './helpers.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A connection whose slices end by count only (no time budget): a slow moment of a loaded machine must not end one early. */
function connection(): { conn: Connection; socket: WebSocket } {
  const socket = recordingSocket();
  return { conn: new Connection(1, socket, 1 << 20, undefined, Infinity), socket };
}

/** Hands `conn` a message that settles only when the returned function is called: later messages queue behind it. */
function slowMessage(conn: Connection): () => void {
  let settle!: () => void;
  conn.handle(() => new Promise<void>((resolve) => (settle = resolve)));
  return () => settle();
}

describe('Connection: messages queued behind an asynchronous one', () => {
  it('run QUEUED_PER_TURN a turn once it settles, in order', async () => {
    const { conn } = connection();
    const ran: number[] = [];
    const settle = slowMessage(conn);
    const total = 5 * QUEUED_PER_TURN + 3;
    for (let i = 0; i < total; i++) conn.handle(() => void ran.push(i));
    settle();
    await Promise.resolve();
    await Promise.resolve();
    const perTurn: number[] = [ran.length];
    for (let last = ran.length; ran.length < total;) {
      await turn();
      perTurn.push(ran.length - last);
      last = ran.length;
    }
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(QUEUED_PER_TURN);
    expect(ran).toEqual(Array.from({ length: total }, (_, i) => i));
    // A message that comes now (nothing waiting) runs at once.
    conn.handle(() => void ran.push(-1));
    expect(ran.at(-1)).toBe(-1);
  });

  it('a close runs what waits only for the next turn, at once', async () => {
    const { conn } = connection();
    const ran: number[] = [];
    for (let i = 0; i < 3 * QUEUED_PER_TURN; i++) conn.handle(() => void ran.push(i));
    // Nothing was asynchronous: all ran at once.
    expect(ran).toHaveLength(3 * QUEUED_PER_TURN);
    const settle = slowMessage(conn);
    for (let i = 0; i < 3 * QUEUED_PER_TURN; i++) conn.handle(() => void ran.push(1000 + i));
    settle();
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toHaveLength(4 * QUEUED_PER_TURN);
    conn.drainQueued();
    expect(ran).toHaveLength(6 * QUEUED_PER_TURN);
    await turn();
    await turn();
    expect(ran).toHaveLength(6 * QUEUED_PER_TURN);
  });

  it('stops reading the socket past MAX_QUEUED_MESSAGES waiting, and reads again as they run', async () => {
    const { conn, socket } = connection();
    const settle = slowMessage(conn);
    for (let i = 0; i < MAX_QUEUED_MESSAGES; i++) conn.handle(() => undefined);
    expect(socket.isPaused).toBe(true);
    // The frame batch resuming its own hold does not read a socket the queue holds.
    conn.pauseReads();
    conn.resumeReads();
    expect(socket.isPaused).toBe(true);
    settle();
    for (let i = 0; i < 2 + MAX_QUEUED_MESSAGES / QUEUED_PER_TURN && socket.isPaused; i++) await turn();
    expect(socket.isPaused).toBe(false);
  });
});

describe('Connection: a close while messages wait behind a slow one', () => {
  it('detaches after them, still QUEUED_PER_TURN a turn: a close does not run them at once', async () => {
    const { conn } = connection();
    const ran: number[] = [];
    const settle = slowMessage(conn);
    const total = 4 * QUEUED_PER_TURN;
    for (let i = 0; i < total; i++) conn.handle(() => void ran.push(i));
    settle();
    await Promise.resolve();
    await Promise.resolve();
    // The socket closes while they run paced (the server's close handler, after the frame batch's held frames).
    let detachedAt = -1;
    conn.closed(() => (detachedAt = ran.length));
    const perTurn: number[] = [ran.length];
    for (let last = ran.length; detachedAt < 0;) {
      await turn();
      perTurn.push(ran.length - last);
      last = ran.length;
    }
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(QUEUED_PER_TURN);
    expect(ran).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(detachedAt).toBe(total);
  });
});

/**
 * T67: frames past a connection's share of a turn are held for the next turns (frame-batch.ts), at most one read a
 * stream, but a 64 KiB read of 7-byte frames is 9,362 frames (~1.2 MB on the heap), and 2,000 streams sending one
 * such read held over a GB. Held frames now weigh their bytes and HELD_FRAME_OVERHEAD each, all streams together
 * bounded by `heldFrameBytesTotal`: past it the connection holding the most is closed 1008 `overloaded`, its held
 * frames dropped and its later ones ignored; a client pipelining real frames holds far less and is served.
 */
import { connect as tcp, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Connection } from '../../src/server/connection.js';
import { FRAMES_PER_TURN, FrameBatch, HELD_FRAME_OVERHEAD } from '../../src/server/frame-batch.js';
import { DEFAULT_LIMITS } from '../../src/server/server-limits.js';
import { UNNAMED_ANSWERS_PER_WINDOW } from '../../src/server/unnamed-refusals.js';
import { useApp } from './helpers.js';

class FakeConnection {
  paused = false;
  readonly principal: { tenant: string; role: 'agent' };
  constructor(readonly id: number) {
    this.principal = { tenant: `t${id}`, role: 'agent' };
  }
  pauseReads(): void {
    this.paused = true;
  }
  resumeReads(): void {
    this.paused = false;
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FrameBatch: held frames bounded together', () => {
  it('refuses the connection holding the most past the bound; the others keep every frame, in order', async () => {
    const seen: string[] = [];
    const refused: Array<[number, number]> = [];
    // Room for 300 held frames of 2 bytes: a's 400 pass it, b's 100 do not.
    const max = 300 * (2 + HELD_FRAME_OVERHEAD);
    const batch = new FrameBatch(
      (conn, raw) => seen.push(`${(conn as unknown as FakeConnection).id}:${raw.toString()}`),
      () => undefined,
      undefined,
      max,
      (conn, weight) => refused.push([(conn as unknown as FakeConnection).id, weight]),
    );
    const a = new FakeConnection(1);
    const b = new FakeConnection(2);
    const frame = (c: FakeConnection, i: number): void => batch.add(c as unknown as Connection, Buffer.from(`${c.id}${i % 10}`), false);
    for (let i = 0; i < FRAMES_PER_TURN + 100; i++) frame(b, i);
    expect(batch.heldBytes).toBe(100 * (2 + HELD_FRAME_OVERHEAD));
    for (let i = 0; i < FRAMES_PER_TURN + 400; i++) frame(a, i);
    // a held the most when the total passed the bound (201 frames held with b's 100): refused, its frames dropped.
    expect(refused).toEqual([[1, 201 * (2 + HELD_FRAME_OVERHEAD)]]);
    expect(batch.heldBytes).toBe(100 * (2 + HELD_FRAME_OVERHEAD));
    // The rest of a's read is ignored, and it stays paused (it is being closed).
    frame(a, 0);
    while (batch.size > 0) await turn();
    expect(a.paused).toBe(true);
    expect(b.paused).toBe(false);
    expect(batch.heldBytes).toBe(0);
    expect(seen.filter((s) => s.startsWith('2:'))).toHaveLength(FRAMES_PER_TURN + 100);
    // a's frames before it was held (its share of the turn) were handled; none after.
    expect(seen.filter((s) => s.startsWith('1:'))).toHaveLength(FRAMES_PER_TURN);
  });

  it('a bound of 0 holds everything', async () => {
    const refused: unknown[] = [];
    const batch = new FrameBatch(
      () => undefined,
      () => undefined,
      undefined,
      0,
      (conn) => refused.push(conn),
    );
    const a = new FakeConnection(1);
    for (let i = 0; i < 20_000; i++) batch.add(a as unknown as Connection, Buffer.from('x'), false);
    expect(batch.heldBytes).toBe((20_000 - FRAMES_PER_TURN) * (1 + HELD_FRAME_OVERHEAD));
    while (batch.size > 0) await turn();
    expect(refused).toEqual([]);
    expect(batch.heldBytes).toBe(0);
  });
});

const BOUND = 2 * 1024 * 1024;
const server = useApp({ limits: { heldFrameBytesTotal: BOUND } });
const sockets: Array<{ destroy(): void }> = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/**
 * A stream opened by hand (a raw socket), its upgrade answered; `outcome` resolves to the server's close frame (code
 * and reason), 'answered' once `expected` answers came, or 'end'.
 */
async function rawStream(expected: number): Promise<{ socket: Socket; outcome: Promise<string> }> {
  const url = new URL(server().wsUrl);
  const socket = tcp(Number(url.port), url.hostname);
  sockets.push(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  const upgraded = new Promise((resolve) => socket.once('data', resolve));
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` + 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  let data = Buffer.alloc(0);
  let at = -1;
  let answers = 0;
  const outcome = new Promise<string>((resolve) => {
    const read = (chunk: Buffer): void => {
      data = Buffer.concat([data, chunk]);
      if (at < 0) {
        at = data.indexOf('\r\n\r\n');
        if (at < 0) return;
        at += 4;
      }
      // Frames after the 101: answers (text, opcode 1) until a close (opcode 8: its code and reason).
      while (at + 2 <= data.length) {
        let len = data[at + 1]! & 0x7f;
        let head = 2;
        if (len === 126) {
          if (at + 4 > data.length) break;
          len = data.readUInt16BE(at + 2);
          head = 4;
        }
        if (at + head + len > data.length) break;
        if ((data[at]! & 0x0f) === 8) return resolve(`${data.readUInt16BE(at + head)} ${data.subarray(at + head + 2, at + head + len).toString()}`);
        at += head + len;
        if (++answers === expected) return resolve('answered');
      }
      data = data.subarray(at);
      at = 0;
    };
    socket.on('data', read);
    socket.once('end', () => resolve('end'));
  });
  await upgraded;
  return { socket, outcome };
}

/** 64 KiB less a few bytes of one-byte masked text frames ("x"), written at once. */
const FRAMES = 9362;
const TINY = Buffer.concat(Array<Buffer>(FRAMES).fill(Buffer.from([0x81, 0x81, 0, 0, 0, 0, 0x78])));

describe('streams holding tiny frames (authentication off)', () => {
  it('past heldFrameBytesTotal the stream holding the most is closed 1008; a client pipelining pings gets every pong', async () => {
    // A stream left open gets 16 answers to its junk, then one error counting the rest a second later (T70).
    const streams = await Promise.all(Array.from({ length: 8 }, () => rawStream(UNNAMED_ANSWERS_PER_WINDOW + 1)));
    const client = new WebSocket(server().wsUrl);
    sockets.push({ destroy: () => client.terminate() });
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    let pongs = 0;
    const served = new Promise<void>((resolve) =>
      client.on('message', (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { type: string }).type === 'pong' && ++pongs === 3000) resolve();
      }),
    );
    // 8 reads of ~1.2 MB held (4.6 MiB past a 2 MiB bound), the pings' 3,000 frames among them (~0.4 MB held).
    for (const s of streams) s.socket.write(TINY);
    for (let i = 0; i < 3000; i++) client.send('{"type":"ping"}');
    const outcomes = await Promise.all(streams.map((s) => s.outcome));
    const refused = outcomes.filter((o) => o.startsWith('1008 overloaded'));
    // On the code before T67 none is closed: every stream's 9,362 frames are read and handled.
    expect(refused.length).toBeGreaterThanOrEqual(2);
    await served;
    expect(pongs).toBe(3000);
    expect(client.readyState).toBe(WebSocket.OPEN);
  }, 30_000);

  it('is bounded by default (128 MiB)', () => {
    expect(DEFAULT_LIMITS.heldFrameBytesTotal).toBe(128 * 1024 * 1024);
  });
});

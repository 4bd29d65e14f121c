/**
 * T75: a stream whose every frame is refused for the client's own fault, more than 16 a second for 5 seconds in a
 * row, is closed 1008 with a reason; a stream whose frames are also taken is not. Frames that cannot be an object
 * are not parsed once the second's answers to junk are spent.
 */
import { describe, expect, it } from 'vitest';
import { JUNK_REFUSALS_PER_WINDOW, JUNK_WINDOW_MS, JUNK_WINDOWS_TO_CLOSE, junkCloseReason, mayBeObject, noteFrame, noteRefusal, type Closable } from '../../src/server/junk-streams.js';
import { Client, useApp } from './helpers.js';

const server = useApp();

/** A stand-in connection that records its close. */
function sink(): Closable & { closes: Array<[number, string]> } {
  const closes: Array<[number, string]> = [];
  return { closes, close: (code, reason) => void closes.push([code, reason]) };
}

/** `frames` frames in one window starting at `t`, the first `refused` of them refused `code`. */
function window(conn: Closable, t: number, frames: number, refused: number, code: 'bad_message' | 'overloaded' = 'bad_message'): boolean {
  let closed = false;
  for (let i = 0; i < frames; i++) {
    noteFrame(conn);
    if (i < refused) closed = noteRefusal(conn, code, t + (i * (JUNK_WINDOW_MS - 1)) / frames) || closed;
  }
  return closed;
}

describe('the junk rule, second by second', () => {
  const junk = JUNK_REFUSALS_PER_WINDOW + 1;

  it('closes after the windows in a row that were all refusals, on the next refusal', () => {
    const conn = sink();
    for (let w = 0; w < JUNK_WINDOWS_TO_CLOSE; w++) expect(window(conn, w * JUNK_WINDOW_MS, junk, junk)).toBe(false);
    expect(conn.closes).toEqual([]);
    expect(window(conn, JUNK_WINDOWS_TO_CLOSE * JUNK_WINDOW_MS, 1, 1)).toBe(true);
    expect(conn.closes).toEqual([[1008, junkCloseReason()]]);
    expect(Buffer.byteLength(junkCloseReason())).toBeLessThanOrEqual(123);
  });

  it('keeps a stream whose frames are also taken, one that refuses few a second, one that pauses, and refusals of the server', () => {
    const taken = sink();
    const few = sink();
    const pausing = sink();
    const server = sink();
    for (let w = 0; w < 3 * JUNK_WINDOWS_TO_CLOSE; w++) {
      const t = w * JUNK_WINDOW_MS;
      window(taken, t, junk + 1, junk);
      window(few, t, JUNK_REFUSALS_PER_WINDOW, JUNK_REFUSALS_PER_WINDOW);
      // Every other window without a frame: the run starts again.
      if (w % 2 === 0) window(pausing, t, junk, junk);
      window(server, t, junk, junk, 'overloaded');
    }
    for (const conn of [taken, few, pausing, server]) expect(conn.closes).toEqual([]);
  });

  it('tells frames that cannot be an object', () => {
    for (const raw of ['x', '', '   ', '[1]', '"s"', '1', Buffer.from([1, 2]), Buffer.from(' \n[')]) expect(mayBeObject(raw)).toBe(false);
    for (const raw of ['{', ' \t\r\n{"type":"ping"}', Buffer.from('{}'), Buffer.from('\n{')]) expect(mayBeObject(raw)).toBe(true);
  });
});

describe('on a stream', () => {
  /** Sends `perTick` junk frames (junk, an unknown type naming a session, a session nobody has) every 50 ms, and a ping when `ping`. */
  function pour(c: Client, perTick: number, ping: boolean): () => void {
    const frames: Array<string | object> = ['x', { type: 'launch', session: 's' }, { type: 'end', session: 'nobody' }, '[]'];
    let i = 0;
    const timer = setInterval(() => {
      if (c.closed) return;
      for (let k = 0; k < perTick; k++) c.send(frames[i++ % frames.length]);
      if (ping) c.send({ type: 'ping' });
    }, 50);
    return () => clearInterval(timer);
  }

  it('closes the stream that sends only refused frames, 1008 with the reason, and keeps the one whose pings are answered', async () => {
    const junkOnly = await Client.connect(server().wsUrl);
    const withPings = await Client.connect(server().wsUrl);
    // 40 a second each (2 a tick), well past the 16 a second that count.
    const stops = [pour(junkOnly, 2, false), pour(withPings, 2, true)];
    const closed = await junkOnly.whenClosed();
    expect(closed).toEqual({ code: 1008, reason: junkCloseReason() });
    // The other stream ran as long and more: still open, its ping still answered.
    for (const stop of stops) stop();
    expect(withPings.closed).toBeUndefined();
    withPings.send({ type: 'ping' });
    await withPings.sync();
    withPings.close();
  }, 20_000);
});

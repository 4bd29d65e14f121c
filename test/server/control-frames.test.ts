/**
 * T106: ping and pong frames are read by ws below the frame batch. A stream past CONTROL_FRAMES_PER_WINDOW of them in
 * a window is no longer read and is closed 1008 with the reason; another tenant's stream pinging within the bound,
 * its real run's steps answered, is not. On `main` before the rule the flooding stream was never closed.
 */
import { describe, expect, it } from 'vitest';
import { CONTROL_FRAMES_PER_WINDOW, CONTROL_WINDOW_MS, controlFramesPerWindow, controlFramesReason, countControlFrames } from '../../src/server/control-frames.js';
import { ALICE_BOB_OPS, ASTROID, bearerJson, Client, readEvents, useApps } from './helpers.js';
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';

const apps = useApps();

/** `n` masked control frames of `opcode` (0x9 ping, 0xa pong) with no payload, as one write: what one read of a flood holds. */
function controlBurst(opcode: number, n: number): Buffer {
  const frame = [0x80 | opcode, 0x80, 1, 2, 3, 4];
  return Buffer.from(Array.from({ length: n * frame.length }, (_, i) => frame[i % frame.length]!));
}

/** Opens `token`'s stream and a session of the astroid run, `steps` of its real events streamed and answered. */
async function streamRun(url: string, token: string, steps: number): Promise<Client> {
  const events = await readEvents(ASTROID.passA);
  const c = await Client.connect(url, bearerJson(token));
  c.send({ type: 'start', session: 'run', task: ASTROID.task, format: 'mini-swe-agent' });
  await c.nextOf('started', 'run');
  for (let seq = 0; seq < steps; seq++) c.send({ type: 'step', session: 'run', seq, step: events[seq % events.length] });
  await c.sync();
  return c;
}

describe('the control-frame rule', () => {
  it('calls over once, at the first window past the bound, and not for a stream within it window after window', () => {
    let t = 0;
    const flood = new EventEmitter();
    const steady = new EventEmitter();
    let floodOver = 0;
    let steadyOver = 0;
    countControlFrames(
      flood as unknown as WebSocket,
      () => floodOver++,
      CONTROL_FRAMES_PER_WINDOW,
      () => t,
    );
    countControlFrames(
      steady as unknown as WebSocket,
      () => steadyOver++,
      CONTROL_FRAMES_PER_WINDOW,
      () => t,
    );
    for (let w = 0; w < 5; w++) {
      t = w * CONTROL_WINDOW_MS;
      for (let i = 0; i < CONTROL_FRAMES_PER_WINDOW; i++) steady.emit(i % 2 === 0 ? 'ping' : 'pong');
    }
    expect(steadyOver).toBe(0);
    for (let i = 0; i <= CONTROL_FRAMES_PER_WINDOW; i++) flood.emit('pong');
    for (let i = 0; i < 100; i++) flood.emit('ping');
    expect(floodOver).toBe(1);
    expect(Buffer.byteLength(controlFramesReason())).toBeLessThanOrEqual(123);
    // A server pinging every 10 ms leaves room for its own pings' pongs; the default 30 s, the plain bound.
    expect(controlFramesPerWindow(10)).toBe(400);
    expect(controlFramesPerWindow(30_000)).toBe(CONTROL_FRAMES_PER_WINDOW);
  });

  for (const [kind, opcode] of [
    ['pongs', 0xa],
    ['pings', 0x9],
  ] as const) {
    it(`closes a tenant's stream flooding ${kind} 1008 with the reason, and keeps another tenant's stream that pings within the bound`, async () => {
      const srv = await apps.start(`flood-${kind}`, { tokens: ALICE_BOB_OPS });
      const bob = await streamRun(srv.wsUrl, 'bob', 20);
      const alice = await streamRun(srv.wsUrl, 'alice', 20);
      // Alice pings 20 times, each once the last is answered, 50 ms apart: within the bound, beside the flood.
      const pong = (): Promise<void> => new Promise((resolve) => alice.ws.once('pong', () => resolve()));
      const pinging = (async () => {
        let pongs = 0;
        for (let i = 0; i < 20; i++) {
          const answered = pong();
          alice.ws.ping();
          await answered;
          pongs++;
          await new Promise((resolve) => setTimeout(resolve, CONTROL_WINDOW_MS / 20));
        }
        return pongs;
      })();
      const raw = (bob.ws as unknown as { _socket: { write(b: Buffer): boolean } })._socket;
      // Bursts of 50, each written once the last is read: under ws' own bound of 60 pongs owed, which cuts a
      // client that does not read its pongs (1006) before any rule of ours would see the 61st ping.
      for (let i = 0; i < 40 && bob.closed === undefined; i++) {
        raw.write(controlBurst(opcode, 50));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const closed = await Promise.race([bob.whenClosed(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 8 * CONTROL_WINDOW_MS))]);
      const pongs = await pinging;
      expect(closed).toEqual({ code: 1008, reason: controlFramesReason() });
      // Alice's stream is open, her pings answered, her session still takes her run's steps.
      expect(alice.closed).toBeUndefined();
      expect(pongs).toBe(20);
      const events = await readEvents(ASTROID.passA);
      alice.send({ type: 'step', session: 'run', seq: 20, step: events[20 % events.length] });
      await alice.sync();
      expect(alice.frames.some((f) => f.type === 'error')).toBe(false);
      alice.close();
    });
  }
});

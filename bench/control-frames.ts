/**
 * What the control-frame rule (T106, src/server/control-frames.ts) adds to a stream: its two listeners at the
 * upgrade, and a count at each ping or pong. Alternated in one process (off, on, off, on ...): 2,000 streams
 * (EventEmitters standing in for ws sockets) each get the listeners, then 64 pongs in each of 20 windows (the
 * bound's worth, never over it), as ws would emit them; CPU time from `process.cpuUsage`.
 *
 *   node dist/bench/control-frames.js [--pairs 4]
 */
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { CONTROL_FRAMES_PER_WINDOW, CONTROL_WINDOW_MS, countControlFrames } from '../src/server/control-frames.js';

const STREAMS = 2000;
const WINDOWS = 20;
const pairsAt = process.argv.indexOf('--pairs');
const PAIRS = pairsAt > 0 ? Number(process.argv[pairsAt + 1]) : 4;

function cpuMs(f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
}

function run(on: boolean): { upgradeUs: number; frameNs: number } {
  let now = 0;
  const streams = Array.from({ length: STREAMS }, () => {
    const s = new EventEmitter();
    // ws's own listener on the socket: the heartbeat's (connection.ts), present either way.
    s.on('pong', () => undefined);
    return s;
  });
  const upgrade = cpuMs(() => {
    if (on)
      for (const s of streams)
        countControlFrames(
          s as unknown as WebSocket,
          () => undefined,
          CONTROL_FRAMES_PER_WINDOW,
          () => now,
        );
  });
  const frames = cpuMs(() => {
    for (let w = 0; w < WINDOWS; w++) {
      now = w * CONTROL_WINDOW_MS;
      for (const s of streams) for (let i = 0; i < CONTROL_FRAMES_PER_WINDOW; i++) s.emit('pong');
    }
  });
  return { upgradeUs: (upgrade * 1000) / STREAMS, frameNs: (frames * 1e6) / (STREAMS * WINDOWS * CONTROL_FRAMES_PER_WINDOW) };
}

run(true);
run(false);
for (let p = 0; p < PAIRS; p++) {
  for (const on of [false, true]) {
    const r = run(on);
    console.log(`${on ? 'on ' : 'off'}  listeners ${r.upgradeUs.toFixed(2)} µs a stream, ${r.frameNs.toFixed(1)} ns a pong`);
  }
}

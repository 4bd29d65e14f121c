/**
 * Ping and pong frames a stream client sends (T106). ws reads them itself, below the frame batch: a pong is only
 * noted (the heartbeat), a ping answered with a pong (ws cuts a client owing 60), neither paced. Four streams of one agent
 * token writing 6-byte unsolicited pongs as fast as their sockets took them (11 million in 10 s) held another
 * tenant's `/healthz` up to 1.6 s (p99 1.4 s): each read of the flood is parsed whole, up to 32 reads a socket
 * a turn. A client needs few: the server pings every `wsPingIntervalMs` (30 s), the clients' heartbeats every 20
 * s. Past {@link CONTROL_FRAMES_PER_WINDOW} in a window the stream is no longer read and is closed 1008.
 */
import type { WebSocket } from 'ws';

export const CONTROL_WINDOW_MS = 1000;
/** Ping and pong frames a stream may send in one window: far above any client's heartbeat. */
export const CONTROL_FRAMES_PER_WINDOW = 64;
/** WebSocket's close code for a policy violation (the other stream bounds' code). */
export const CONTROL_FRAMES_CLOSE = 1008;

export const controlFramesReason = (perWindow = CONTROL_FRAMES_PER_WINDOW): string => `bad_message: more than ${perWindow} ping/pong frames in ${CONTROL_WINDOW_MS / 1000} s: closed`;

/** The bound for a server pinging every `pingMs`: room for four times the pongs its own pings ask for, when that is more. */
export function controlFramesPerWindow(pingMs: number): number {
  return Math.max(CONTROL_FRAMES_PER_WINDOW, Math.ceil((4 * CONTROL_WINDOW_MS) / Math.max(1, pingMs)));
}

/**
 * Counts `socket`'s ping and pong frames; the first time a window holds more than `perWindow`,
 * calls `over` once (which stops reading and closes the stream) and counts no more.
 */
export function countControlFrames(socket: WebSocket, over: () => void, perWindow = CONTROL_FRAMES_PER_WINDOW, now: () => number = () => performance.now()): void {
  let start = now();
  let frames = 0;
  const note = (): void => {
    if (++frames <= perWindow) return;
    const t = now();
    if (t - start >= CONTROL_WINDOW_MS) {
      // A new window, this frame its first.
      start = t;
      frames = 1;
      return;
    }
    socket.off('ping', note);
    socket.off('pong', note);
    over();
  };
  socket.on('ping', note);
  socket.on('pong', note);
}

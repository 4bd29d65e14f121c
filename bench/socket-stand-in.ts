/**
 * What the in-process server benches (memory, session-cost, real-sessions) hand the server's message path instead
 * of a WebSocket: open, never backed up; `onSend` sees each frame it is sent (by default dropped).
 */
import type { WebSocket } from 'ws';

export function socketStandIn(onSend: (data: Buffer) => void = () => undefined): WebSocket {
  return {
    readyState: 1,
    OPEN: 1,
    bufferedAmount: 0,
    send: onSend,
    close: () => undefined,
    terminate: () => undefined,
    once: () => undefined,
    on: () => undefined,
  } as unknown as WebSocket;
}

/** CPU µs this process has used (user + system): the in-process benches' clock. */
export function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Cutting a connection whose peer stopped reading (a live viewer past its queue, a stream client past its outgoing
 * queue or its heartbeat). Node fails each write still queued on a destroyed socket with an error of its own
 * (`ERR_STREAM_DESTROYED`, its stack and message built every time) unless the socket was destroyed with one: such a
 * client holds thousands of queued frames, and cutting 8 stream connections of one tenant held every other client's
 * event loop 0.8 s, 16 live viewers 0.3-0.5 s (T59). Destroyed with one error, each queued write gets that one.
 */
import type { WebSocket } from 'ws';

interface Destroyable {
  destroyed: boolean;
  destroy(error?: Error): unknown;
}

/** Destroys `stream` with one error saying why: its queued writes fail with it, not one new error each. */
export function cutUnread(stream: Destroyable, why: string): void {
  if (!stream.destroyed) stream.destroy(new Error(why));
}

/** The TCP socket under a ws WebSocket (ws keeps it as `_socket`), when it is one. */
export function socketUnder(ws: WebSocket): Destroyable | undefined {
  const raw = (ws as unknown as { _socket?: Partial<Destroyable> })._socket;
  return typeof raw?.destroy === 'function' && typeof raw.destroyed === 'boolean' ? (raw as Destroyable) : undefined;
}

/** Ends a WebSocket's connection at once, as ws' `terminate()` does, its queued frames failed with one error. */
export function terminateUnread(ws: WebSocket, why: string): void {
  const raw = socketUnder(ws);
  if (raw !== undefined && !raw.destroyed && ws.readyState !== ws.CONNECTING) cutUnread(raw, why);
  else ws.terminate();
}

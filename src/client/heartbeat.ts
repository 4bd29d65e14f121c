/** Telling a dead link from a quiet one: a socket whose ping goes unanswered is dropped. */
import type WebSocket from 'ws';

/**
 * How often the client pings the server **(choice)**: a link that went dead without a close (the server's host
 * gone, a partition, a NAT that forgot the connection) is dropped within two of these, so the client reconnects
 * (or its calls fail `disconnected`) instead of waiting for good. The Python client's `websockets` pings every 20 s.
 */
export const HEARTBEAT_MS = 20_000;

/**
 * Pings over `ws` every `ms` (0: never); at a beat whose previous ping is unanswered, terminates it (its `close`
 * follows). The verdict waits for one more turn of the event loop: after the process itself was busy (a synchronous
 * stretch longer than `ms`), timers run before pending reads, so a pong already received would not yet be counted.
 */
export function heartbeat(ws: WebSocket, ms: number): void {
  if (!(ms > 0)) return;
  let answered = true;
  const onPong = (): void => void (answered = true);
  const judge = (): void => {
    if (!answered) ws.terminate();
  };
  const timer = setInterval(() => {
    if (!answered) return void setImmediate(judge);
    answered = false;
    ws.ping();
  }, ms);
  // The socket keeps the process alive while open; the beat alone must not.
  timer.unref();
  ws.on('pong', onPong);
  ws.once('close', () => {
    clearInterval(timer);
    ws.off('pong', onPong);
  });
}

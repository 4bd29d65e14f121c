/**
 * HTTP requests one connection may have unanswered at once (pipelined: sent before the answers to the earlier ones
 * came), T47. Node stops reading a connection only when an answer it has begun writing is not drained, and
 * steplens' routes answer asynchronously: every request of every chunk read was parsed and run before the first
 * answer was written, so a client pipelining 20,000 GETs of a 40 KB PTA and reading none made the server hold the
 * answers (6 such connections: RSS 94 MB -> 2.3 GB, another client's ping up to 4.3 s). Past
 * {@link PIPELINED_REQUESTS} unanswered requests the connection is closed. No client steplens knows of pipelines
 * (browsers, Node's fetch and http, Python's clients wait for each answer).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Requests a connection may have unanswered at once. */
export const PIPELINED_REQUESTS = 16;

/** Closes a connection of `server` with more than `max` requests unanswered; `onCut` is told of each. */
export function capPipelining(server: Server, onCut: () => void, max = PIPELINED_REQUESTS): void {
  const open = new WeakMap<Socket, number>();
  // Before fastify's own listener: a connection cut here has its request handled with nobody to answer.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const n = (open.get(socket) ?? 0) + 1;
    open.set(socket, n);
    res.once('close', () => open.set(socket, (open.get(socket) ?? 1) - 1));
    if (n > max && !socket.destroyed) {
      onCut();
      socket.destroy();
    }
  });
}

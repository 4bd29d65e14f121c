/**
 * Bounds on TCP connections, so one client cannot take every file descriptor: with an fd limit of 1,024 a
 * slowloris made other clients' WebSocket connects reset and scoring answer 500 (issue 25). A client (a
 * remote address) holds at most `perAddress` connections, the server at most `total` (below the fd limit,
 * leaving room for files, workers and Redis); a connection past either is answered 503 `overloaded` and
 * closed. Behind a load balancer every connection comes from its address: raise `perAddress` or set it to 0.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { rawErrorResponse } from './http-errors.js';

export interface ConnectionCaps {
  /** Connections one remote address may hold (0: no bound). */
  perAddress: number;
  /** Connections the server holds at most (0: no bound). */
  total: number;
}

/** Answers a refused connection 503 and closes it (at once if the client does not read the answer). */
function refuse(socket: Socket, message: string): void {
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.end(rawErrorResponse('overloaded', message), () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

/** Applies the caps to `server`; `onRefused` is told of each connection refused. */
export function capConnections(server: Server, caps: ConnectionCaps, onRefused: (why: 'address' | 'total') => void): void {
  const byAddress = new Map<string, number>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const held = byAddress.get(address) ?? 0;
    const why = caps.total > 0 && open >= caps.total ? 'total' : caps.perAddress > 0 && held >= caps.perAddress ? 'address' : undefined;
    if (why !== undefined) {
      onRefused(why);
      return refuse(socket, why === 'total' ? `the server holds ${caps.total} connections, its limit` : `your address holds ${caps.perAddress} connections, the limit per client`);
    }
    open++;
    byAddress.set(address, held + 1);
    socket.once('close', () => {
      open--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
  });
}

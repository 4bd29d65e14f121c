/**
 * Bounds on TCP connections, so one client cannot take every file descriptor: with an fd limit of 1,024 a
 * slowloris made other clients' WebSocket connects reset and scoring answer 500 (issue 25). A client (a
 * remote address) holds at most `perAddress` connections, the server at most `total` (below the fd limit,
 * leaving room for files, workers and Redis); a connection past either is answered 503 `overloaded` and
 * closed. Behind a load balancer every connection comes from its address: raise `perAddress` or set it to 0.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { rawErrorResponse } from './http-errors.js';

/** File descriptors kept free for everything but client connections (PTA files, workers, Redis, logs). */
const FD_RESERVE = 256;

/** The soft limit of open files of this process (Linux /proc), if known. */
export function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line?.[1] !== undefined && line[1] !== 'unlimited' ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The default bound on all connections: the fd limit less a reserve (at least 64), else 10,000. */
export function defaultMaxConnections(limit = openFilesLimit()): number {
  return limit === undefined ? 10_000 : Math.max(64, limit - FD_RESERVE);
}

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

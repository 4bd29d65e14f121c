/**
 * Bounds on TCP connections, so one client cannot take every file descriptor: with an fd limit of 1,024 a
 * slowloris made other clients' WebSocket connects reset and scoring answer 500 (issue 25). A client (a
 * remote address) holds at most `perAddress` connections, the server at most `total` (below the fd limit,
 * leaving room for files, workers and Redis); a connection past either is answered 503 `overloaded` and
 * closed. Behind a load balancer every connection comes from its address: raise `perAddress` or set it to 0.
 *
 * At the total, the address holding the most gives way (T65): a client on many addresses (127.0.0.2-.81, within
 * `perAddress` each) held every connection with idle streams, and every other client's connect got 503 for as long
 * as it liked. Now, while `perAddress` counts addresses as clients, a connection from an address holding at least
 * two fewer than the address holding the most is taken, and that address's newest connection is closed (a stream's
 * sessions stay resumable, as after any cut). Holding every connection then takes about `total` addresses.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { AddressTable } from './address-table.js';
import { cutUnread } from './cut-unread.js';
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

/** Applies the caps to `server`; `onRefused` is told of each connection refused, `onGaveWay` of each closed for a newcomer. */
export function capConnections(server: Server, caps: ConnectionCaps, onRefused: (why: 'address' | 'total') => void, onGaveWay: () => void = () => undefined): void {
  const table = new AddressTable();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const held = table.held(address);
    if (caps.perAddress > 0 && held >= caps.perAddress) {
      onRefused('address');
      return refuse(socket, `your address holds ${caps.perAddress} connections, the limit per client`);
    }
    if (caps.total > 0 && open >= caps.total) {
      // Behind a balancer (perAddress 0) an address is not a client: no address gives way there.
      const out = caps.perAddress > 0 ? table.giveWay(held) : undefined;
      if (out === undefined) {
        onRefused('total');
        return refuse(socket, `the server holds ${caps.total} connections, its limit`);
      }
      open--;
      cutUnread(out, 'closed for a client of another address: the server is at its connection limit and this address holds the most');
      onGaveWay();
    }
    open++;
    table.add(address, socket);
    socket.once('close', () => {
      // A socket that gave way was counted out already (the table no longer holds it).
      if (table.delete(address, socket)) open--;
    });
  });
}

/**
 * The server's own closes of HTTP connections (T118). Node closes a connection after an answer it must not keep alive
 * (`Connection: close`, HTTP/1.0) and an idle keep-alive one at `keepAliveTimeout` by closing its socket, which hands
 * what the kernel still holds unsent to the kernel alone: an orphan socket, gone from the process and from the
 * connection caps (T65), that keeps its bytes (up to `tcp_wmem`'s 4 MiB) for as long as the client keeps its end open
 * without reading. One address asking for answers with `Connection: close` held 300 such connections past its cap of
 * 256 and 49.6 MB of kernel memory. Here such a close sends its FIN after the answer and keeps the socket (counted)
 * until the client closes its end, which a client that read the answer does at once; one that has not within
 * `answerDrainMs` is reset (an RST: the kernel drops its copy), as T113 does with answers the process still holds.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Resets the connection (RST): what the kernel queued for it goes too. */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/**
 * Ends `socket` (a FIN after what it has written) and destroys it once the client has closed its end; past `maxMs`
 * without that, resets it and tells `onCut`. A socket whose client closed its end already is destroyed at once.
 */
export function closeAfterClient(socket: Socket, maxMs: number, onCut: (socket: Socket) => void): void {
  if (socket.destroyed) return;
  if (socket.readableEnded) {
    socket.destroy();
    return;
  }
  socket.end();
  const timer = setTimeout(() => {
    if (socket.destroyed) return;
    onCut(socket);
    reset(socket);
  }, maxMs);
  timer.unref();
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
  // What the client still sends is read and dropped, so that its FIN is seen.
  socket.resume();
}

/**
 * Makes `server`'s own closes of its HTTP connections wait for the client's (see the module comment): the close after
 * an answer that ends its connection (`destroySoon`) and at the keep-alive timeout. `maxMs` 0: Node's closes as they are.
 */
export function lingerCloses(server: Server, maxMs: number, onCut: (socket: Socket) => void): void {
  if (maxMs <= 0) return;
  server.on('connection', (socket: Socket) => {
    // Node's HTTP server calls it once the last answer of a connection that is not kept alive is written.
    socket.destroySoon = () => closeAfterClient(socket, maxMs, onCut);
  });
  // A listener here keeps Node from destroying the socket itself when the keep-alive timeout fires (`server.timeout`
  // is 0, so that is the only socket timeout an HTTP connection gets; upgraded streams clear theirs).
  server.on('timeout', (socket: Socket) => closeAfterClient(socket, maxMs, onCut));
}

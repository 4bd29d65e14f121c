/**
 * The bytes of WebSocket messages a tenant's streams have begun and not finished (T62). ws keeps a message's
 * fragments, or a frame's bytes, until it is whole, up to its `maxPayload` (8x `maxFrameBytes`, 8 MiB) per stream,
 * and a client that answers pings may hold one unfinished for ever: one agent token's 64 streams, each 8 MiB less
 * 1 KiB of a message in 64 KiB fragments without the last one, took the server's RSS 95 -> 634 MiB; its share of
 * streams (`connectionsPerTenant`, a quarter of `maxConnections`: 4,936 with 20,000 open files) would hold 38 GiB.
 * Counted here from the socket's reads since the stream's last whole message (a control frame counts its few
 * bytes; a read that ends one message and begins the next is off by at most that read), within
 * `partialFrameBytesPerTenant` (body-receipts.ts' rule: a tenant's only unfinished message is always taken, ws
 * bounds it): the stream whose read would pass it is no longer read and is closed 1008 `quota_exceeded`, its
 * sessions detached (resumable), its bytes given back.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { SteplensError } from '../errors.js';
import type { BodyHold } from './body-receipts.js';

/** The close code of a stream over its tenant's share (policy violation, as a client that does not read). */
export const PARTIAL_FRAMES_CLOSE = 1008;

/** Counts what `socket` reads against `hold` until each whole message of `ws`; `over` is told once when a read does not fit. */
export function countPartialFrames(ws: WebSocket, socket: Socket, hold: BodyHold, over: (refusal: SteplensError) => void): void {
  let refused = false;
  const read = (chunk: Buffer): void => {
    if (refused) return;
    const refusal = hold.take(chunk.length);
    if (refusal === undefined) return;
    refused = true;
    hold.release();
    // Not read further while it closes: a refused stream would otherwise still take its message's 8 MiB, and a
    // client reconnecting in a loop as many as it may open.
    socket.pause();
    over(refusal);
  };
  socket.on('data', read);
  ws.on('message', () => hold.release());
  ws.once('close', () => {
    socket.off('data', read);
    hold.release();
  });
}

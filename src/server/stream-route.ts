/**
 * `GET /v1/stream`: the WebSocket each agent streams its sessions over. A connection per socket, bounded by the
 * server-wide totals of queued answers (outgoing-total.ts) and held frames (frame-batch.ts), a tenant's messages begun
 * and not finished (partial-frames.ts) and a stream's ping/pong frames (control-frames.ts); its frames handled in turn
 * by the frame batch, its sessions detached once it closes. A plain GET gets the JSON error shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { Authenticator } from './auth.js';
import { BodyReceipts } from './body-receipts.js';
import { CLOSE, Connection } from './connection.js';
import { CONTROL_FRAMES_CLOSE, controlFramesPerWindow, controlFramesReason, countControlFrames } from './control-frames.js';
import { FrameBatch } from './frame-batch.js';
import { sendError } from './http-routes.js';
import type { AppMetrics } from './metrics.js';
import type { ServerLimits } from './server-limits.js';
import { OutgoingTotal } from './outgoing-total.js';
import { countPartialFrames, PARTIAL_FRAMES_CLOSE } from './partial-frames.js';
import type { SessionRegistry } from './session-registry.js';
import { handleFrame, type HandlerDeps } from './stream-handler.js';
import { tenantInfo, tenantWarn } from './tenant-log.js';
import { STREAM_ROUTE } from './upgrade-check.js';

export interface StreamDeps {
  limits: ServerLimits;
  metrics: AppMetrics;
  log: Logger;
  auth: Authenticator;
  registry: SessionRegistry;
  /** The open connections by id (the server's heartbeat and shutdown walk them). */
  connections: Map<number, Connection>;
  frames: FrameBatch;
}

/** The batch every stream's frames are handled in (frame-batch.ts). */
export function streamFrames(handler: HandlerDeps, limits: ServerLimits, metrics: AppMetrics, log: Logger): FrameBatch {
  return new FrameBatch(
    (conn, raw, isBinary) => conn.handle(() => handleFrame(handler, conn, raw, isBinary)),
    (error) => log.error({ err: error }, 'frame handler failed'),
    undefined,
    // Every stream's held frames together (T67): a read of tiny frames held ~1.2 MB a stream, 2,000 streams over a GB.
    limits.heldFrameBytesTotal,
    (conn, weight) => {
      metrics.refusals.inc({ code: 'overloaded' });
      tenantWarn(log, conn.principal.tenant, { connection: conn.id, held: weight }, 'frames held over heldFrameBytesTotal: connection closed (1008)');
      conn.close(CLOSE.tooSlow, `overloaded: all streams' held frames over heldFrameBytesTotal, ${weight} bytes of them this one's`);
    },
  );
}

export function registerStreamRoute(app: FastifyInstance, deps: StreamDeps): void {
  const { limits, metrics, log, auth, registry, connections, frames } = deps;
  let nextConnection = 0;
  // Messages begun and not finished, a tenant's streams together (T62).
  const partialFrames =
    limits.partialFrameBytesPerTenant > 0
      ? new BodyReceipts({ total: Number.MAX_SAFE_INTEGER, perTenant: limits.partialFrameBytesPerTenant, what: 'WebSocket messages begun on its streams and not finished' })
      : undefined;
  // Every stream's queued answers together (T66): per connection alone, clients that never read held 4 MiB on each.
  const outgoing = new OutgoingTotal(limits.outgoingBytesTotal);
  // Ping and pong frames a stream may send a second: above the pongs the server's own pings ask for (control-frames.ts).
  const controlBound = controlFramesPerWindow(limits.wsPingIntervalMs);
  // A plain GET (a proxy that drops the Upgrade header, a browser) gets the JSON error shape of every other route.
  const notUpgraded = (_req: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, metrics, 'bad_message', 'GET /v1/stream is a WebSocket endpoint: send the upgrade (Upgrade: websocket), or a proxy dropped it');
  app.route({
    method: 'GET',
    url: STREAM_ROUTE,
    handler: notUpgraded,
    wsHandler: (socket: WebSocket, req) => {
      const id = ++nextConnection;
      const conn = new Connection(
        id,
        socket,
        limits.outgoingQueueBytes,
        (queued) => {
          metrics.refusals.inc({ code: 'overloaded' });
          tenantWarn(log, conn.principal.tenant, { connection: id, queued }, 'client not reading: connection closed (1008)');
        },
        undefined,
        outgoing,
      );
      conn.principal = auth.principal(req);
      connections.set(conn.id, conn);
      metrics.activeConnections.set(connections.size);
      tenantInfo(log, conn.principal.tenant, { connection: conn.id }, 'connection opened');
      if (partialFrames) {
        countPartialFrames(socket, req.raw.socket, partialFrames.hold(conn.principal.tenant), (refusal) => {
          metrics.refusals.inc({ code: refusal.code });
          tenantWarn(log, conn.principal.tenant, { connection: id }, "messages begun over the tenant's partialFrameBytesPerTenant: connection closed (1008)");
          conn.close(PARTIAL_FRAMES_CLOSE, `${refusal.code}: messages begun, not finished, over partialFrameBytesPerTenant`);
        });
      }
      // Pings and pongs are read by ws below the frame batch: a flood of them is closed, not paced (T106).
      countControlFrames(
        socket,
        () => {
          metrics.refusals.inc({ code: 'bad_message' });
          tenantWarn(log, conn.principal.tenant, { connection: id }, 'ping/pong frames over the bound: connection closed (1008)');
          conn.stopReads();
          conn.close(CONTROL_FRAMES_CLOSE, controlFramesReason(controlBound));
        },
        controlBound,
      );
      // Handled at the end of the turn, the socket paused past FRAMES_PER_TURN frames in it (frame-batch.ts).
      socket.on('message', (data, isBinary) => {
        const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
        frames.add(conn, raw, isBinary);
      });
      socket.on('close', (code) => {
        connections.delete(conn.id);
        metrics.activeConnections.set(connections.size);
        tenantInfo(log, conn.principal.tenant, { connection: conn.id, code }, 'connection closed');
        // Its sessions are detached once every frame it sent is handled: those still held, then those queued behind
        // a slow message, each at their pace (conn.closed).
        frames.drain(conn, () => registry.closed(conn));
      });
    },
  });
}

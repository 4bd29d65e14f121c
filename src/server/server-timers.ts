/**
 * The server's periodic work, none of it holding the process open: a ping to every stream (a half-open connection,
 * the peer gone without a close, never answers one: it is closed, its sessions stay resumable), the registry's sweep
 * (idle sessions ended, ended ones past the resume window dropped) and, with Redis, the renewal of session leases.
 */
import type { Logger } from 'pino';
import type { Connection } from './connection.js';
import type { DurableSessions } from './durable-sessions.js';
import type { ResolvedOptions } from './options.js';
import type { SessionRegistry } from './session-registry.js';

export interface TimerDeps {
  connections: ReadonlyMap<number, Connection>;
  registry: SessionRegistry;
  durable: DurableSessions | undefined;
  /** With Redis: how long a lease lasts unless renewed (default 15 s). */
  leaseMs: number | undefined;
  options: ResolvedOptions;
  log: Logger;
}

export class ServerTimers {
  private readonly heartbeat: NodeJS.Timeout;
  private readonly sweeper: NodeJS.Timeout;
  private readonly leaseKeeper: NodeJS.Timeout | undefined;

  constructor({ connections, registry, durable, leaseMs, options, log }: TimerDeps) {
    this.heartbeat = setInterval(() => {
      for (const conn of connections.values()) if (!conn.beat()) log.info({ connection: conn.id }, 'no pong to the last ping: connection closed');
    }, options.limits.wsPingIntervalMs);
    this.heartbeat.unref();
    const sweepEvery = Math.max(50, Math.min(options.idleTimeoutMs, options.resumeWindowMs, 10_000) / 4);
    this.sweeper = setInterval(() => void registry.sweep().catch((error: unknown) => log.error({ err: error }, 'sweep failed')), sweepEvery);
    this.sweeper.unref();
    this.leaseKeeper = durable
      ? setInterval(() => void durable.renewLeases().catch((error: unknown) => log.warn({ err: error }, 'lease renewal failed')), Math.max(50, (leaseMs ?? 15_000) / 3))
      : undefined;
    this.leaseKeeper?.unref();
  }

  /** The sweep and the lease renewal (first on shutdown: the sessions are being handed back or ended). */
  stopSweeps(): void {
    clearInterval(this.sweeper);
    clearInterval(this.leaseKeeper);
  }

  /** The pings (once the sockets are closed). */
  stopHeartbeat(): void {
    clearInterval(this.heartbeat);
  }
}

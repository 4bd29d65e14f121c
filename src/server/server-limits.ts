/**
 * `ServerLimits`, the bounds a server holds itself to (sessions, frames, bytes held, viewers, connections, PTAs,
 * timeouts, per-tenant shares), and their defaults: those with two tenants or more are set in `resolveOptions`
 * (options.ts), from the tenants the tokens name.
 */
import { getHeapStatistics } from 'node:v8';
import { DEFAULT_PTA_LIMITS, type PtaLimits } from '../core/pta/limits.js';
import { defaultMaxConnections, defaultStreamsPerTenant } from './open-files.js';

export interface ServerLimits {
  /** Open sessions one connection may hold (default 64). */
  sessionsPerConnection: number;
  /** Open sessions in the whole server (default 4096). */
  totalSessions: number;
  /** Largest accepted client frame in bytes; larger frames get `too_large` (default 1 MiB). */
  maxFrameBytes: number;
  /** Steps one session may score (default 5000). */
  maxStepsPerSession: number;
  /** With Redis: bytes of step messages one session may keep in the journal; a step past it is refused `too_large` (default 64 MiB). */
  maxSessionBytes: number;
  /**
   * With Redis: bytes of step messages one tenant's sessions may keep in the journal, every replica together (ended
   * ones until the resume window drops them); a step past it is refused `quota_exceeded` (default 512 MiB; 0: no
   * bound). Size Redis' `maxmemory` above this times the tenants, plus the PTAs (docs/scale-out.md).
   */
  journalBytesPerTenant: number;
  /**
   * Bytes of step messages one tenant's open sessions may hold in this server's memory (T37; ended ones have their
   * own bounds); a step past it is refused `quota_exceeded` (default with two tenants or more a quarter of `stepBytesTotal`,
   * at most 512 MiB: 259 MiB on a 4 GiB heap; 0 with one: no bound). The heap must hold about 1.6 times this per tenant that streams large steps (docs/reliability.md, T37).
   */
  stepBytesPerTenant: number;
  /**
   * Bytes of step messages all open sessions together may hold in this server's memory (T43); a step past it is
   * refused `overloaded`, the session goes on (default: a quarter of the V8 heap limit, about 1 GiB on a 4 GiB heap;
   * 0: no bound). What kept a server with one tenant (no per-tenant bound), or several at their shares, from growing
   * the heap until the process aborts.
   */
  stepBytesTotal: number;
  /**
   * Bytes of WebSocket messages one tenant's streams have begun and not finished (T62; ws keeps up to 8x
   * `maxFrameBytes` of one per stream until it is whole); the stream whose read would pass it is closed 1008
   * (default 256 MiB with two tenants or more, 0 with one: no bound).
   */
  partialFrameBytesPerTenant: number;
  /**
   * Log lines a minute one tenant's events may write (sessions started, ended, resumed, freed; streams opened and
   * closed; pairs pushed out), in bursts of as many (T38); past it its lines are left out and counted on its next
   * one (default 1,200 with two tenants or more, 0 with one: no bound).
   */
  logLinesPerTenant: number;
  /** Bytes a connection may have queued for sending before it is closed as too slow (default 4 MiB). */
  outgoingQueueBytes: number;
  /**
   * Bytes every stream connection together may have queued for sending (default 256 MiB; 0: no bound): past it a
   * connection holding more than 64 KiB of them is closed as too slow (outgoing-total.ts, T66).
   */
  outgoingBytesTotal: number;
  /**
   * Bytes every stream's held frames together may weigh (default 128 MiB; 0: no bound), each frame its bytes and 128
   * (its Buffer on the heap): frames past a connection's share of a turn wait, held, for the next turns
   * (frame-batch.ts); past it the connection holding the most is closed 1008 `overloaded`, its held frames dropped (T67).
   */
  heldFrameBytesTotal: number;
  /** Largest HTTP body in bytes (default 64 MiB). */
  maxBodyBytes: number;
  /** Ended sessions kept for `resume` and GET /v1/sessions/:id within the resume window; past it the oldest of the tenant holding the most go first (default 10,000). */
  maxEndedSessions: number;
  /** Bytes the kept ended sessions may hold (their frame logs and finals, estimated; default 64 MiB); past it the oldest of the tenant holding the most bytes go first. */
  maxEndedSessionBytes: number;
  /**
   * Web view live-feed viewers at once (default 64; more get `overloaded`). With two tenants or more, agents
   * together hold at most all but `liveViewers / 16` of them (4 of 64): those are kept for operators.
   */
  liveViewers: number;
  /**
   * Live-feed viewers one tenant that is not an operator may hold (default a quarter of `liveViewers`, at least 2;
   * with fewer than two tenants, `liveViewers`). Past it, `GET /v1/live` gets `quota_exceeded` (429).
   */
  liveViewersPerTenant: number;
  /** Bytes a live-feed viewer may have unread before it is dropped as too slow (default 1 MiB). */
  liveQueueBytes: number;
  /** References one task's PTA may hold; a reference past it is refused `too_large` (default 1,000). */
  ptaReferences: number;
  /** Nodes one task's PTA may hold (default 50,000). */
  ptaNodes: number;
  /** Bytes of one task's PTA as JSON (default 16 MiB). */
  ptaBytes: number;
  /** An HTTP request's headers must arrive within this (default 10 s; a slowloris is cut). */
  headersTimeoutMs: number;
  /** A whole HTTP request (headers and body) must arrive within this (default 120 s: 64 MiB at about 0.5 MB/s). */
  requestTimeoutMs: number;
  /** The server pings each WebSocket this often; one that has not answered the previous ping is closed (default 30 s). */
  wsPingIntervalMs: number;
  /**
   * An HTTP answer written whole whose bytes waiting in the process have not gone down for this long has its connection
   * reset (default 300 s; 0: no bound): a client that never reads its answers held them, and the kernel's copy, until
   * it closed (T113). The clock restarts whenever the client takes bytes. The same bound holds a connection the server
   * closes (`Connection: close`, the keep-alive timeout) whose client has not closed its end: reset, not left to the
   * kernel as an orphan with what it still holds unsent (T118).
   */
  answerDrainMs: number;
  /** TCP connections one remote address may hold (0: no bound; default 256). Behind a load balancer, raise it or set 0. */
  connectionsPerAddress: number;
  /** TCP connections the server holds at most (0: no bound; default: the open-files limit less 256, else 10,000). */
  maxConnections: number;
  /**
   * WebSocket connections one tenant that is not an operator may hold (0: no bound). Default: with fewer than two
   * tenants 0; else a quarter of `maxConnections`, at least 16 (1,024 when `maxConnections` is 0). Past it the
   * upgrade gets 429 `quota_exceeded`.
   */
  connectionsPerTenant: number;
  /**
   * New WebSocket streams (upgrades) one tenant that is not an operator may open a second, on average (0, the default:
   * no bound). Past it and `streamUpgradeBurst` the upgrade gets 429 `quota_exceeded` (T112). Off by default: churn at
   * 40 a second cost another tenant nothing measurable (T112), a refusal costs about half an open, and a bound below
   * `connectionsPerTenant` would refuse a trainer opening its rollouts' streams together.
   */
  streamUpgradesPerSecond: number;
  /** ... and at once: the token bucket's size (default 200: a fleet of agents reconnecting together after a restart). */
  streamUpgradeBurst: number;
  /** On shutdown, connections still open this long after sessions are handed back or ended are cut (default 10 s). */
  shutdownGraceMs: number;
  /**
   * Open sessions (detached ones included) one tenant may hold (default a quarter of `totalSessions`, at most 1024:
   * 1024 of the default 4096; with fewer than two tenants, `totalSessions`). Past it, `start` gets `quota_exceeded`; a quota of `totalSessions` or more is the server's own limit (`overloaded`, after reclaiming a detached session).
   */
  sessionsPerTenant: number;
  /** Agent + model pairs the policy manager keeps for shadow mode, all tenants together (default 1000); the least recently used go first. */
  pairs: number;
  /** ... and per tenant (default 64): one tenant's names never push out another's. */
  pairsPerTenant: number;
  /** Sources (agent + model) one forecast learning scope (a tenant's, or the shared one) holds learned models of (default 64; `--forecast-learn`). */
  forecastSources: number;
  /** Forecast version files (`--forecast-learn`) kept per directory, the newest (default 20; 0 keeps every one). */
  forecastVersions: number;
  /** Retraining attempts (`--forecast-learn`) a learning scope lists in `GET /v1/forecast` and saves beside its versions, the latest (default 50). */
  forecastAttempts: number;
  /** Pairs /metrics labels by name (default 20, those with the most shadow runs); the rest are summed under `other`. */
  metricsPairs: number;
  /** References a tenant that is not an operator may add to one task's PTA (its own, in `tenant` reference scope; POST or `learn`; default 2). This and the next two apply with two tenants or more. */
  referencesPerTenantPerTask: number;
  /** References a tenant that is not an operator may add per hour, every task together, on one replica (default 60). */
  referencesPerTenantPerHour: number;
  /** JSON bytes a tenant's own PTAs (`tenant` reference scope) may hold in the store, every task together (default 256 MiB; 0: no bound): own-pta-quota.ts. */
  ptaBytesPerTenant: number;
  /**
   * Share of a reference's steps that may open new nodes when a tenant that is not an operator adds it to a
   * PTA already in use as a reference (default 0.5); a reference that would change the PTA more needs an operator.
   * `shared` reference scope only: in `tenant` scope no tenant's reference grows a PTA another tenant uses.
   */
  referenceNovelty: number;
  /** How long a ticket (POST /v1/tickets) stays good, in ms (default 30 s). */
  ticketTtlMs: number;
}

/**
 * `stepBytesTotal`'s default: a quarter of the V8 heap limit. The heap held about 1.6 times the step bytes sent in
 * T37's probe (distinct 100 KB commands and outputs), so at the bound about 40 % of it, the rest for everything else.
 */
export function defaultStepBytesTotal(heapLimit = getHeapStatistics().heap_size_limit): number {
  return Math.floor(heapLimit / 4);
}

/** `stepBytesPerTenant` with two tenants or more (512 MiB, as `journalBytesPerTenant`), at most a quarter of `stepBytesTotal`. */
export const DEFAULT_STEP_BYTES_PER_TENANT = 512 * 1024 * 1024;

/**
 * A tenant's default share of a server-wide bound `total`: a quarter of it (at least 1), at most `most`; `most` when the
 * total is off (0). As the viewers' and the streams' shares: no tenant fills a bound alone (T78).
 */
export function quarterOf(total: number, most: number): number {
  return total > 0 ? Math.min(most, Math.max(1, Math.ceil(total / 4))) : most;
}

/**
 * `partialFrameBytesPerTenant` (256 MiB: 32 streams each at ws' 8 MiB a message), with one tenant too: a server with
 * authentication off (one tenant, anyone who reaches it) had no bound, one address's 256 streams holding 2 GiB.
 */
export const DEFAULT_PARTIAL_FRAME_BYTES_PER_TENANT = 256 * 1024 * 1024;

/** A `streamUpgradesPerSecond` an operator might set: twice what one client's reconnect with backoff can open (not a default: T112). */
export const SUGGESTED_STREAM_UPGRADES_PER_SECOND = 10;

/** `logLinesPerTenant` with two tenants or more: 20 lines a second, in bursts of a minute's worth. */
export const DEFAULT_LOG_LINES_PER_TENANT = 1200;

export const DEFAULT_LIMITS: ServerLimits = {
  sessionsPerConnection: 64,
  totalSessions: 4096,
  maxFrameBytes: 1024 * 1024,
  maxStepsPerSession: 5000,
  maxSessionBytes: 64 * 1024 * 1024,
  journalBytesPerTenant: 512 * 1024 * 1024,
  stepBytesPerTenant: 0,
  stepBytesTotal: defaultStepBytesTotal(),
  partialFrameBytesPerTenant: DEFAULT_PARTIAL_FRAME_BYTES_PER_TENANT,
  logLinesPerTenant: 0,
  outgoingQueueBytes: 4 * 1024 * 1024,
  outgoingBytesTotal: 256 * 1024 * 1024,
  heldFrameBytesTotal: 128 * 1024 * 1024,
  maxBodyBytes: 64 * 1024 * 1024,
  maxEndedSessions: 10_000,
  maxEndedSessionBytes: 64 * 1024 * 1024,
  liveViewers: 64,
  liveViewersPerTenant: 16,
  liveQueueBytes: 1024 * 1024,
  ptaReferences: DEFAULT_PTA_LIMITS.maxReferences,
  ptaNodes: DEFAULT_PTA_LIMITS.maxNodes,
  ptaBytes: DEFAULT_PTA_LIMITS.maxBytes,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  wsPingIntervalMs: 30_000,
  answerDrainMs: 300_000,
  connectionsPerAddress: 256,
  maxConnections: defaultMaxConnections(),
  connectionsPerTenant: 0,
  streamUpgradesPerSecond: 0,
  streamUpgradeBurst: 200,
  shutdownGraceMs: 10_000,
  sessionsPerTenant: 1024,
  pairs: 1000,
  pairsPerTenant: 64,
  forecastSources: 64,
  forecastVersions: 20,
  forecastAttempts: 50,
  metricsPairs: 20,
  referencesPerTenantPerTask: 2,
  referencesPerTenantPerHour: 60,
  ptaBytesPerTenant: 256 * 1024 * 1024,
  referenceNovelty: 0.5,
  ticketTtlMs: 30_000,
};

/** The PTA caps of `limits`, as the stores take them. */
export function ptaLimits(limits: ServerLimits): PtaLimits {
  return { maxReferences: limits.ptaReferences, maxNodes: limits.ptaNodes, maxBytes: limits.ptaBytes };
}

/** The limits a server holds: those `given`, the rest defaults, the per-tenant shares set by how many `tenants` the tokens name. */
export function resolveLimits(given: Partial<ServerLimits> | undefined, tenants: number): ServerLimits {
  const limits = { ...DEFAULT_LIMITS, ...given };
  // One tenant (or auth off) may use every slot, as a single-user server always could; with more, a tenant's share
  // follows totalSessions (T78): 1,024 of 4,096, but never the whole of a server made smaller.
  if (given?.sessionsPerTenant === undefined) limits.sessionsPerTenant = tenants <= 1 ? limits.totalSessions : quarterOf(limits.totalSessions, DEFAULT_LIMITS.sessionsPerTenant);
  // A tenant's share follows liveViewers unless set: one tenant must not hold every viewer slot of a shared server.
  if (given?.liveViewersPerTenant === undefined) limits.liveViewersPerTenant = tenants <= 1 ? limits.liveViewers : Math.max(2, Math.ceil(limits.liveViewers / 4));
  // Likewise a tenant's streams: its agents on many machines must not hold every connection of a shared server.
  if (given?.connectionsPerTenant === undefined) limits.connectionsPerTenant = tenants <= 1 ? 0 : defaultStreamsPerTenant(limits.maxConnections);
  // And the step texts its sessions hold in memory: one tenant's big steps must not grow the heap until the process aborts,
  // nor fill stepBytesTotal for every other tenant (a 1.5 GiB heap's total is 396 MiB: T78).
  if (given?.stepBytesPerTenant === undefined) limits.stepBytesPerTenant = tenants <= 1 ? 0 : quarterOf(limits.stepBytesTotal, DEFAULT_STEP_BYTES_PER_TENANT);
  // And the log lines its events write: a tenant starting and ending sessions as fast as it can must not flood the log.
  if (given?.logLinesPerTenant === undefined) limits.logLinesPerTenant = tenants <= 1 ? 0 : DEFAULT_LOG_LINES_PER_TENANT;
  return limits;
}

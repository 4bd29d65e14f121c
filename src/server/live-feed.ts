/**
 * `GET /v1/live`: the web view's live feed, as Server-Sent Events over a plain HTTP response (fetch with the bearer
 * header, or EventSource with a ticket: tickets.ts). Without `?session=`, a viewer gets a snapshot of the sessions it
 * may see (its tenant's; an operator's: every tenant's), then their frames; with `?session=ID`, that session's whole
 * step view, then its frames, each score frame with the step it scored.
 *
 * Cost per viewer stays bounded: every event is encoded once and the same bytes are written to every viewer (a
 * stuck viewer holds references, not copies); a snapshot or session view is built once per change and shared by
 * every viewer that connects meanwhile; a viewer with more than `queueBytes` unread beyond a piece of its first event
 * is dropped (and counted), never buffered. A first event over a piece is written a piece at a time, a bounded
 * number of bytes a turn for all viewers together (paced-writes.ts).
 *
 * A session view is built over several turns, in the queue of step views (live-view.ts). Its viewer holds its
 * slot from the start; until its first event is written whole, its session's events are held back, in order
 * (nothing, not even a keep-alive, splits an event), then those the view already shows are dropped, the rest written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import { clipped, type ScoringConfig } from '../core/config.js';
import type { FinalMessage } from '../protocol/server-messages.js';
import type { Authenticator } from './auth.js';
import { event, plainFrames, sessionFrames, taggedFrames } from './live-events.js';
import { PacedWrites, type PacedWrite } from './paced-writes.js';
import type { AppMetrics } from './metrics.js';
import { sendError } from './http-routes.js';
import { can, readTenant, type Principal } from './principal.js';
import type { SessionObserver } from './session-events.js';
import type { SessionRegistry } from './session-registry.js';
import { SessionViews, type ViewBuild } from './live-view.js';
import { sessionSummary } from './session-view.js';
import { ALL, LiveSnapshots } from './live-snapshots.js';
import { ViewerSlots, type ViewerLimits } from './viewer-slots.js';
import type { Session, StepFrame } from './session.js';
import { StepViews } from './step-views.js';
import { cutUnread } from './cut-unread.js';

export interface LiveFeedOptions extends ViewerLimits {
  /** Bytes a viewer may have waiting to be written (beyond its first event) before it is dropped as too slow. */
  queueBytes: number;
  /** Comment line sent this often, so idle proxies keep the response open and dead viewers are noticed. */
  heartbeatMs?: number;
  config: ScoringConfig;
  metrics: AppMetrics;
  log: Logger;
  /**
   * Whether several tenants may exist (auth on): an operator's feed then carries every tenant's sessions, whose
   * ids may repeat, so its frames get the session's `tenant`. Other feeds carry the frames exactly as sent.
   */
  tenants?: boolean;
  /** The app's queue of step views (shared with `GET /v1/sessions/:id/steps`); default: one of its own. */
  views?: StepViews;
  /** How a first event over a piece is written (paced-writes.ts); default `PIECE_BYTES` and `TURN_BYTES`. */
  paced?: { pieceBytes: number; turnBytes: number };
}

interface Viewer {
  res: ServerResponse;
  /** The tenant whose sessions it sees, or {@link ALL}. */
  scope: string;
  /** Only this session's events (its key) and richer score events, or every session's of its scope. */
  session: string | undefined;
  /** Bytes of its first event it may hold unread (at most a piece): shared with other viewers, so not counted against its queue. */
  first: number;
  /** The tenant whose share it counts against; undefined for an operator's (operators have no share). */
  holder: string | undefined;
  /** While its session's view is being built: that build. */
  waits?: ViewBuild;
  /** While its first event is written a piece at a time: that write. */
  writing?: PacedWrite;
  /** Until its first event is written: events held back, each with the feed's event count then (`gone`: Infinity), their bytes, the count it shows. */
  backlog?: Array<{ at: number; bytes: Buffer }>;
  backlogBytes?: number;
  shows?: number;
}

export class LiveFeed implements SessionObserver {
  private readonly viewers = new Set<Viewer>();
  private readonly slots: ViewerSlots;
  private readonly gauge: Gauge;
  private readonly dropped: Counter;
  private registry: SessionRegistry | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly snapshots: LiveSnapshots;
  private readonly views: SessionViews;
  private readonly steps: StepViews;
  private readonly paced: PacedWrites;
  /** Session events so far (started, scored, ...): orders a view against the events held back for its viewers. */
  private events = 0;

  constructor(private readonly opts: LiveFeedOptions) {
    const registers = [opts.metrics.registry];
    this.gauge = new Gauge({ name: 'steplens_live_viewers', help: 'Web view live-feed viewers connected.', registers });
    this.dropped = new Counter({ name: 'steplens_live_viewers_dropped_total', help: 'Live-feed viewers dropped for not reading (queue over the bound).', registers });
    this.slots = new ViewerSlots(opts);
    this.snapshots = new LiveSnapshots(opts.config);
    this.steps = opts.views ?? new StepViews();
    this.paced = new PacedWrites(opts.paced?.pieceBytes, opts.paced?.turnBytes);
    this.views = new SessionViews(
      this.steps,
      () => this.events,
      (error, s) => opts.log.error({ err: error, session: s.id }, 'live feed: session view failed'),
    );
    const beat = Buffer.from(': keep-alive\n\n');
    // A comment, so also to viewers whose view is being built (a long queue keeps idle proxies open too).
    this.heartbeat = setInterval(() => this.broadcast(beat, () => true, 'beat'), opts.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.viewers.size;
  }

  /** Session views built so far (viewers sharing a build count it once). */
  get viewsBuilt(): number {
    return this.views.built;
  }

  /** Registers `GET /v1/live` on `app`, reading sessions from `registry`. */
  register(app: FastifyInstance, registry: SessionRegistry, auth: Authenticator): void {
    this.registry = registry;
    app.get<{ Querystring: { session?: string; tenant?: string } }>('/v1/live', (req, reply) => {
      const identity = auth.identify(req);
      const principal = auth.principal(req);
      const id = typeof req.query.session === 'string' && req.query.session !== '' ? req.query.session : undefined;
      const bound = identity.ok ? identity.ticket?.session : undefined;
      const tenant = readTenant(principal, req.query.tenant);
      // A ticket minted for one session's feed opens that feed only.
      const session = id === undefined || tenant === undefined || (bound !== undefined && bound !== id) ? undefined : registry.find(tenant, id);
      if (id !== undefined && session === undefined) return sendError(reply, this.opts.metrics, 'unknown_session', `no session ${clipped(id, 128)}`);
      if (bound !== undefined && id === undefined) return sendError(reply, this.opts.metrics, 'bad_message', 'this ticket opens one session feed: add ?session=');
      const refused = this.refusal(principal);
      if (refused !== undefined) return sendError(reply, this.opts.metrics, refused.code, refused.message);
      // A view to build counts against the tenant's queued step views, as GET /v1/sessions/:id/steps does.
      const queued = session !== undefined && !this.views.shared(session) ? this.steps.refusal(principal.tenant) : undefined;
      if (queued !== undefined) return sendError(reply, this.opts.metrics, 'quota_exceeded', queued);
      reply.hijack();
      this.attach(req.raw, reply.raw, principal, session);
      return reply;
    });
    app.addHook('preClose', async () => this.close());
  }

  /** Why `principal` may not open one more feed, or undefined (viewer-slots.ts). */
  refusal(principal: Principal): { code: 'quota_exceeded' | 'overloaded'; message: string } | undefined {
    return this.slots.refusal(principal, this.viewers.size);
  }

  /**
   * Starts a viewer on an HTTP response: headers, then its first event (the snapshot, or the session's view, at
   * once when built, else once built: its slot is held meanwhile).
   */
  attach(req: Pick<IncomingMessage, 'socket'>, res: ServerResponse, principal: Principal, session: Session | undefined): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store, no-transform',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      // The socket is not reused after a feed: shutdown, which ends every feed, never waits on it.
      connection: 'close',
    });
    const scope = can(principal, 'operate') ? ALL : principal.tenant;
    const first = session !== undefined ? this.views.ready(session) : this.snapshots.of(scope, this.registry);
    const viewer: Viewer = { res, scope, session: session?.key, first: 0, holder: scope === ALL ? undefined : principal.tenant };
    if (first === undefined) {
      // Registered now (slot, quotas; its session's events held back from now on): the view reads the session later.
      viewer.waits = this.views.build(session!, principal.tenant); // first is defined without a session
      viewer.waits.waiting++;
      viewer.backlog = [];
      viewer.backlogBytes = 0;
    }
    this.viewers.add(viewer);
    if (viewer.holder !== undefined) this.slots.take(viewer.holder);
    this.gauge.set(this.viewers.size);
    const gone = (): void => this.remove(viewer);
    req.socket?.setNoDelay?.(true);
    res.on('close', gone);
    res.on('error', gone);
    // A request pipelined behind another on a socket the client then dropped: its response never gets the socket,
    // so neither event above fires on it and the viewer would hold a slot for good. The feed owns its socket
    // (`connection: close`), so the socket's end is the viewer's.
    if (req.socket?.destroyed === true) {
      gone();
      res.destroy();
      return;
    }
    req.socket?.once('close', gone);
    if (first !== undefined) this.begin(viewer, first, -Infinity);
    else void viewer.waits!.done.then((bytes) => this.opened(viewer, bytes)); // set above when first is undefined
  }

  /** A viewer's view is built (or failed: undefined): written, then the events held back that it does not show, in order. */
  private opened(v: Viewer, bytes: Buffer | undefined): void {
    const build = v.waits;
    v.waits = undefined;
    // Gone meanwhile (its client, shutdown): its slot is already back.
    if (build === undefined || !this.viewers.has(v)) return;
    if (bytes === undefined) {
      this.remove(v);
      v.res.end();
      return;
    }
    this.begin(v, bytes, build.at);
  }

  /** Writes a viewer's first event (it shows the events counted up to `shows`): at once up to a piece, else a piece at a time. */
  private begin(v: Viewer, bytes: Buffer, shows: number): void {
    v.first = Math.min(bytes.length, this.paced.piece);
    v.shows = shows;
    if (bytes.length > this.paced.piece) {
      v.backlog ??= [];
      v.backlogBytes ??= 0;
      v.writing = this.paced.start(v.res, bytes, () => this.written(v));
      return;
    }
    this.write(v, bytes, 'first');
    this.written(v);
  }

  /** A viewer's first event is written: the events held back that it does not show follow, in order. */
  private written(v: Viewer): void {
    const backlog = v.backlog ?? [];
    const shows = v.shows ?? -Infinity;
    v.writing = v.backlog = v.backlogBytes = v.shows = undefined;
    for (const e of backlog) if (e.at > shows) this.write(v, e.bytes);
  }

  /** Forgets a viewer and gives its slot (and its tenant's share) back; idempotent. */
  private remove(v: Viewer): void {
    if (!this.viewers.delete(v)) return;
    if (v.waits !== undefined) v.waits.waiting--;
    if (v.writing !== undefined) this.paced.cancel(v.writing);
    v.waits = v.writing = v.backlog = v.backlogBytes = v.shows = undefined;
    if (v.holder !== undefined) this.slots.give(v.holder);
    this.gauge.set(this.viewers.size);
  }

  /** `s` changed: the events count it, and the snapshots holding it are stale (live-snapshots.ts). */
  private changed_(s: Session): void {
    this.events++;
    this.snapshots.changed(s);
  }

  /**
   * Writes to one viewer, or drops it when the bytes it has not read yet pass the bound
   * (checked before each write; what it holds of its first event, shared with other viewers, is not counted).
   * Until its first event is written, a session event is held back instead (`gone` marked to be written whatever
   * the view shows), under the same bound, and a keep-alive is left out while that event is written in pieces.
   */
  private write(v: Viewer, bytes: Buffer, kind: 'event' | 'gone' | 'beat' | 'first' = 'event'): void {
    if (v.res.destroyed || v.res.writableEnded) return;
    const queued = v.res.writableLength + (v.backlogBytes ?? 0);
    if (queued > this.opts.queueBytes + v.first) {
      this.dropped.inc();
      this.opts.log.warn({ queued, scope: v.scope }, 'live viewer not reading: dropped');
      this.remove(v);
      cutUnread(v.res, 'live viewer not reading: dropped'); // one error for all its queued writes (T59), not one each
      return;
    }
    if (kind === 'beat' && v.writing !== undefined) return;
    if (v.backlog === undefined || kind === 'first' || kind === 'beat') v.res.write(bytes);
    else {
      v.backlog.push({ at: kind === 'gone' ? Infinity : this.events, bytes });
      v.backlogBytes = (v.backlogBytes ?? 0) + bytes.length;
    }
  }

  private broadcast(bytes: Buffer | ((v: Viewer) => Buffer | undefined), to: (v: Viewer) => boolean, kind?: 'gone' | 'beat'): void {
    for (const v of [...this.viewers]) {
      if (!to(v)) continue;
      const b = Buffer.isBuffer(bytes) ? bytes : bytes(v);
      if (b !== undefined) this.write(v, b, kind);
    }
  }

  /** An operator's list while several tenants may exist: frames get their session's tenant. */
  private tagged(v: Viewer): boolean {
    return this.opts.tenants === true && v.scope === ALL && v.session === undefined;
  }

  /** Viewers of `s`: its own page's, and the lists that show its tenant. */
  private sees(s: Session): (v: Viewer) => boolean {
    return (v) => (v.session === undefined ? v.scope === ALL || v.scope === s.tenant : v.session === s.key);
  }

  private summary(s: Session): void {
    this.broadcast(event(JSON.stringify({ type: 'session', ...sessionSummary(s, this.opts.config) })), this.sees(s));
  }

  started(s: Session): void {
    this.changed_(s);
    if (this.viewers.size > 0) this.summary(s);
  }

  changed(s: Session): void {
    this.changed_(s);
    if (this.viewers.size > 0) this.summary(s);
  }

  scored(s: Session, frames: readonly StepFrame[]): void {
    this.changed_(s);
    if (this.viewers.size === 0) return;
    let plain: Buffer | undefined;
    let tagged: Buffer | undefined;
    let rich: Buffer | undefined;
    this.broadcast((v) => {
      if (v.session !== undefined) return (rich ??= sessionFrames(s, frames));
      if (this.tagged(v)) return (tagged ??= taggedFrames(s, frames));
      return (plain ??= plainFrames(frames));
    }, this.sees(s));
  }

  ended(s: Session, final: FinalMessage): void {
    this.changed_(s);
    if (this.viewers.size === 0) return;
    const plain = event(JSON.stringify(final));
    const tagged = this.opts.tenants === true ? event(JSON.stringify({ ...final, tenant: s.tenant })) : plain;
    this.broadcast((v) => (this.tagged(v) ? tagged : plain), this.sees(s));
    this.summary(s);
  }

  freed(s: Session): void {
    this.changed_(s);
    if (this.viewers.size > 0) this.broadcast(event(JSON.stringify({ type: 'gone', session: s.id, ...(this.opts.tenants === true ? { tenant: s.tenant } : {}) })), this.sees(s), 'gone');
  }

  /** Ends every viewer's response (shutdown). */
  close(): void {
    clearInterval(this.heartbeat);
    // Views still queued are not built; one being built settles for no viewer.
    this.views.close();
    this.paced.close();
    for (const v of this.viewers) v.res.end();
    this.viewers.clear();
    this.slots.clear();
    this.gauge.set(0);
  }
}

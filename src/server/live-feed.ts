/**
 * `GET /v1/live`: the web view's live feed, as Server-Sent Events over a plain
 * HTTP response (the page reads it with fetch, so the bearer token travels in
 * a header, never in the URL). Without `?session=`, a viewer gets a snapshot
 * of every session and then every session's own frames; with `?session=ID`,
 * that session's whole step view and then its frames, each score frame with
 * the step it scored. Like a stream connection's outgoing queue, each viewer
 * is bounded: one that does not read is dropped (and counted), never buffered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import type { ScoringConfig } from '../core/config.js';
import type { FinalMessage } from '../protocol/server-messages.js';
import { frameText } from './frame-text.js';
import type { AppMetrics } from './metrics.js';
import { sendError } from './http-routes.js';
import type { SessionObserver } from './session-events.js';
import type { SessionRegistry } from './session-registry.js';
import { sessionSummary, sessionView } from './session-view.js';
import type { Session, StepFrame } from './session.js';

export interface LiveFeedOptions {
  /** Viewers at once; more get `overloaded` (503). */
  maxViewers: number;
  /** Bytes a viewer may have waiting to be written before it is dropped as too slow. */
  queueBytes: number;
  /** Comment line sent this often, so idle proxies keep the response open and dead viewers are noticed. */
  heartbeatMs?: number;
  config: ScoringConfig;
  metrics: AppMetrics;
  log: Logger;
}

interface Viewer {
  res: ServerResponse;
  /** Only this session's events (and richer score events), or every session's. */
  session: string | undefined;
}

const event = (json: string): string => `data: ${json}\n\n`;

export class LiveFeed implements SessionObserver {
  private readonly viewers = new Set<Viewer>();
  private readonly gauge: Gauge;
  private readonly dropped: Counter;
  private registry: SessionRegistry | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly opts: LiveFeedOptions) {
    const registers = [opts.metrics.registry];
    this.gauge = new Gauge({ name: 'steplens_live_viewers', help: 'Web view live-feed viewers connected.', registers });
    this.dropped = new Counter({ name: 'steplens_live_viewers_dropped_total', help: 'Live-feed viewers dropped for not reading (queue over the bound).', registers });
    this.heartbeat = setInterval(() => this.broadcast(': keep-alive\n\n', () => true), opts.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.viewers.size;
  }

  /** Registers `GET /v1/live` on `app`, reading sessions from `registry`. */
  register(app: FastifyInstance, registry: SessionRegistry): void {
    this.registry = registry;
    app.get<{ Querystring: { session?: string } }>('/v1/live', (req, reply) => {
      const id = typeof req.query.session === 'string' && req.query.session !== '' ? req.query.session : undefined;
      const session = id === undefined ? undefined : registry.get(id);
      if (id !== undefined && session === undefined) return sendError(reply, this.opts.metrics, 'unknown_session', `no session ${id}`);
      if (this.viewers.size >= this.opts.maxViewers) {
        return sendError(reply, this.opts.metrics, 'overloaded', `the server already has ${this.opts.maxViewers} live viewers`);
      }
      reply.hijack();
      this.attach(req.raw, reply.raw, session);
      return reply;
    });
    app.addHook('preClose', async () => this.close());
  }

  /** Starts a viewer on an HTTP response: headers, then its first event (the snapshot, or the session's view). */
  attach(req: Pick<IncomingMessage, 'socket'>, res: ServerResponse, session: Session | undefined): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store, no-transform',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      // The socket is not reused after a feed: shutdown, which ends every feed, never waits on it.
      connection: 'close',
    });
    const viewer: Viewer = { res, session: session?.id };
    this.viewers.add(viewer);
    this.gauge.set(this.viewers.size);
    const gone = (): void => {
      if (this.viewers.delete(viewer)) this.gauge.set(this.viewers.size);
    };
    req.socket?.setNoDelay?.(true);
    res.on('close', gone);
    res.on('error', gone);
    const first =
      session !== undefined
        ? JSON.stringify({ type: 'view', ...sessionView(session) })
        : JSON.stringify({ type: 'snapshot', sessions: [...(this.registry?.sessions.values() ?? [])].map((s) => sessionSummary(s, this.opts.config)) });
    this.write(viewer, event(first));
  }

  /**
   * Writes to one viewer, or drops it when the bytes it has not read yet pass the bound
   * (checked before each write, so a first snapshot larger than the bound still goes out).
   */
  private write(v: Viewer, text: string): void {
    if (v.res.destroyed || v.res.writableEnded) return;
    if (v.res.writableLength > this.opts.queueBytes) {
      this.dropped.inc();
      this.opts.log.warn({ queued: v.res.writableLength, session: v.session }, 'live viewer not reading: dropped');
      this.viewers.delete(v);
      this.gauge.set(this.viewers.size);
      v.res.destroy();
      return;
    }
    v.res.write(text);
  }

  private broadcast(text: string | ((v: Viewer) => string | undefined), to: (v: Viewer) => boolean): void {
    for (const v of [...this.viewers]) {
      if (!to(v)) continue;
      const t = typeof text === 'string' ? text : text(v);
      if (t !== undefined) this.write(v, t);
    }
  }

  private summary(s: Session): void {
    const text = event(JSON.stringify({ type: 'session', ...sessionSummary(s, this.opts.config) }));
    this.broadcast(text, (v) => v.session === undefined || v.session === s.id);
  }

  started(s: Session): void {
    if (this.viewers.size > 0) this.summary(s);
  }

  changed(s: Session): void {
    if (this.viewers.size > 0) this.summary(s);
  }

  scored(s: Session, frames: readonly StepFrame[]): void {
    if (this.viewers.size === 0) return;
    const plain = event(frames.map(frameText).join('\n\ndata: '));
    let rich: string | undefined;
    this.broadcast(
      (v) => {
        if (v.session === undefined) return plain;
        rich ??= event(frames.map((f) => JSON.stringify(f.type === 'score' ? { ...f, step: stepOf(s, f.t) } : f)).join('\n\ndata: '));
        return rich;
      },
      (v) => v.session === undefined || v.session === s.id,
    );
  }

  ended(s: Session, final: FinalMessage): void {
    if (this.viewers.size === 0) return;
    this.broadcast(event(JSON.stringify(final)), (v) => v.session === undefined || v.session === s.id);
    this.summary(s);
  }

  freed(s: Session): void {
    if (this.viewers.size > 0) this.broadcast(event(JSON.stringify({ type: 'gone', session: s.id })), (v) => v.session === undefined || v.session === s.id);
  }

  /** Ends every viewer's response (shutdown). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const v of this.viewers) v.res.end();
    this.viewers.clear();
    this.gauge.set(0);
  }
}

/** What a session viewer needs of a scored step beyond its score frame. */
function stepOf(s: Session, t: number): { kind: string; tool: string; text: string; file?: string; failed: boolean } | undefined {
  const state = s.states()[t];
  if (state === undefined) return undefined;
  return { kind: state.kind, tool: state.tool, text: s.stepTexts()[t] ?? '', ...(state.file !== undefined ? { file: state.file } : {}), failed: state.failed };
}

/**
 * Every session of the server: opening (with the task's reference), ending
 * (final report, learning), resuming on another connection, and the sweep
 * that ends idle sessions and frees expired ones.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Analyzers } from '../core/ports.js';
import { resolvePolicy } from '../core/policy.js';
import { createScorer } from '../core/scorer.js';
import { getParser } from '../formats/index.js';
import type { FormatName } from '../formats/types.js';
import type { StartMessage } from '../protocol/client-messages.js';
import type { MessageError } from '../protocol/parse.js';
import type { FinalMessage, FinalReason } from '../protocol/server-messages.js';
import type { ReferenceStore } from '../store/reference-store.js';
import { err, ok, type Result } from '../errors.js';
import type { Connection } from './connection.js';
import type { AppMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import { EndedSessions } from './ended-sessions.js';
import { Session } from './session.js';

export interface RegistryDeps {
  store: ReferenceStore;
  analyzers: Analyzers;
  metrics: AppMetrics;
  log: Logger;
  options: ResolvedOptions;
  connections: Map<number, Connection>;
}

export class SessionRegistry {
  readonly sessions = new Map<string, Session>();
  private readonly pending = new Set<string>();
  /** Ends in progress (a client `end`, the sweep and shutdown may race): each session ends once. */
  private readonly ending = new Map<string, Promise<FinalMessage>>();
  private sweeping = false;
  private readonly endedKept: EndedSessions;

  constructor(private readonly deps: RegistryDeps) {
    this.endedKept = new EndedSessions(deps.options.limits);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** Sessions still open (not ended), detached ones included. */
  openCount(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (!s.ended) n++;
    return n + this.pending.size;
  }

  /** Open sessions attached to `conn`. */
  openOn(conn: Connection): number {
    let n = 0;
    for (const id of conn.sessions) if (this.sessions.get(id)?.ended === false) n++;
    return n;
  }

  /** 128 random bits: an id nobody can guess from another one (a session's id is all a `resume` needs besides the token). */
  private newId(): string {
    let id: string;
    do id = `s-${randomBytes(16).toString('hex')}`;
    while (this.sessions.has(id) || this.pending.has(id));
    return id;
  }

  /** The session `id` if it exists and answers to `principal` (the token digest it was started with). */
  visible(id: string, principal: string | undefined): Session | undefined {
    const s = this.sessions.get(id);
    return s !== undefined && s.principal === principal ? s : undefined;
  }

  /** Opens a session on `conn` after checking id, limits, policy and the task's reference. */
  async start(msg: StartMessage, conn: Connection): Promise<Result<Session, MessageError>> {
    const { limits } = this.deps.options;
    const id = msg.session ?? this.newId();
    if (this.sessions.has(id) || this.pending.has(id)) {
      return err({ code: 'duplicate_session', message: `session ${id} already exists`, session: id });
    }
    if (this.openOn(conn) >= limits.sessionsPerConnection) {
      return err({ code: 'overloaded', message: `this connection already holds ${limits.sessionsPerConnection} sessions`, session: id });
    }
    if (this.openCount() >= limits.totalSessions) {
      return err({ code: 'overloaded', message: `the server already holds ${limits.totalSessions} open sessions`, session: id });
    }
    const policy = resolvePolicy(msg.policy, this.deps.options.policy);
    if (!policy.ok) return err({ code: 'bad_message', message: `start.policy: ${policy.error}`, session: id });
    this.pending.add(id);
    try {
      const reference = await this.deps.store.reference(msg.task);
      const format: FormatName = msg.format ?? 'steplens';
      const scorer = createScorer({ reference, analyzers: this.deps.analyzers, policy: policy.value, config: this.deps.options.config });
      const session = new Session({
        id, task: msg.task, format, learn: msg.learn ?? this.deps.options.learnDefault, scorer,
        reference: scorer.report().reference,
        parser: format === 'steplens' ? undefined : getParser(format).stream(),
        maxSteps: limits.maxStepsPerSession, now: Date.now(),
        ...(msg.agent !== undefined ? { agent: msg.agent } : {}),
        ...(msg.model !== undefined ? { model: msg.model } : {}),
      });
      session.connection = conn.id;
      session.principal = conn.principal;
      this.sessions.set(id, session);
      conn.sessions.add(id);
      this.deps.log.info({ session: id, task: msg.task, format, reference: session.reference, learn: session.learn }, 'session started');
      return ok(session);
    } finally {
      this.pending.delete(id);
      this.deps.metrics.activeSessions.set(this.openCount());
    }
  }

  /**
   * Ends a session: flushes its parser, sends the remaining frames and the
   * `final` to its connection (if attached), and merges it into the task's
   * PTA when it is a `learn` session that passed. Idempotent.
   */
  end(session: Session, why: FinalReason): Promise<FinalMessage> {
    if (session.final) return Promise.resolve(session.final);
    let ending = this.ending.get(session.id);
    if (!ending) {
      ending = this.finish(session, why).finally(() => this.ending.delete(session.id));
      this.ending.set(session.id, ending);
    }
    return ending;
  }

  private async finish(session: Session, why: FinalReason): Promise<FinalMessage> {
    // From here the session takes no step: the report, the final and a learned reference cover the same steps.
    const { frames, report } = session.finish();
    const states = session.states();
    const passed = session.passed;
    const conn = this.connectionOf(session);
    for (const f of frames) conn?.send(f);
    this.countSignals(frames);
    let learned: FinalMessage['learned'];
    if (session.learn && passed === true && states.length > 0) {
      try {
        const pta = await this.deps.store.addReference(session.task, states);
        learned = { version: pta.version };
        this.deps.log.info({ session: session.id, task: session.task, version: pta.version }, 'reference learned');
      } catch (error) {
        this.deps.log.error({ session: session.id, task: session.task, err: error }, 'learning the reference failed');
      }
    }
    const final: FinalMessage = {
      type: 'final', session: session.id, ...report,
      ...(passed !== undefined ? { passed } : {}),
      ...(learned ? { learned } : {}),
      reason: why,
    };
    session.final = final;
    session.endedAt = Date.now();
    session.release();
    this.keepEnded(session);
    this.deps.metrics.activeSessions.set(this.openCount());
    conn?.send(final);
    this.deps.log.info({ session: session.id, task: session.task, why, steps: report.steps, score: report.score.total, tier: report.tier }, 'session ended');
    return final;
  }

  countSignals(frames: readonly { type: string; kind?: string; severity?: string }[]): void {
    for (const f of frames) {
      if (f.type === 'signal') this.deps.metrics.signalsFired.inc({ kind: f.kind ?? '', severity: f.severity ?? '' });
    }
  }

  connectionOf(session: Session): Connection | undefined {
    const conn = session.connection === undefined ? undefined : this.deps.connections.get(session.connection);
    return conn?.open ? conn : undefined;
  }

  /** Moves a session to `conn` (a resume); the previous connection, if any, loses it. */
  attach(session: Session, conn: Connection): void {
    if (session.connection !== undefined) this.deps.connections.get(session.connection)?.sessions.delete(session.id);
    session.connection = conn.id;
    session.detachedAt = undefined;
    conn.sessions.add(session.id);
  }

  /** A connection went away: its sessions stay resumable for the resume window. */
  detachAll(conn: Connection): void {
    const now = Date.now();
    for (const id of conn.sessions) {
      const s = this.sessions.get(id);
      if (s && s.connection === conn.id) {
        s.connection = undefined;
        s.detachedAt = now;
      }
    }
    conn.sessions.clear();
  }

  /** Keeps an ended session within the ended-session bounds, freeing the oldest ones past them. */
  private keepEnded(session: Session): void {
    for (const id of this.endedKept.add(session.id, session.keptBytes())) {
      const old = this.sessions.get(id);
      if (old) this.free(old, 'ended-session limit');
    }
    this.deps.metrics.endedSessions.set(this.endedKept.count);
    this.deps.metrics.endedSessionBytes.set(this.endedKept.bytes);
  }

  private free(session: Session, why: string): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    this.endedKept.delete(session.id);
    this.deps.metrics.endedSessions.set(this.endedKept.count);
    this.deps.metrics.endedSessionBytes.set(this.endedKept.bytes);
    if (session.connection !== undefined) this.deps.connections.get(session.connection)?.sessions.delete(session.id);
    this.deps.metrics.activeSessions.set(this.openCount());
    this.deps.log.info({ session: session.id, task: session.task, why }, 'session freed');
  }

  /** Ends idle and expired-detached sessions and frees ended ones past the resume window. */
  async sweep(now = Date.now()): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweepOnce(now);
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepOnce(now: number): Promise<void> {
    const { idleTimeoutMs, resumeWindowMs } = this.deps.options;
    for (const s of [...this.sessions.values()]) {
      if (s.ended) {
        if (now - (s.endedAt ?? now) >= resumeWindowMs) this.free(s, 'expired');
      } else if (now - s.lastActivity >= idleTimeoutMs) {
        await this.end(s, 'idle');
        this.free(s, 'idle');
      } else if (s.detachedAt !== undefined && now - s.detachedAt >= resumeWindowMs) {
        await this.end(s, 'not_resumed');
        this.free(s, 'not resumed');
      }
    }
  }

  /** Shutdown: ends every open session (finals go to attached clients). */
  async endAll(): Promise<void> {
    for (const s of [...this.sessions.values()]) if (!s.ended) await this.end(s, 'shutdown');
  }
}

/**
 * Every session of the server: opening (with the task's reference), ending
 * (final report, learning), resuming on another connection, and the sweep
 * that ends idle sessions and frees expired ones.
 */
import type { Logger } from 'pino';
import type { Analyzers } from '../core/ports.js';
import { canStop, resolvePolicy } from '../core/policy.js';
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
import { PolicyManager } from './policy-manager.js';
import { Session, type StepFrame } from './session.js';
import type { SessionObserver } from './session-events.js';

export interface RegistryDeps {
  store: ReferenceStore;
  analyzers: Analyzers;
  metrics: AppMetrics;
  log: Logger;
  options: ResolvedOptions;
  connections: Map<number, Connection>;
  /** Picks each session's policy (default: the configured policy set, no shadow mode). */
  policies?: PolicyManager;
  /** Told of every session event (the web view's live feed). */
  observer?: SessionObserver;
  /** Told of every ended session (the forecast learner keeps those with an outcome). */
  onEnded?: (session: Session) => void;
}

export class SessionRegistry {
  readonly sessions = new Map<string, Session>();
  private readonly pending = new Set<string>();
  /** Ends in progress (a client `end`, the sweep and shutdown may race): each session ends once. */
  private readonly ending = new Map<string, Promise<FinalMessage>>();
  private sweeping = false;
  private counter = 0;

  private readonly policies: PolicyManager;

  constructor(private readonly deps: RegistryDeps) {
    this.policies = deps.policies ?? PolicyManager.plain(deps.options.policySet, deps.log);
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

  private newId(): string {
    let id: string;
    do id = `s-${Date.now().toString(36)}-${(++this.counter).toString(36)}`;
    while (this.sessions.has(id) || this.pending.has(id));
    return id;
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
    const assigned = this.policies.assign(msg.agent, msg.model);
    const policy = resolvePolicy(msg.policy, assigned.policy);
    if (!policy.ok) return err({ code: 'bad_message', message: `start.policy: ${policy.error}`, session: id });
    // A session whose own start.policy can stop is not counted: its outcome may be the stop's doing.
    const shadow = assigned.shadow && (msg.policy === undefined || !canStop(policy.value));
    const selected = msg.policy === undefined ? assigned.selected : `${assigned.selected} + start.policy`;
    this.pending.add(id);
    try {
      const reference = await this.deps.store.reference(msg.task);
      const format: FormatName = msg.format ?? 'steplens';
      const forecast = this.deps.options.forecast?.modelFor(msg.agent, msg.model);
      const scorer = createScorer({
        reference, analyzers: this.deps.analyzers, policy: policy.value, config: this.deps.options.config,
        ...(forecast !== undefined ? { forecast: forecast.model } : {}),
      });
      const session = new Session({
        id, task: msg.task, format, learn: msg.learn ?? this.deps.options.learnDefault, scorer,
        reference: scorer.report().reference,
        parser: format === 'steplens' ? undefined : getParser(format).stream(),
        maxSteps: limits.maxStepsPerSession, now: Date.now(),
        policy: { pair: assigned.key, selected, shadow },
        ...(forecast !== undefined ? { forecastVersion: forecast.version } : {}),
        ...(msg.agent !== undefined ? { agent: msg.agent } : {}),
        ...(msg.model !== undefined ? { model: msg.model } : {}),
      });
      session.connection = conn.id;
      this.sessions.set(id, session);
      conn.sessions.add(id);
      this.deps.log.info({ session: id, task: msg.task, format, reference: session.reference, learn: session.learn, policy: selected, shadow }, 'session started');
      this.deps.observer?.started(session);
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
    const { frames, report } = session.finish();
    const conn = this.connectionOf(session);
    for (const f of frames) conn?.send(f);
    this.scored(session, frames);
    let learned: FinalMessage['learned'];
    if (session.learn && session.passed === true && session.length > 0) {
      try {
        const pta = await this.deps.store.addReference(session.task, session.states());
        learned = { version: pta.version };
        this.deps.log.info({ session: session.id, task: session.task, version: pta.version }, 'reference learned');
      } catch (error) {
        this.deps.log.error({ session: session.id, task: session.task, err: error }, 'learning the reference failed');
      }
    }
    if (session.policy?.shadow && session.passed !== undefined) {
      this.policies.record(session.policy.pair, { states: session.states(), totals: session.totals, passed: session.passed });
    }
    const final: FinalMessage = {
      type: 'final', session: session.id, ...report,
      ...(session.passed !== undefined ? { passed: session.passed } : {}),
      ...(learned ? { learned } : {}),
      ...(session.forecastVersion !== undefined ? { forecastVersion: session.forecastVersion } : {}),
      reason: why,
    };
    session.final = final;
    this.deps.onEnded?.(session);
    session.endedAt = Date.now();
    this.deps.metrics.activeSessions.set(this.openCount());
    conn?.send(final);
    this.deps.observer?.ended(session, final);
    this.deps.log.info({ session: session.id, task: session.task, why, steps: report.steps, score: report.score.total, tier: report.tier }, 'session ended');
    return final;
  }

  /** Frames a session just sent: signals counted, the observer told. */
  scored(session: Session, frames: readonly StepFrame[]): void {
    this.countSignals(frames);
    if (frames.length > 0) this.deps.observer?.scored(session, frames);
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
    this.deps.observer?.changed(session);
  }

  /** A connection went away: its sessions stay resumable for the resume window. */
  detachAll(conn: Connection): void {
    const now = Date.now();
    for (const id of conn.sessions) {
      const s = this.sessions.get(id);
      if (s && s.connection === conn.id) {
        s.connection = undefined;
        s.detachedAt = now;
        this.deps.observer?.changed(s);
      }
    }
    conn.sessions.clear();
  }

  private free(session: Session, why: string): void {
    this.sessions.delete(session.id);
    if (session.connection !== undefined) this.deps.connections.get(session.connection)?.sessions.delete(session.id);
    this.deps.metrics.activeSessions.set(this.openCount());
    this.deps.log.info({ session: session.id, task: session.task, why }, 'session freed');
    this.deps.observer?.freed(session);
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

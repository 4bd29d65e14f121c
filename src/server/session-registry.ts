/**
 * Every session of the server: opening (with the task's reference), ending
 * (final report, learning), resuming on another connection, and the sweep
 * that ends idle sessions and frees expired ones.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Analyzers } from '../core/ports.js';
import { canStop, resolvePolicy } from '../core/policy.js';
import type { FormatName } from '../formats/types.js';
import type { StartMessage } from '../protocol/client-messages.js';
import type { MessageError } from '../protocol/parse.js';
import type { FinalMessage, FinalReason } from '../protocol/server-messages.js';
import type { ReferenceStorePort } from '../store/store-port.js';
import { err, ok, SteplensError, type Result } from '../errors.js';
import type { Connection } from './connection.js';
import type { AppMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import { EndedSessions } from './ended-sessions.js';
import type { Session, StepFrame } from './session.js';
import { buildSession, type SessionSpec } from './session-factory.js';
import { PolicyManager } from './policy-manager.js';
import type { SessionObserver } from './session-events.js';

export interface RegistryDeps {
  store: ReferenceStorePort;
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
  /** With Redis: sessions made durable and carried on by any replica (set by `buildApp` after construction). */
  durable?: SessionDurability;
}

/** What the registry asks of durable sessions (durable-sessions.ts implements it; the port keeps the two modules out of a circle). */
export interface SessionDurability {
  /** Records a new session and takes its lease; an error when the id is held or the shared store is unreachable. */
  open(session: Session, spec: SessionSpec): Promise<Result<void, MessageError>>;
  /** Waits for the session's durable writes in flight. */
  settled(session: Session): Promise<void>;
  /** Records the session's final. */
  finished(session: Session, final: FinalMessage): Promise<void>;
}

export class SessionRegistry {
  readonly sessions = new Map<string, Session>();
  private readonly pending = new Set<string>();
  /** The sessions of `sessions` that have not ended: `openCount` runs at every start and end, and ended sessions kept for resume may number thousands. */
  private readonly live = new Set<Session>();
  /** Ends in progress (a client `end`, the sweep and shutdown may race): each session ends once. */
  private readonly ending = new Map<string, Promise<FinalMessage>>();
  private sweeping = false;
  private readonly endedKept: EndedSessions;

  private readonly policies: PolicyManager;

  constructor(private readonly deps: RegistryDeps) {
    this.endedKept = new EndedSessions(deps.options.limits);
    this.policies = deps.policies ?? PolicyManager.plain(deps.options.policySet, deps.log);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** Sessions still open (not ended), detached ones included. */
  openCount(): number {
    return this.live.size + this.pending.size;
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
      const spec = {
        id,
        task: msg.task,
        format,
        learn: msg.learn ?? this.deps.options.learnDefault,
        agent: msg.agent,
        model: msg.model,
        policy: policy.value,
        assignment: { pair: assigned.key, selected, shadow },
        reference,
        ...(forecast !== undefined ? { forecast } : {}),
        ...(conn.principal !== undefined ? { principal: conn.principal } : {}),
      };
      const session = buildSession(spec, { analyzers: this.deps.analyzers, config: this.deps.options.config, maxSteps: limits.maxStepsPerSession, now: Date.now() });
      if (this.deps.durable) {
        const opened = await this.deps.durable.open(session, spec);
        if (!opened.ok) return err({ ...opened.error, session: id });
      }
      session.connection = conn.id;
      this.sessions.set(id, session);
      this.live.add(session);
      conn.sessions.add(id);
      this.deps.log.info({ session: id, task: msg.task, format, reference: session.reference, learn: session.learn, policy: selected, shadow }, 'session started');
      this.deps.observer?.started(session);
      return ok(session);
    } catch (error) {
      // The shared store is unreachable (Redis): refused with a code, nothing opened.
      if (error instanceof SteplensError && error.code === 'unavailable') return err({ code: 'unavailable', message: error.message, session: id });
      throw error;
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
    await this.deps.durable?.settled(session);
    // From here the session takes no step: the report, the final and a learned reference cover the same steps.
    const { frames, report } = session.finish();
    const states = session.states();
    const passed = session.passed;
    const conn = this.connectionOf(session);
    for (const f of frames) conn?.send(f);
    this.scored(session, frames);
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
    if (session.policy?.shadow && passed !== undefined) {
      this.policies.record(session.policy.pair, { states, totals: session.totals, passed });
    }
    const final: FinalMessage = {
      type: 'final',
      session: session.id,
      ...report,
      ...(passed !== undefined ? { passed } : {}),
      ...(learned ? { learned } : {}),
      ...(session.forecastVersion !== undefined ? { forecastVersion: session.forecastVersion } : {}),
      reason: why,
    };
    session.final = final;
    this.live.delete(session);
    this.deps.onEnded?.(session);
    session.endedAt = Date.now();
    session.release();
    this.keepEnded(session);
    this.deps.metrics.activeSessions.set(this.openCount());
    await this.deps.durable?.finished(session, final);
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

  countSignals(frames: ReadonlyArray<{ type: string; kind?: string; severity?: string }>): void {
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
      if (s?.connection === conn.id) {
        s.connection = undefined;
        s.detachedAt = now;
        this.deps.observer?.changed(s);
      }
    }
    conn.sessions.clear();
  }

  /**
   * Drops this replica's copy of a session (its durable copy lives on): after
   * a failed durable write (`keepOnConnection`: its connection still holds
   * it and it is rebuilt on its next message), or when another replica took it over.
   */
  evict(session: Session, why: string, keepOnConnection: boolean): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    this.live.delete(session);
    this.endedKept.delete(session.id);
    if (!keepOnConnection && session.connection !== undefined) this.deps.connections.get(session.connection)?.sessions.delete(session.id);
    this.deps.metrics.activeSessions.set(this.openCount());
    this.deps.log.info({ session: session.id, task: session.task, why }, 'session copy dropped');
  }

  /** Registers a session rebuilt from the durable journal. */
  adopt(session: Session): void {
    const previous = this.sessions.get(session.id);
    if (previous !== undefined) this.live.delete(previous);
    this.sessions.set(session.id, session);
    if (!session.ended) this.live.add(session);
    // A rebuilt ended session counts against the ended-session bounds like one that ended here.
    if (session.ended) {
      session.release();
      this.keepEnded(session);
    }
    this.deps.metrics.activeSessions.set(this.openCount());
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
    this.live.delete(session);
    this.endedKept.delete(session.id);
    this.deps.metrics.endedSessions.set(this.endedKept.count);
    this.deps.metrics.endedSessionBytes.set(this.endedKept.bytes);
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

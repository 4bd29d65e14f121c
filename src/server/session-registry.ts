/**
 * Every session of the server: opening (with the task's reference), ending
 * (final report, learning), resuming on another connection, and the sweep
 * that ends idle sessions, frees expired ones and compacts those idle between steps.
 */
import { randomBytes } from 'node:crypto';
import { canStop, resolvePolicy } from '../core/policy.js';
import type { FormatName } from '../formats/types.js';
import type { StartMessage } from '../protocol/client-messages.js';
import type { MessageError } from '../protocol/parse.js';
import type { FinalMessage, FinalReason } from '../protocol/server-messages.js';
import { err, ok, SteplensError, type Result } from '../errors.js';
import type { Connection } from './connection.js';
import { EndedSessions } from './ended-sessions.js';
import { learnSession } from './learn-session.js';
import { LiveSessions } from './live-sessions.js';
import type { Session, StepFrame } from './session.js';
import { buildSession, type SessionSpec } from './session-factory.js';
import { PolicyManager } from './policy-manager.js';
import { sessionKey, type Principal } from './principal.js';
import { ScopedReferences } from './reference-scope.js';
import type { RegistryDeps } from './registry-deps.js';
import { EndReports } from './end-reports.js';
import { SessionIndex } from './session-index.js';
import { InFlight } from '../in-flight.js';
import { TenantStepBytes } from './tenant-step-bytes.js';
import { tenantInfo } from './tenant-log.js';
import { sweepOnce } from './session-sweep.js';
import { finalMessage } from './final-message.js';
import { sessionLimit } from './session-limits.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PatchClass } from '../core/rank/patch-class.js';

export type { RegistryDeps, SessionDurability } from './registry-deps.js';

export class SessionRegistry {
  /** Every session this replica holds, by key (`sessionKey`: its id in its tenant's namespace), in registration order. */
  readonly sessions = new Map<string, Session>();
  /** The same sessions in ordinal order, in all and per tenant: pages and scopes without walking every tenant's. */
  readonly index = new SessionIndex();
  /** Keys being started, and their tenants. */
  private readonly pending = new Map<string, string>();
  private ordinals = 0;
  /** The sessions of `sessions` that have not ended: `openCount` runs at every start and end, and ended sessions kept for resume may number thousands. */
  private readonly live = new LiveSessions();
  /** Ends in progress (a client `end`, the sweep and shutdown may race): each session ends once. */
  private readonly ending = new InFlight<string, FinalMessage>();
  private sweeping = false;
  /** What ends build before their finals: long sessions' one at a time. */
  private readonly reports = new EndReports();
  private readonly endedKept: EndedSessions;
  /** The step bytes each tenant's open sessions hold here (`stepBytesPerTenant`): counted by the stream handler, given back at the end. */
  readonly stepBytes: TenantStepBytes;

  private readonly policies: PolicyManager;
  private readonly references: ScopedReferences;

  constructor(private readonly deps: RegistryDeps) {
    this.endedKept = new EndedSessions(deps.options.limits);
    this.stepBytes = new TenantStepBytes(deps.options.limits.stepBytesPerTenant, deps.options.limits.stepBytesTotal);
    this.references = deps.references ?? new ScopedReferences(deps.store, deps.options.referenceScope);
    this.policies = deps.policies ?? PolicyManager.plain(deps.options.policySet, deps.log);
  }

  /** The session held under `key` (see `sessionKey`). */
  get(key: string): Session | undefined {
    return this.sessions.get(key);
  }

  /** Session `id` of `tenant`'s namespace. */
  find(tenant: string, id: string): Session | undefined {
    return this.sessions.get(sessionKey(tenant, id));
  }

  /** Sessions still open (not ended), detached ones included; of one tenant when given. */
  openCount(tenant?: string): number {
    if (tenant === undefined) return this.live.size + this.pending.size;
    let n = this.live.of(tenant);
    for (const t of this.pending.values()) if (t === tenant) n++;
    return n;
  }

  /** Open sessions attached to `conn`. */
  openOn(conn: Connection): number {
    let n = 0;
    for (const key of conn.openSessions) if (this.sessions.get(key)?.ended === false) n++;
    return n;
  }

  /** 128 random bits: an id nobody can guess from another one (a session's id is all a `resume` needs besides the token). */
  private newId(tenant: string): string {
    let id: string;
    do id = `s-${randomBytes(16).toString('hex')}`;
    while (this.sessions.has(sessionKey(tenant, id)) || this.pending.has(sessionKey(tenant, id)));
    return id;
  }

  /** Why a new session of `principal` on `conn` does not fit (session-limits.ts). */
  private limitFor(principal: Principal, conn: Connection, id: string): MessageError | 'full' | undefined {
    return sessionLimit(this.deps.options.limits, { onConnection: () => this.openOn(conn), ofTenant: () => this.openCount(principal.tenant), all: () => this.openCount() }, id);
  }

  /** Opens a session on `conn` after checking id, limits, policy and the task's reference; its id lives in the connection's tenant's namespace. */
  async start(msg: StartMessage, conn: Connection): Promise<Result<Session, MessageError>> {
    const { limits } = this.deps.options;
    const principal = conn.principal;
    const id = msg.session ?? this.newId(principal.tenant);
    const key = sessionKey(principal.tenant, id);
    for (;;) {
      if (this.sessions.has(key) || this.pending.has(key)) return err({ code: 'duplicate_session', message: `session ${id} already exists`, session: id });
      const verdict = this.limitFor(principal, conn, id);
      if (verdict === undefined) break;
      if (verdict !== 'full') return err(verdict);
      // Sessions nobody is attached to must not keep every slot: the oldest detached one of the tenant holding the
      // most is ended (a later resume gets its final, reason not_resumed), which frees its slot.
      const victim = this.live.reclaimable();
      if (victim === undefined) return err({ code: 'overloaded', message: `the server already holds ${limits.totalSessions} open sessions`, session: id });
      tenantInfo(this.deps.log, victim.tenant, { session: victim.id }, 'detached session ended: the server is full');
      await this.end(victim, 'not_resumed');
    }
    const assigned = this.policies.assign(principal.tenant, msg.agent, msg.model);
    const policy = resolvePolicy(msg.policy, assigned.policy);
    if (!policy.ok) return err({ code: 'bad_message', message: `start.policy: ${policy.error}`, session: id });
    // A session whose own start.policy can stop is not counted: its outcome may be the stop's doing.
    const shadow = assigned.shadow && (msg.policy === undefined || !canStop(policy.value));
    const selected = msg.policy === undefined ? assigned.selected : `${assigned.selected} + start.policy`;
    this.pending.set(key, principal.tenant);
    try {
      const reference = await this.references.reference(msg.task, principal.tenant);
      const format: FormatName = msg.format ?? 'steplens';
      const forecast = this.deps.options.forecast?.modelFor(msg.agent, msg.model, principal.tenant);
      // `forecast` given as undefined, not spread in: the spec's readers read its fields only (buildSession, the journal's
      // open), and a spread in this once-a-session code went to the runtime (bench/README.md, "life18").
      const spec: SessionSpec = {
        id,
        task: msg.task,
        format,
        learn: msg.learn ?? this.deps.options.learnDefault,
        agent: msg.agent,
        model: msg.model,
        policy: policy.value,
        assignment: { pair: assigned.key, selected, shadow },
        reference,
        forecast,
        principal,
      };
      const session = buildSession(spec, this.deps.analyzers, this.deps.options);
      if (this.deps.durable) {
        const opened = await this.deps.durable.open(session, spec);
        if (!opened.ok) return err({ ...opened.error, session: id });
      }
      session.connection = conn.id;
      session.ordinal = ++this.ordinals;
      this.sessions.set(key, session);
      this.index.add(session);
      this.live.add(session);
      conn.hold(key, true);
      tenantInfo(this.deps.log, principal.tenant, { session: id, task: msg.task, format, reference: session.reference, learn: session.learn, policy: selected, shadow }, 'session started');
      this.deps.observer?.started(session);
      return ok(session);
    } catch (error) {
      // The shared store is unreachable (Redis): refused with a code, nothing opened.
      if (error instanceof SteplensError && error.code === 'unavailable') return err({ code: 'unavailable', message: error.message, session: id });
      throw error;
    } finally {
      this.pending.delete(key);
      this.deps.metrics.activeSessions.set(this.openCount());
    }
  }

  /**
   * Ends a session: flushes its parser, sends the remaining frames and the
   * `final` to its connection (if attached), and merges it into the task's
   * PTA when it is a `learn` session that passed and its client ended it. Idempotent.
   */
  end(session: Session, why: FinalReason, patch?: PatchClass): Promise<FinalMessage> {
    if (session.final) return Promise.resolve(session.final);
    return this.ending.run(session.key, () => this.finish(session, why, patch));
  }

  /** `patch`: the class of the patch the client's `end` carried (end-patch.ts), kept in the final (and with it in the journal). */
  private async finish(session: Session, why: FinalReason, patch: PatchClass | undefined): Promise<FinalMessage> {
    await this.deps.durable?.settled(session);
    // From here the session takes no step (nor outcome): the report, the final and a learned reference cover the same steps.
    const { frames, report: reportSteps } = session.finish();
    const passed = session.passed;
    for (const f of frames) this.connectionOf(session)?.send(f);
    this.scored(session, frames);
    // Only a run its client ended is whole: one the server cut off (shutdown, idle, not resumed) is neither a
    // reference nor shadow or forecast evidence, and a client that restarts it replays and ends it anyway.
    const whole = why === 'end';
    const learn = whole && session.learn && passed === true;
    // A shadow session's pair, when its outcome is counted.
    const shadow = whole && passed !== undefined && session.policy?.shadow === true ? session.policy.pair : undefined;
    // Built a slice a turn (end-reports.ts): other sessions' frames are served meanwhile. A resume or `end` meanwhile
    // leaves the final to this (`ending`).
    const { report, states } = await this.reports.build(session, reportSteps, learn || shadow !== undefined);
    const learned = learn ? await learnSession({ ...this.deps, references: this.references }, session, states) : undefined;
    if (shadow !== undefined && passed !== undefined) this.policies.record(shadow, { states, totals: session.totals, passed });
    const final = finalMessage(session.id, report, { passed, learned, forecastVersion: session.forecastVersion, patch }, why);
    session.final = final;
    this.live.delete(session);
    if (session.connection !== undefined) this.deps.connections.get(session.connection)?.ended(session.key);
    if (whole) this.deps.onEnded?.(session);
    session.endedAt = Date.now();
    session.release();
    this.stepBytes.release(session);
    this.keepEnded(session);
    this.deps.metrics.activeSessions.set(this.openCount());
    await this.deps.durable?.finished(session, final);
    // To whoever holds the session now: a client that resumed it on another connection meanwhile (its socket
    // dropped after `end`) gets it there. While `ending` holds the session its `end` and `resume` leave it to this.
    this.ending.forget(session.key);
    this.connectionOf(session)?.send(final);
    this.deps.observer?.ended(session, final);
    tenantInfo(this.deps.log, session.tenant, { session: session.id, task: session.task, why, steps: report.steps, score: report.score.total, tier: report.tier }, 'session ended');
    return final;
  }

  /** True while a session is ending: its final, once made, goes to the connection holding it then. */
  endingNow(session: Session): boolean {
    return this.ending.has(session.key);
  }

  /** A session's reported outcome: kept, and the observer told (the live list shows it). */
  setOutcome(session: Session, passed: boolean): void {
    session.passed = passed;
    this.deps.observer?.changed(session);
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
    if (session.connection !== undefined) this.deps.connections.get(session.connection)?.drop(session.key);
    session.connection = conn.id;
    session.detachedAt = undefined;
    conn.hold(session.key, !session.ended);
    this.deps.observer?.changed(session);
  }

  /**
   * A connection closed: once every message it sent before is handled (a `start` or a claim may still be waiting on
   * the store, and would then hold its session on a connection that is gone: never detached, so never ended by the
   * resume window nor reclaimable, counted open until the idle timeout), its sessions are detached.
   */
  closed(conn: Connection): void {
    conn.closed(() => this.detachAll(conn));
  }

  /** A connection went away: its sessions stay resumable for the resume window. */
  detachAll(conn: Connection): void {
    const now = Date.now();
    for (const key of conn.sessions) {
      const s = this.sessions.get(key);
      if (s?.connection === conn.id) {
        s.connection = undefined;
        s.detachedAt = now;
        this.deps.observer?.changed(s);
      }
    }
    conn.sessions.clear();
    conn.openSessions.clear();
  }

  /**
   * Drops this replica's copy of a session (its durable copy lives on): after
   * a failed durable write (`keepOnConnection`: its connection still holds
   * it and it is rebuilt on its next message), or when another replica took it over.
   */
  evict(session: Session, why: string, keepOnConnection: boolean): void {
    if (this.sessions.get(session.key) !== session) return;
    this.sessions.delete(session.key);
    this.index.delete(session);
    this.live.delete(session);
    this.endedKept.delete(session.key);
    this.stepBytes.release(session);
    if (!keepOnConnection && session.connection !== undefined) this.deps.connections.get(session.connection)?.drop(session.key);
    this.deps.metrics.activeSessions.set(this.openCount());
    tenantInfo(this.deps.log, session.tenant, { session: session.id, task: session.task, why }, 'session copy dropped');
  }

  /** Registers a session rebuilt from the durable journal. */
  adopt(session: Session): void {
    const previous = this.sessions.get(session.key);
    if (previous !== undefined) {
      this.live.delete(previous);
      this.index.delete(previous);
    }
    session.ordinal = ++this.ordinals;
    // Deleted first so that the map's order stays the ordinals' order (`set` keeps a key's old place).
    this.sessions.delete(session.key);
    this.sessions.set(session.key, session);
    this.index.add(session);
    if (!session.ended) this.live.add(session);
    // A rebuilt ended session counts against the ended-session bounds like one that ended here.
    if (session.ended) {
      session.release();
      this.keepEnded(session);
    }
    this.deps.metrics.activeSessions.set(this.openCount());
  }

  /** Keeps an ended session within the ended-session bounds, freeing past them the oldest of the tenant holding the most. */
  private keepEnded(session: Session): void {
    for (const key of this.endedKept.add(session.key, session.tenant, session.keptBytes())) {
      const old = this.sessions.get(key);
      if (old) this.free(old, 'ended-session limit');
    }
    this.deps.metrics.endedSessions.set(this.endedKept.count);
    this.deps.metrics.endedSessionBytes.set(this.endedKept.bytes);
  }

  private free(session: Session, why: string): void {
    if (this.sessions.get(session.key) !== session) return;
    this.sessions.delete(session.key);
    this.index.delete(session);
    this.stepBytes.release(session);
    this.live.delete(session);
    this.endedKept.delete(session.key);
    this.deps.metrics.endedSessions.set(this.endedKept.count);
    this.deps.metrics.endedSessionBytes.set(this.endedKept.bytes);
    if (session.connection !== undefined) this.deps.connections.get(session.connection)?.drop(session.key);
    this.deps.metrics.activeSessions.set(this.openCount());
    tenantInfo(this.deps.log, session.tenant, { session: session.id, task: session.task, why }, 'session freed');
    this.deps.observer?.freed(session);
  }

  /** Ends idle and expired-detached sessions and frees ended ones past the resume window. */
  async sweep(now = Date.now()): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const target = {
        all: () => [...this.sessions.values()],
        open: () => this.live.values(),
        end: (x: Session, why: FinalReason) => this.end(x, why),
        free: (x: Session, why: string) => this.free(x, why),
      };
      await sweepOnce(target, this.deps.options, now);
    } finally {
      this.sweeping = false;
    }
  }

  /**
   * Shutdown: ends every open session (finals go to attached clients), one after another, each from a turn of its
   * own (its report in slices): ended in one turn, many sessions held every client (and the HTTP answers the
   * shutdown waits for) for the sum of their reports (T34).
   */
  async endAll(): Promise<void> {
    for (const s of [...this.sessions.values()]) {
      if (s.ended) continue;
      await this.end(s, 'shutdown');
      await nextTurn();
    }
  }
}

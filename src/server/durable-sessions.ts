/**
 * Sessions that survive their replica (with `--redis`): every accepted step
 * is written to the session journal before its frames are sent; a resume on
 * any replica takes the session's lease and rebuilds it by replaying the
 * journal's payloads through a fresh scorer against the pinned reference
 * (scoring is deterministic, so the rebuilt session sends the same frames).
 * A failed write drops this replica's copy: the client gets `unavailable`
 * for that seq, and the session is rebuilt from what is durable before its
 * next message. Graceful shutdown releases leases instead of ending sessions.
 */
import type { Logger } from 'pino';
import type { Analyzers } from '../core/ports.js';
import { err, ok, SteplensError, type Result } from '../errors.js';
import type { MessageError } from '../protocol/parse.js';
import type { ErrorMessage, FinalMessage, ServerMessage } from '../protocol/server-messages.js';
import type { OpenResult, SessionJournal, WriteResult } from '../store/session-journal.js';
import type { Connection } from './connection.js';
import type { AppMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import type { SessionRegistry } from './session-registry.js';
import type { SessionSpec } from './session-factory.js';
import { checkBudget, overBudget, startOverBudget } from './journal-budget.js';
import { rebuild, recordedPrincipal, ViewCopies } from './session-replay.js';
import { InFlight } from '../in-flight.js';
import type { Session } from './session.js';
import { mayTakeOver, sessionKey, takeOverRefusal, type Principal } from './principal.js';

export interface DurableDeps {
  registry: SessionRegistry;
  journal: SessionJournal;
  analyzers: Analyzers;
  options: ResolvedOptions;
  log: Logger;
  metrics: AppMetrics;
  /** Where the journal lives, for messages (`host:port`). */
  endpoint: string;
}

function unavailable(error: unknown, what: string): MessageError {
  const why = error instanceof SteplensError ? error.message : `shared store error: ${(error as Error).message}`;
  return { code: 'unavailable', message: `${what}: ${why}` };
}

/** Throws `forbidden` when `holder` may not take over a session `started` began (principal.ts, T90). */
function checkTakeOver(holder: Principal, started: Principal, id: string): void {
  if (!mayTakeOver(holder, started)) throw new SteplensError('forbidden', takeOverRefusal(id, started));
}

export class DurableSessions {
  private readonly restoring = new InFlight<string, Session | undefined>();
  private readonly views: ViewCopies;

  constructor(private readonly deps: DurableDeps) {
    this.views = new ViewCopies(deps);
  }

  get journal(): SessionJournal {
    return this.deps.journal;
  }

  available(): boolean {
    return this.deps.journal.available();
  }

  get endpoint(): string {
    return this.deps.endpoint;
  }

  /** This replica's copy of `tenant`'s session `id`, if it holds one. */
  local(tenant: string, id: string): Session | undefined {
    return this.deps.registry.find(tenant, id);
  }

  /** Moves a session to `conn`. */
  attach(s: Session, conn: Connection): void {
    this.deps.registry.attach(s, conn);
  }

  /**
   * Records a new session and takes its lease; an error when the id is held by any replica, its record would take
   * its tenant past the journal budget, or Redis is unreachable.
   */
  async open(session: Session, spec: SessionSpec): Promise<Result<void, MessageError>> {
    const pin = this.deps.journal.pin(spec.reference);
    let opened: OpenResult;
    try {
      opened = await this.deps.journal.open(session.key, {
        task: spec.task,
        format: spec.format,
        learn: spec.learn,
        policy: spec.policy,
        reference: pin,
        createdAt: Date.now(),
        ...(spec.agent !== undefined ? { agent: spec.agent } : {}),
        ...(spec.model !== undefined ? { model: spec.model } : {}),
        ...(spec.forecast !== undefined ? { forecast: spec.forecast } : {}),
        ...(spec.assignment !== undefined ? { assignment: spec.assignment } : {}),
        tenant: spec.principal.tenant,
        role: spec.principal.role,
      });
    } catch (error) {
      return err(unavailable(error, `session ${session.id} not started`));
    }
    if (opened === 'taken') return err({ code: 'duplicate_session', message: `session ${session.id} already exists (on this or another replica)` });
    const journal = this.deps.journal;
    if (opened === 'over') return err(startOverBudget(session.tenant, journal.tenantBytes(session.tenant) ?? journal.budget, journal.budget, session.id));
    session.pin = pin;
    return ok(undefined);
  }

  /** Before a step of `bytes` is scored: undefined when it fits its tenant's journal budget, else the refusal (journal-budget.ts). */
  budget(s: Session, seq: number, bytes: number): MessageError | undefined | Promise<MessageError | undefined> {
    return checkBudget(this.deps.journal, s.tenant, s.id, seq, bytes);
  }

  /** After an accepted step (`frame`: its `step` message as received): writes it; resolves with what to send once durable (its frames), or the error. */
  persistStep(s: Session, seq: number, frame: Buffer | string, frames: readonly ServerMessage[]): Promise<readonly ServerMessage[]> {
    const pin = s.pin!; // a durable session is pinned by open() or rebuild() before any step
    const bytes = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    return this.write(s, seq, () => this.deps.journal.append(s.key, seq, frame, pin), bytes).then((e) => (e ? [e] : frames));
  }

  /** After an outcome: writes it; resolves with nothing to send, or the error. */
  persistOutcome(s: Session, passed: boolean): Promise<readonly ServerMessage[]> {
    const pin = s.pin!; // a durable session is pinned by open() or rebuild() before any step
    return this.write(s, undefined, () => this.deps.journal.outcome(s.key, passed, pin)).then((e) => (e ? [e] : []));
  }

  /** Issues one fenced write (of a step of `bytes`); on failure drops this replica's copy. Resolves with the error frame to send, if any; never rejects. */
  private write(s: Session, seq: number | undefined, op: () => Promise<WriteResult>, bytes = 0): Promise<ErrorMessage | undefined> {
    const done = op().then(
      (result) => (result === 'ok' ? undefined : this.failed(s, seq, result, bytes)),
      (error: unknown) => this.failed(s, seq, error, bytes),
    );
    s.lastWrite = done;
    return done;
  }

  /** `why`: the store's refusal (a `WriteResult` other than 'ok') or what the write threw. */
  private failed(s: Session, seq: number | undefined, why: unknown, bytes: number): ErrorMessage {
    const where = { session: s.id, ...(seq !== undefined ? { seq } : {}) };
    let e: MessageError;
    if (why === 'lost' || why === 'gone' || why === 'ended') {
      this.deps.registry.evict(s, `durable write refused: ${why}`, false);
      const message = why === 'lost' ? 'was resumed on another connection or replica' : why === 'gone' ? 'has expired' : 'has ended';
      e = { code: 'unknown_session', message: `session ${s.id} ${message}` };
    } else {
      // This copy scored the step Redis did not take: the session is rebuilt from the journal before its next message.
      this.deps.registry.evict(s, 'durable write failed', true);
      const what = seq !== undefined ? `seq ${seq} not accepted (send it again)` : 'outcome not recorded (send it again)';
      const journal = this.deps.journal;
      // Another replica took the room this one believed the tenant had (its count came with the answer).
      if (why === 'over') e = overBudget(s.tenant, journal.tenantBytes(s.tenant) ?? journal.budget, bytes, journal.budget, s.id, seq ?? 0);
      else e = why === 'gap' ? { code: 'unavailable', message: `${what}: an earlier write of this session failed` } : unavailable(why, what);
      if (why !== 'gap' && why !== 'over') this.deps.log.warn({ session: s.id, seq, err: why }, 'durable write failed');
    }
    this.deps.metrics.refusals.inc({ code: e.code });
    return { type: 'error', code: e.code, message: e.message, ...where };
  }

  /** Waits for the session's writes in flight (they never reject). */
  async settled(s: Session): Promise<void> {
    await s.lastWrite;
  }

  /** Writes the final and frees the lease; a failure is logged (the final is sent regardless). */
  async finished(s: Session, final: FinalMessage): Promise<void> {
    try {
      const result = await this.deps.journal.finish(s.key, final, s.pin);
      if (result !== 'ok' && result !== 'ended') this.deps.log.warn({ session: s.id, result }, 'final not recorded');
    } catch (error) {
      this.deps.log.warn({ session: s.id, err: error }, 'final not recorded: shared store unreachable');
    }
  }

  /** True when `conn` holds a session whose copy was dropped after a failed write: it is rebuilt before its next message. */
  needsRestore(conn: Connection, id: string): boolean {
    const key = sessionKey(conn.principal.tenant, id);
    return this.deps.registry.get(key) === undefined && conn.sessions.has(key);
  }

  /**
   * Takes a session over (a resume, or the next message after a failed write):
   * this replica's copy when it is still the durable one, else a copy rebuilt
   * from the journal. Undefined when the session is unknown or expired.
   * The id is looked up in the principal's tenant's namespace: another tenant's session is as unknown as one
   * never started, and is not taken. Throws `SteplensError('unavailable')` while Redis is unreachable.
   */
  async claim(id: string, principal: Principal): Promise<Session | undefined> {
    const key = sessionKey(principal.tenant, id);
    const s = await this.restoring.run(key, () => this.takeOver(key, id, principal));
    // Again for a claim that joined another's takeover (T90): the session goes only to a token that may hold it.
    if (s !== undefined) checkTakeOver(principal, s.principal, id);
    return s;
  }

  private async takeOver(key: string, id: string, principal: Principal): Promise<Session | undefined> {
    const tenant = principal.tenant;
    const local = this.deps.registry.get(key);
    let pin = local?.pin;
    if (local) {
      if (local.tenant !== tenant) return undefined;
      checkTakeOver(principal, local.principal, id);
      await this.settled(local);
    } else {
      // Checked before the lease is taken (and before any step is read): the key already names the tenant, the record must agree.
      const record = (await this.deps.journal.head(key))?.record;
      if (record !== undefined && record.tenant !== tenant) return undefined;
      // And the role that started it: a token that may not resume it takes no lease from the replica holding it (T90).
      if (record !== undefined) checkTakeOver(principal, recordedPrincipal(record), id);
      pin = record?.reference;
    }
    // The claim keeps the pinned PTA as long as the session: the rebuild below, and later takeovers, need it.
    const claim = await this.deps.journal.claim(key, pin);
    const current = this.deps.registry.get(key);
    if (!claim) {
      if (current) this.deps.registry.evict(current, 'expired from the journal', false);
      return undefined;
    }
    if (current && claim.previousOwner === this.deps.journal.owner && current.lastSeq === claim.length - 1 && current.ended === claim.ended) return current;
    const head = await this.deps.journal.head(key);
    if (current) this.deps.registry.evict(current, 'stale: rebuilt from the journal', true);
    if (!head) return undefined;
    const session = await rebuild(this.deps, id, head);
    this.deps.metrics.sessionsRebuilt.inc();
    this.deps.registry.adopt(session);
    this.deps.log.info({ session: id, task: session.task, steps: head.length, from: claim.previousOwner || undefined }, 'session taken over');
    return session;
  }

  /**
   * A read-only copy of `tenant`'s session `id` for `GET /v1/sessions/:id` on a replica that does not hold it
   * (no lease taken); undefined when unknown, expired, or another tenant's (checked before any step is read).
   */
  async view(tenant: string, id: string): Promise<{ session: Session; owner: string | undefined } | undefined> {
    const key = sessionKey(tenant, id);
    const head = await this.deps.journal.head(key);
    if (head?.record.tenant !== tenant) return undefined;
    return { session: await this.views.view(key, id, head), owner: head.owner };
  }

  /** Graceful shutdown: waits for writes in flight and releases every lease held; sessions are not ended. */
  async handBack(): Promise<void> {
    const open = [...this.deps.registry.sessions.values()].filter((s) => !s.ended);
    await Promise.all(open.map((s) => this.settled(s)));
    try {
      await this.deps.journal.release(open.map((s) => s.key));
      this.deps.log.info({ sessions: open.length }, 'sessions handed back (leases released)');
    } catch (error) {
      this.deps.log.warn({ err: error, sessions: open.length }, 'leases not released (they expire by themselves)');
    }
  }

  /** Renews the leases of every open session held here; drops copies another replica took over. */
  async renewLeases(): Promise<void> {
    const open = [...this.deps.registry.sessions.values()].filter((s) => !s.ended);
    if (open.length === 0 || !this.available()) return;
    const lost = new Set(await this.deps.journal.renew(open.map((s) => s.key)));
    for (const s of open) if (lost.has(s.key)) this.deps.registry.evict(s, 'taken over by another replica', false);
  }
}

/**
 * Where sessions are made durable so that any replica can carry them on: a
 * session's record (what it was started with, the exact reference it is
 * scored against), every accepted step payload in seq order, its outcome and
 * its final; and a lease naming the one replica that owns it. Every write is
 * fenced by the lease: a replica that lost a session (another one resumed it)
 * can no longer change it. Implemented on Redis (`redis/session-journal.ts`);
 * the embedded server keeps sessions in memory only and has no journal.
 */
import type { ForecastModel } from '../core/forecast/model.js';
import type { Policy } from '../core/policy.js';
import type { Reference, TemporalPrior } from '../core/scorer-api.js';

/** The reference a session was started against, pinned so a rebuild scores it the same. */
export type PinnedReference =
  /** `chain`: where the store keeps that version (absent in records written before chains: the version's own key). */
  { kind: 'pta'; task: string; version: number; chain?: number } | { kind: 'prior'; prior: TemporalPrior };

/** What a session was started with. */
export interface SessionRecord {
  task: string;
  format: string;
  agent?: string;
  model?: string;
  learn: boolean;
  /** The resolved early-stop policy. */
  policy: Policy;
  /** Which policy the server assigned it (agent/model group, shadow mode). */
  assignment?: { pair: string; selected: string; shadow: boolean };
  /** The tenant of the token that started it (`default` while auth is off): its id lives in that tenant's namespace, and only that tenant may resume it or read it (operators read it too). */
  tenant?: string;
  /** The role of that token: what the session may learn follows it. */
  role?: string;
  reference: PinnedReference;
  /** The outcome forecast model the session was started with (`serve --forecast`), kept whole. */
  forecast?: { model: ForecastModel; version: number };
  /** ms since the epoch. */
  createdAt: number;
}

/** A session as the journal holds it, without its steps (read those a page at a time: `frames`). */
export interface SessionHead {
  record: SessionRecord;
  /** Durable steps (the last seq is `length - 1`). */
  length: number;
  passed?: boolean;
  /** The final frame, once ended. */
  final?: unknown;
  /** The replica holding the lease, if any. */
  owner?: string;
}

/**
 * The answer to a fenced write: `ok`; `lost` (another replica holds the lease),
 * `gone` (expired or never opened), `ended` (already has a final), `gap` (the
 * durable steps are not the ones this replica believes: a write before failed),
 * `over` (an append that would take its tenant's journals past their budget: nothing written).
 */
export type WriteResult = 'ok' | 'lost' | 'gone' | 'ended' | 'gap' | 'over';

/**
 * The answer to an open: `ok`; `taken` (the id is, by a session of any replica); `over` (its record would take its
 * tenant's journals past their budget: nothing written).
 */
export type OpenResult = 'ok' | 'taken' | 'over';

/** What taking a session over found. */
export interface Claim {
  /** The replica that held the lease before ('' = none). */
  previousOwner: string;
  /** Durable steps (the last seq is `length - 1`). */
  length: number;
  ended: boolean;
}

/**
 * Every method may throw `SteplensError('unavailable')` when the backing service is unreachable. Sessions are
 * named by their key (the server's `sessionKey`: tenant and id), so each tenant's ids are its own.
 */
export interface SessionJournal {
  /** This replica's id (the lease holder name). */
  readonly owner: string;
  available(): boolean;
  /** Records a new session and takes its lease (its record counted in its tenant's budget): `taken`, `over` when not. */
  open(id: string, record: SessionRecord): Promise<OpenResult>;
  /**
   * Appends the step accepted under `seq`: `frame` is its whole `step` message as received (JSON; the
   * payload is its `step`), stored as is; `pin` names the PTA the session needs kept.
   */
  append(id: string, seq: number, frame: Buffer | string, pin: PinnedReference): Promise<WriteResult>;
  /**
   * Bytes one tenant's sessions may hold in the journal (their records, finals and step messages), every replica
   * together (0: no bound); ended sessions count until the resume window drops them.
   */
  readonly budget: number;
  /** The bytes `tenant`'s sessions hold as this replica last heard, with its appends in flight; undefined before it heard any (always, without a budget: nothing is counted). */
  tenantBytes(tenant: string): number | undefined;
  /** ... read from the store now (sessions that expired no longer count), with this replica's appends in flight. */
  readTenantBytes(tenant: string): Promise<number>;
  outcome(id: string, passed: boolean, pin: PinnedReference): Promise<WriteResult>;
  /** Records the final and frees the lease; the session (and `pin`, its pinned reference) stays readable for the resume window. */
  finish(id: string, final: unknown, pin?: PinnedReference): Promise<WriteResult>;
  /**
   * Takes the lease whoever holds it (a resume); undefined when the session is unknown or expired. `pin`: the
   * session's pinned reference, kept at least as long as the session from then on.
   */
  claim(id: string, pin?: PinnedReference): Promise<Claim | undefined>;
  /** Reads a session's record and state, not its steps (no lease taken); undefined when unknown or expired. */
  head(id: string): Promise<SessionHead | undefined>;
  /**
   * Up to `count` step frames from seq `from` on, each as received (JSON of the `step` message), with
   * their bytes; fewer at the end. Read a page at a time: a session's steps may hold many megabytes.
   */
  frames(id: string, from: number, count: number): Promise<Buffer[]>;
  /** What a session scored against `reference` pins (the PTA's task, version and where it is kept; or the prior). */
  pin(reference: Reference): PinnedReference;
  /** The pinned reference, resolved; undefined when that PTA version is no longer kept. */
  resolve(pin: PinnedReference): Promise<Reference | undefined>;
  /** Renews the leases of `ids` still held; returns the ids another replica took over (or that ended or expired meanwhile). */
  renew(ids: readonly string[]): Promise<string[]>;
  /** Lets go of the leases of `ids` (graceful shutdown: another replica may take them at once). */
  release(ids: readonly string[]): Promise<void>;
}

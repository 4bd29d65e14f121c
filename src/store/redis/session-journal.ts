/**
 * Sessions in Redis (see `../session-journal.ts` for the contract): per
 * session a hash (record, outcome, final), a list of step payloads and a
 * lease key, each write one Lua script (fence check and write at once). Every
 * key expires `ttlMs` after the session's last write, `keepEndedMs` after its
 * final, so Redis memory stays bounded even for sessions nobody ends; and the
 * bytes each tenant's sessions hold (records, finals, steps) are counted there
 * (journal-bytes.ts), within `budget` when one is given.
 */
import type { Reference } from '../../core/scorer-api.js';
import type { Claim, OpenResult, PinnedReference, SessionHead, SessionJournal, SessionRecord, WriteResult } from '../session-journal.js';
import { SteplensError } from '../../errors.js';
import { RedisKeys, tenantOf } from './keys.js';
import { RedisLink } from './link.js';
import type { RedisReferenceStore } from './reference-store.js';
import { APPEND, CLAIM, FINISH, JOURNAL_BYTES, OPEN, OUTCOME, RELEASE, RENEW } from './journal-scripts.js';
import { TenantBytes } from './tenant-bytes.js';
import { settleUnanswered, whileAnswering } from './unanswered.js';

export interface RedisSessionJournalOptions {
  link: RedisLink;
  store: RedisReferenceStore;
  /** This replica's id. */
  owner: string;
  /** A lease not renewed for this long is free (default 15 s). */
  leaseMs?: number;
  /** A session's keys expire this long after its last write (default 35 min). */
  ttlMs?: number;
  /** ... and this long after its final (default 5 min: the resume window). */
  keepEndedMs?: number;
  /** Bytes one tenant's sessions may hold (records, finals, step messages); a start or step past it is refused `over` (default 0: no bound). */
  budget?: number;
}

const WRITE_RESULTS: readonly WriteResult[] = ['ok', 'lost', 'gone', 'ended', 'gap', 'over'];

function writeResult(answer: unknown): WriteResult {
  const text = String(answer);
  return (WRITE_RESULTS as readonly string[]).includes(text) ? (text as WriteResult) : 'gone';
}

/** Keys renewed or released per script call. */
const BATCH = 500;
/** Steps appended per script call at most (one call blocks Redis while it runs). */
const APPEND_BATCH = 128;
/** A batch this full is sent at once rather than at the end of the turn. */
const APPEND_EAGER = 32;

interface PendingAppend {
  keys: string[];
  tenant: string;
  seq: number;
  frame: Buffer | string;
  bytes: number;
  resolve(result: WriteResult): void;
  reject(error: unknown): void;
}

export class RedisSessionJournal implements SessionJournal {
  private batch: PendingAppend[] = [];
  readonly owner: string;
  readonly leaseMs: number;
  private readonly ttlMs: number;
  private readonly keepEndedMs: number;
  readonly budget: number;
  private readonly bytes = new TenantBytes();
  private readonly link: RedisLink;
  private readonly store: RedisReferenceStore;
  private readonly keys: RedisKeys;

  constructor(options: RedisSessionJournalOptions) {
    this.link = options.link;
    this.store = options.store;
    this.owner = options.owner;
    this.keys = new RedisKeys(options.link.prefix);
    this.leaseMs = options.leaseMs ?? 15_000;
    this.ttlMs = options.ttlMs ?? 35 * 60_000;
    this.keepEndedMs = options.keepEndedMs ?? 5 * 60_000;
    this.budget = options.budget ?? 0;
  }

  available(): boolean {
    return this.link.available();
  }

  /** The session's keys, plus the key holding the pinned PTA version when there is one (its chain, else its own key). */
  private fenced(id: string, pin: PinnedReference): string[] {
    const keys: string[] = this.keys.session(id);
    if (pin.kind === 'pta') keys.push(pin.chain !== undefined ? this.keys.chain(pin.task, pin.chain) : this.keys.pta(pin.task, pin.version));
    return keys;
  }

  pin(reference: Reference): PinnedReference {
    if (reference.kind === 'prior') return { kind: 'prior', prior: reference.prior };
    const chain = this.store.chainStart(reference.pta);
    return { kind: 'pta', task: reference.pta.task, version: reference.pta.version, ...(chain !== undefined ? { chain } : {}) };
  }

  /**
   * Left unanswered (unanswered.ts), an open is settled by its trace: the session's record exactly as sent
   * (its creation time to the millisecond) under this replica's lease was this open; else nothing was
   * opened, and the client may send its start again (answering `unavailable` while Redis held it made
   * that start a `duplicate_session`).
   */
  async open(id: string, record: SessionRecord): Promise<OpenResult> {
    const rec = JSON.stringify(record);
    const keys = this.keys.session(id);
    try {
      const answer = await this.link.run('session_open', (r) => OPEN.run(r, keys, [rec, this.owner, this.leaseMs, this.ttlMs, this.budget]));
      const [result, total] = answer as [string, number];
      if (this.budget > 0 && result !== 'taken') this.bytes.read(tenantOf(id), Number(total));
      return result === 'ok' || result === 'over' ? result : 'taken';
    } catch (error) {
      if (!RedisLink.unanswered(error)) throw error;
      const unanswered = (error as Error).message;
      const ours = await settleUnanswered(
        this.link,
        () =>
          whileAnswering(async () => {
            const [meta, lease] = keys;
            const [stored, owner] = await this.link.run('session_open_check', (r) => Promise.all([r.hget(meta, 'rec'), r.get(lease)]));
            return stored === rec && owner === this.owner;
          }),
        (waitMs) =>
          new SteplensError('unavailable', `Redis may have stored it: ${unanswered}, and it did not answer within ${waitMs} ms since: resume the session to find out`, {
            cause: error,
          }),
      );
      if (ours) return 'ok';
      throw new SteplensError('unavailable', `nothing was stored: ${unanswered}`, { cause: error });
    }
  }

  /**
   * Queued and sent with every other step appended in the same turn of the
   * event loop, in one script call: far less work per step, for Redis and
   * here, than one call each (bench/README.md, replicas).
   */
  append(id: string, seq: number, frame: Buffer | string, pin: PinnedReference): Promise<WriteResult> {
    const tenant = tenantOf(id);
    // Without a budget nothing is counted, here nor in Redis (journal-scripts.ts): `tenantBytes` stays undefined.
    const bytes = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    if (this.budget > 0) this.bytes.sent(tenant, bytes);
    return new Promise((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => this.flush());
      this.batch.push({ keys: this.fenced(id, pin), tenant, seq, frame, bytes, resolve, reject });
      // A long turn (many steps read at once) sends full batches as it goes, so Redis works while this replica scores.
      if (this.batch.length >= APPEND_EAGER) this.send(this.batch.splice(0));
    });
  }

  /**
   * Sends the queued appends now. Every other session command calls it first: Redis runs one connection's
   * commands in order, so an outcome, final, lease release or read comes after the steps appended before it. A
   * final sent while the turn's appends still waited for the next turn made Redis refuse them as `ended`.
   */
  private flush(): void {
    while (this.batch.length > 0) this.send(this.batch.splice(0, APPEND_BATCH));
  }

  private send(batch: PendingAppend[]): void {
    const keys: string[] = [];
    const args: Array<string | number | Buffer> = [this.owner, this.leaseMs, this.ttlMs, this.budget];
    for (const b of batch) {
      keys.push(...b.keys);
      args.push(b.keys.length, b.seq, b.frame);
    }
    this.link
      .run('session_append', (r) => APPEND.run(r, keys, args))
      .then(
        (answer) =>
          batch.forEach((b, i) => {
            const [result, total] = (answer as Array<[unknown, unknown]>)[i] ?? [];
            if (this.budget > 0) this.bytes.answered(b.tenant, b.bytes, Number(total));
            b.resolve(writeResult(result));
          }),
        (error: unknown) =>
          batch.forEach((b) => {
            if (this.budget > 0) this.bytes.answered(b.tenant, b.bytes, undefined);
            b.reject(error);
          }),
      );
  }

  tenantBytes(tenant: string): number | undefined {
    return this.bytes.estimate(tenant);
  }

  async readTenantBytes(tenant: string): Promise<number> {
    const total = await this.link.run('journal_bytes', (r) => JOURNAL_BYTES.run(r, this.keys.journalBytes(tenant), []));
    return this.bytes.read(tenant, Number(total));
  }

  async outcome(id: string, passed: boolean, pin: PinnedReference): Promise<WriteResult> {
    this.flush();
    return writeResult(await this.link.run('session_outcome', (r) => OUTCOME.run(r, this.fenced(id, pin), [this.owner, this.leaseMs, this.ttlMs, passed ? '1' : '0'])));
  }

  async finish(id: string, final: unknown, pin?: PinnedReference): Promise<WriteResult> {
    this.flush();
    const keys = pin !== undefined ? this.fenced(id, pin) : this.keys.session(id);
    const answer = await this.link.run('session_finish', (r) => FINISH.run(r, keys, [this.owner, JSON.stringify(final), this.keepEndedMs]));
    if (!Array.isArray(answer)) return writeResult(answer);
    // Its record was counted (opened with a budget): the final was too, and the answer has the tenant's bytes after it.
    const [result, total] = answer as [unknown, unknown];
    if (total !== undefined && this.budget > 0) this.bytes.read(tenantOf(id), Number(total));
    return writeResult(result);
  }

  async claim(id: string, pin?: PinnedReference): Promise<Claim | undefined> {
    this.flush();
    const keys = pin !== undefined ? this.fenced(id, pin) : this.keys.session(id);
    const answer = await this.link.run('session_claim', (r) => CLAIM.run(r, keys, [this.owner, this.leaseMs, this.ttlMs]));
    if (!Array.isArray(answer)) return undefined;
    const [prev, length, ended] = answer as [string, number, number];
    return { previousOwner: String(prev), length: Number(length), ended: Number(ended) === 1 };
  }

  async head(id: string): Promise<SessionHead | undefined> {
    this.flush();
    const [meta, lease, steps] = this.keys.session(id);
    const [fields, length, owner] = await this.link.run('session_head', async (r) => {
      const results = await r.multi().hgetall(meta).llen(steps).get(lease).exec();
      if (!results) throw new Error('transaction aborted');
      for (const [error] of results) if (error) throw error;
      return [results[0]?.[1] as Record<string, string>, results[1]?.[1] as number, results[2]?.[1] as string | null] as const;
    });
    if (fields.rec === undefined) return undefined;
    return {
      record: JSON.parse(fields.rec) as SessionRecord,
      length: Number(length),
      ...(fields.passed !== undefined ? { passed: fields.passed === '1' } : {}),
      ...(fields.final !== undefined ? { final: JSON.parse(fields.final) as unknown } : {}),
      ...(owner !== null ? { owner } : {}),
    };
  }

  async frames(id: string, from: number, count: number): Promise<Buffer[]> {
    this.flush();
    const steps = this.keys.session(id)[2];
    return this.link.run('session_frames', (r) => r.lrangeBuffer(steps, from, from + count - 1));
  }

  async resolve(pin: PinnedReference): Promise<Reference | undefined> {
    if (pin.kind === 'prior') return { kind: 'prior', prior: pin.prior };
    const pta = await this.store.ptaAt(pin.task, pin.version, pin.chain);
    return pta ? { kind: 'pta', pta } : undefined;
  }

  async renew(ids: readonly string[]): Promise<string[]> {
    const lost: string[] = [];
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const keys = batch.flatMap((id) => {
        const [meta, lease] = this.keys.session(id);
        return [lease, meta];
      });
      const answer = await this.link.run('lease_renew', (r) => RENEW.run(r, keys, [this.owner, this.leaseMs]));
      for (const n of answer as number[]) lost.push(batch[Number(n) - 1]!);
    }
    return lost;
  }

  async release(ids: readonly string[]): Promise<void> {
    this.flush();
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      await this.link.run('lease_release', (r) =>
        RELEASE.run(
          r,
          batch.map((id) => this.keys.lease(id)),
          [this.owner],
        ),
      );
    }
  }
}

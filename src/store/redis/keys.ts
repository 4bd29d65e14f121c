/**
 * Key and channel names, all under one prefix (default `steplens:`). Each
 * kind of key has its own short tag before the id, so no task or session id
 * (which may hold `:`) can make two names collide.
 *
 * - `<p>tasks`            hash: task -> its current PTA version
 * - `<p>chains`           hash: task -> the version its current chain starts at
 * - `<p>removed`          hash: task -> the version its PTA was removed at (kept: the task's next PTA is numbered
 *                         past it, so a version never names two PTAs, and a seed never brings it back); a tenant's
 *                         own PTAs share one field, the highest version any was removed at (`removedField`), so
 *                         the hash grows with shared tasks and tenants, not with every removal (T80)
 * - `<p>st`               set: the shared tasks (the tasks hash's fields that are not own PTAs' keys)
 * - `<p>ot:<tenant>`      set: the store keys of the tenant's own PTAs; with `st`, an index of the tasks hash kept by
 *                         the same scripts that add and remove its fields (pta-scripts.ts), so a listing reads the
 *                         shared tasks and the caller's own, not every tenant's (T82)
 * - `<p>ix`               string: set once the index holds every task Redis held before it (task-index.ts builds
 *                         it at start from the tasks hash, data of servers older than the index); missing: the
 *                         tasks hash is read instead
 * - `<p>ptl:<s>:<task>`   list: a chain of versions: the PTA JSON of version s, then per later version the
 *                         JSON of the states its reference added (a replaced chain expires)
 * - `<p>pta:<v>:<task>`   string: the PTA JSON of version v (written before chains; still read)
 * - `<p>gid:<id>`         string: the version one growth wrote (expires): how a growth left unanswered finds out
 *                         whether Redis applied it
 * - `<p>stg:<id>`         string: a new chain's PTA JSON while it is sent in pieces (expires; moved into the chain)
 * - `<p>grown`            channel: `<version>:<task>` after each growth, `-<version>:<task>` after a removal
 * - `<p>epoch`            string: a random id set once the seeds are imported; missing when Redis was emptied
 *                         (FLUSHALL, a restart without persistence), new after: versions count again from then
 * - `<p>sm:<key>`         hash: a session's record (`rec`), `passed`, `final`
 * - `<p>sl:<key>`         list: the session's accepted `step` messages as received, index = seq
 * - `<p>sk:<key>`         string: the replica holding the session's lease (expires)
 * - `<p>jb:<tenant>`      hash: per session of the tenant its `sm:` key -> the bytes of its record and final, its
 *                         `sl:` key -> the bytes of its steps list; and `total` (journal-bytes.ts; expires no
 *                         earlier than the keys it counts)
 * - `<p>jx:<tenant>`      sorted set: those `sm:` and `sl:` keys, scored by the ms they expire (the same TTL)
 *
 * A session's key is `<tenant>:<id>` (the server's `sessionKey`): each tenant's ids are its own.
 */
import { ownerOfKey, ownRemovalField } from '../tenant-keys.js';

export class RedisKeys {
  constructor(readonly prefix: string) {}

  get tasks(): string {
    return `${this.prefix}tasks`;
  }

  get grown(): string {
    return `${this.prefix}grown`;
  }

  get epoch(): string {
    return `${this.prefix}epoch`;
  }

  get chains(): string {
    return `${this.prefix}chains`;
  }

  get removed(): string {
    return `${this.prefix}removed`;
  }

  /** The `removed` hash's field recording `task`'s removals: the task, or for an own PTA its tenant's one field. */
  removedField(task: string): string {
    const owner = ownerOfKey(task);
    return owner === undefined ? task : ownRemovalField(owner.tenant);
  }

  /** The shared tasks' index set. */
  get sharedTasks(): string {
    return `${this.prefix}st`;
  }

  /** The index set of `tenant`'s own PTAs (tenant names hold no `:`). */
  ownTasks(tenant: string): string {
    return `${this.prefix}ot:${tenant}`;
  }

  /** The index set `task` (a store key: a shared task or an own PTA's key) belongs to. */
  indexOf(task: string): string {
    const owner = ownerOfKey(task);
    return owner === undefined ? this.sharedTasks : this.ownTasks(owner.tenant);
  }

  /** Set once the index sets hold every task of the tasks hash (task-index.ts). */
  get indexed(): string {
    return `${this.prefix}ix`;
  }

  pta(task: string, version: number): string {
    return `${this.prefix}pta:${version}:${task}`;
  }

  /** The chain of a task's versions starting at `start`. */
  chain(task: string, start: number): string {
    return `${this.prefix}ptl:${start}:${task}`;
  }

  /** The record of one growth (its id: random per growth). */
  growth(id: string): string {
    return `${this.prefix}gid:${id}`;
  }

  /** Where a new chain's PTA JSON is staged while it is sent in pieces (its id: random per write). */
  stage(id: string): string {
    return `${this.prefix}stg:${id}`;
  }

  /** A session's keys, in the order the session scripts take them: its own, then its tenant's journal byte counts. */
  session(id: string): [meta: string, lease: string, steps: string, counts: string, expiries: string] {
    return [`${this.prefix}sm:${id}`, `${this.prefix}sk:${id}`, `${this.prefix}sl:${id}`, ...this.journalBytes(tenantOf(id))];
  }

  /** The keys counting a tenant's journal bytes: the count hash and the expiry set (journal-bytes.ts). */
  journalBytes(tenant: string): [counts: string, expiries: string] {
    return [`${this.prefix}jb:${tenant}`, `${this.prefix}jx:${tenant}`];
  }

  lease(id: string): string {
    return `${this.prefix}sk:${id}`;
  }
}

/** The tenant of a session key `<tenant>:<id>` (tenant names hold no `:`); '' for a key without one. */
export function tenantOf(key: string): string {
  const at = key.indexOf(':');
  return at < 0 ? '' : key.slice(0, at);
}

/**
 * What the server needs from a reference store: task PTAs, their versions,
 * the pooled prior, and atomic growth. The embedded file store
 * (`reference-store.ts`) and the Redis store (`redis/reference-store.ts`)
 * both implement it and pass the same conformance suite
 * (test/store/conformance.ts).
 */
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import type { State } from '../core/types.js';

/** Stats of one stored task. */
export interface StoredTaskStats {
  task: string;
  version: number;
  references: number;
  nodes: number;
  paths: number;
}

/** PTA cache counters of one process (for metrics). */
export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/**
 * Who adds a reference, and the check its growth must pass. The check runs where growth is serialised (per
 * task in the file store; inside the compare-and-set loop in Redis, again on each retry), so it sees the very
 * version the reference would grow.
 */
export interface Contribution {
  /** Recorded on the new reference (`ReferenceStats.by`). */
  by: string;
  /** Throws (a `SteplensError`) to refuse growing `current` (undefined: the task has no PTA yet) with `states`. */
  check?: (current: Pta | undefined, states: readonly State[]) => void;
  /**
   * Called once the grown PTA is built, before it is stored, with its JSON bytes and the current one's (0: none):
   * throws (a `SteplensError`) to refuse it (nothing is stored), else returns what to call once the store knows
   * whether it stored it (a quota's reservation: server/own-pta-quota.ts).
   */
  admit?: (bytes: number, previous: number) => (stored: boolean) => void;
}

/** What {@link ReferenceStorePort.remove} removed: the task's PTA version then, and its JSON bytes. */
export interface RemovedPta {
  version: number;
  bytes: number;
  /** How long the store still holds those bytes (Redis: the removed chain, for sessions pinned to it); none: freed now. */
  keptMs?: number;
}

export interface ReferenceStorePort {
  /** `file` (embedded, one process) or `redis` (shared by every replica). */
  readonly kind: 'file' | 'redis';
  /** A PTA is used as a task's reference once it holds this many references. */
  readonly minReferences: number;
  /** Every task with a stored PTA, sorted. */
  tasks(): Promise<string[]>;
  /** The shared tasks (those of `tasks` that are not tenants' own PTAs' keys), sorted; reads no tenant's own keys. */
  sharedTasks(): Promise<string[]>;
  /** The store keys of `tenant`'s own PTAs (tenant-keys.ts), sorted; reads no other tenant's. */
  ownTasks(tenant: string): Promise<string[]>;
  has(task: string): Promise<boolean>;
  /** The task's current PTA; undefined when it has none. */
  get(task: string): Promise<Pta | undefined>;
  /** The task's current PTA version; undefined when it has none. */
  version(task: string): Promise<number | undefined>;
  /** What a session of `task` is scored against: its PTA once it holds `minReferences` references, else the prior. */
  reference(task: string): Promise<Reference>;
  /** The temporal prior pooled from every stored reference (method.md section 8). */
  prior(): Promise<TemporalPrior>;
  /**
   * Adds one passing trajectory's states to the task's PTA (building it when
   * the task has none) and returns the new PTA (version + 1). Concurrent
   * additions, from this process or any other sharing the store, lose none. With `contribution`, the new
   * reference records who added it, and its check may refuse it (nothing changes then).
   */
  addReference(task: string, states: readonly State[], contribution?: Contribution): Promise<Pta>;
  /**
   * Removes the task's PTA (the whole task: `has`, `get`, `tasks`, `list`, `sizes` and the pooled prior no longer
   * show it; a seeded task's seed no longer answers for it) and returns what it removed; undefined when the task
   * has none. Serialised with `addReference` of the task, so a concurrent addition is either in the removed PTA
   * or in the next one, never lost after it was reported stored nor brought back. Versions never repeat: the
   * next PTA of the task is built at the removed version + 1 (a replica's cache, a session's pin and a client
   * holding version v keep meaning the PTA that was v). A PTA object already handed out (a running session's)
   * stays as it is; with Redis its version stays readable as long as a replaced one (`keepVersionsMs`).
   */
  remove(task: string): Promise<RemovedPta | undefined>;
  /** The JSON bytes of each of `tasks`' current PTAs, in that order (0 for a task it holds no PTA of). */
  sizes(tasks: readonly string[]): Promise<number[]>;
  /** Stats of every stored task, or of those of `tasks` it holds (in that order). */
  list(tasks?: readonly string[]): Promise<StoredTaskStats[]>;
  /** Waits for pending writes. */
  flush(): Promise<void>;
  /** Flushes and lets go of what the store holds open (connections); the store is unusable afterwards. */
  close(): Promise<void>;
  /** False while the backing service is unreachable; always true for the file store. */
  available(): boolean;
  /**
   * Readiness: undefined when the store takes reads and writes, else why not (Redis unreachable, not
   * answering within `deadlineMs`, out of memory; the data folder out of space). Never rejects.
   */
  health(deadlineMs: number): Promise<string | undefined>;
  cacheStats(): CacheStats;
}

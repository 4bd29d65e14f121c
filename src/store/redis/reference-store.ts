/**
 * The reference store in Redis, shared by every replica: one immutable key
 * per PTA version and a hash of current versions. Growth is a
 * compare-and-set script (the new version is written only if the task is
 * still at the version it was built from; otherwise it is rebuilt from the
 * newer one and tried again), so replicas learning the same task at once lose
 * no reference. Each replica caches PTAs by version (a version never
 * changes): a lookup reads the task's current version (one HGET, so a replica
 * never scores against a version another one has replaced) and takes the PTA
 * from the cache when it holds that version. Growth is also published, so
 * replicas drop the replaced version from their cache and keep the pooled
 * prior current without re-reading every version (after their subscriber
 * reconnects, they re-read them all: messages sent meanwhile are lost). A
 * replaced version is kept in Redis for `keepVersionsMs` so sessions scored
 * against it can still be rebuilt on another replica.
 */
import { LRUCache } from 'lru-cache';
import { addReference, buildPta, ptaFromJson, ptaToJson } from '../../core/pta/index.js';
import type { Pta, Reference, TemporalPrior } from '../../core/scorer-api.js';
import type { State } from '../../core/types.js';
import { SteplensError } from '../../errors.js';
import { PriorPool } from '../prior-pool.js';
import type { CacheStats, Contribution, ReferenceStorePort, StoredTaskStats } from '../store-port.js';
import { taskStats } from '../task-stats.js';
import { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';
import { GROW } from './scripts.js';
import { readSeedPtas } from './seeds.js';

export interface RedisReferenceStoreOptions {
  link: RedisLink;
  /** Read-only directories of `<task>.json` PTAs imported for tasks Redis does not hold yet (first wins). */
  seedDirs?: string[];
  /** A replaced PTA version stays readable this long (default 35 min: a session's lifetime). */
  keepVersionsMs?: number;
  /** Cache bound: PTA versions held in memory (default 256). */
  maxEntries?: number;
  /** Cache bound: JSON bytes of PTAs held in memory (default 256 MiB). */
  maxBytes?: number;
  minReferences?: number;
  warn?: (message: string) => void;
}

const MAX_GROW_ATTEMPTS = 50;

export class RedisReferenceStore implements ReferenceStorePort {
  readonly kind = 'redis' as const;
  readonly minReferences: number;
  private readonly link: RedisLink;
  private readonly keys: RedisKeys;
  private readonly cache: LRUCache<string, { pta: Pta; bytes: number }>;
  /** Current version per task, as last seen (authoritative only while `synced`). */
  private readonly current = new Map<string, number>();
  private synced = false;
  private readonly pool = new PriorPool();
  private readonly pooled = new Map<string, number>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly options: RedisReferenceStoreOptions;
  private seeded: Promise<void> | undefined;
  private seedDone = false;
  private closed = false;
  private counters = { hits: 0, misses: 0 };

  private constructor(options: RedisReferenceStoreOptions) {
    this.options = options;
    this.link = options.link;
    this.keys = new RedisKeys(options.link.prefix);
    this.minReferences = options.minReferences ?? 2;
    this.cache = new LRUCache({
      max: options.maxEntries ?? 256,
      maxSize: options.maxBytes ?? 256 * 1024 * 1024,
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
    });
  }

  /**
   * Subscribes to growth and, once Redis answers, imports the seeds. Does not
   * wait for Redis: `available()` (readiness) is false until it is reachable.
   */
  static async open(options: RedisReferenceStoreOptions): Promise<RedisReferenceStore> {
    const store = new RedisReferenceStore(options);
    const sub = options.link.subscriber();
    sub.on('message', (channel: string, message: string) => {
      if (channel === store.keys.grown) store.onGrown(message);
    });
    // (Re)subscribe on each connection, then re-read: what was published while disconnected is lost.
    const subscribe = (): Promise<void> =>
      sub.subscribe(store.keys.grown).then(
        () => store.resync(),
        () => undefined,
      );
    sub.on('ready', () => void subscribe());
    sub.on('close', () => {
      store.synced = false;
    });
    options.link.client.on('ready', () => void store.seed().catch(() => undefined));
    if (sub.status === 'ready') await subscribe();
    if (await options.link.whenReady(2000)) await store.seed().catch(() => undefined);
    return store;
  }

  private onGrown(message: string): void {
    const at = message.indexOf(':');
    const version = Number(message.slice(0, at));
    const task = message.slice(at + 1);
    if (at > 0 && Number.isInteger(version)) this.see(task, version);
  }

  /** Records a task's version (never going back: messages may arrive after our own write); drops the replaced one from the cache. */
  private see(task: string, version: number): void {
    const known = this.current.get(task) ?? 0;
    if (known >= version) return;
    this.current.set(task, version);
    if (known > 0) this.cache.delete(this.keys.pta(task, known));
  }

  private async resync(): Promise<void> {
    this.synced = false;
    try {
      const all = await this.link.run('tasks', (r) => r.hgetall(this.keys.tasks));
      for (const [task, v] of Object.entries(all)) this.see(task, Number(v));
      for (const task of [...this.current.keys()]) if (!(task in all)) this.current.delete(task);
      this.synced = this.link.subscriber().status === 'ready';
    } catch (error) {
      this.options.warn?.(`redis: re-reading task versions failed: ${(error as Error).message}`);
    }
  }

  /** Imports the seed PTAs once (tasks Redis already holds are left alone); retried every second until it succeeds. */
  seed(): Promise<void> {
    this.seeded ??= this.importSeeds().catch((error: unknown) => {
      this.seeded = undefined;
      if (!this.closed) setTimeout(() => void this.seed().catch(() => undefined), 1000).unref();
      throw error;
    });
    return this.seeded;
  }

  private async importSeeds(): Promise<void> {
    for (const pta of await readSeedPtas(this.options.seedDirs ?? [], this.options.warn)) {
      const json = ptaToJson(pta);
      const key = this.keys.pta(pta.task, pta.version);
      await this.link.run('seed', (r) => GROW.run(r, [this.keys.tasks, key, key], [pta.task, 0, pta.version, json, 0, this.keys.grown]));
    }
    await this.resync();
    this.seedDone = true;
  }

  private async versionNow(task: string): Promise<number | undefined> {
    const v = await this.link.run('version', (r) => r.hget(this.keys.tasks, task));
    if (v === null) return undefined;
    this.see(task, Number(v));
    return Number(v);
  }

  async tasks(): Promise<string[]> {
    return (await this.link.run('tasks', (r) => r.hkeys(this.keys.tasks))).sort();
  }

  /** Every task's current version: from what was published while subscribed, else read. */
  private async versions(): Promise<Map<string, number>> {
    if (!this.synced) await this.resync();
    if (!this.synced) {
      const all = await this.link.run('tasks', (r) => r.hgetall(this.keys.tasks));
      return new Map(Object.entries(all).map(([task, v]) => [task, Number(v)]));
    }
    return this.current;
  }

  async has(task: string): Promise<boolean> {
    return (await this.versionNow(task)) !== undefined;
  }

  async version(task: string): Promise<number | undefined> {
    return this.versionNow(task);
  }

  async get(task: string): Promise<Pta | undefined> {
    const version = await this.versionNow(task);
    return version === undefined ? undefined : this.ptaAt(task, version);
  }

  /** One version of a task's PTA (the current one or one kept after growth); undefined once gone. */
  async ptaAt(task: string, version: number): Promise<Pta | undefined> {
    const key = this.keys.pta(task, version);
    const cached = this.cache.get(key);
    if (cached) {
      this.counters.hits++;
      return cached.pta;
    }
    this.counters.misses++;
    const text = await this.link.run('get_pta', (r) => r.get(key));
    if (text === null) return undefined;
    const parsed = ptaFromJson(text);
    if (!parsed.ok) throw new SteplensError('internal', `PTA ${key} in Redis is unreadable: ${parsed.error}`);
    this.cache.set(key, { pta: parsed.value, bytes: Buffer.byteLength(text) });
    return parsed.value;
  }

  async reference(task: string): Promise<Reference> {
    const pta = await this.get(task);
    if (pta && pta.references.length >= this.minReferences) return { kind: 'pta', pta };
    return { kind: 'prior', prior: await this.prior() };
  }

  /** The prior over every task's current version (only tasks that changed since the last call are read). */
  async prior(): Promise<TemporalPrior> {
    for (const [task, version] of await this.versions()) {
      if (this.pooled.get(task) === version) continue;
      try {
        const pta = await this.ptaAt(task, version);
        if (pta) this.pool.set(pta);
        this.pooled.set(task, version);
      } catch (error) {
        if (error instanceof SteplensError && error.code === 'unavailable') throw error;
        this.options.warn?.(`prior: skipping task ${task}: ${(error as Error).message}`);
        this.pooled.set(task, version);
      }
    }
    return this.pool.prior();
  }

  /** Compare-and-set growth; one replica's calls for a task are also queued locally, to spare retries. */
  async addReference(task: string, states: readonly State[], contribution?: Contribution): Promise<Pta> {
    const previous = this.locks.get(task) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.grow(task, states, contribution));
    this.locks.set(task, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(task) === run) this.locks.delete(task);
    }
  }

  private async grow(task: string, states: readonly State[], contribution: Contribution | undefined): Promise<Pta> {
    for (let attempt = 0; attempt < MAX_GROW_ATTEMPTS; attempt++) {
      const raw = await this.link.run('version', (r) => r.hget(this.keys.tasks, task));
      const version = raw === null ? 0 : Number(raw);
      const current = version === 0 ? undefined : await this.ptaAt(task, version);
      if (version !== 0 && current === undefined) continue; // replaced between the two reads
      contribution?.check?.(current, states);
      const by = contribution !== undefined ? { by: contribution.by } : {};
      const next = current ? addReference(current, states, by) : buildPta(task, [states], by);
      const json = ptaToJson(next);
      const key = this.keys.pta(task, next.version);
      const answer = await this.link.run('grow', (r) =>
        GROW.run(r, [this.keys.tasks, key, this.keys.pta(task, version)], [task, version, next.version, json, this.options.keepVersionsMs ?? 35 * 60_000, this.keys.grown]),
      );
      if (answer === 'ok') {
        this.cache.set(key, { pta: next, bytes: Buffer.byteLength(json) });
        this.see(task, next.version);
        return next;
      }
      this.see(task, Number(answer));
    }
    throw new SteplensError('unavailable', `task ${task}: ${MAX_GROW_ATTEMPTS} concurrent growths in a row; try again`);
  }

  async list(): Promise<StoredTaskStats[]> {
    const unreachable = (error: unknown): boolean => error instanceof SteplensError && error.code === 'unavailable';
    return taskStats(
      await this.tasks(),
      (task) => this.get(task),
      (m) => this.options.warn?.(m),
      unreachable,
    );
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.locks.values()]);
  }

  /** Flushes; the link (shared with the session journal) is closed by its owner. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  available(): boolean {
    return this.link.available() && this.seedDone;
  }

  cacheStats(): CacheStats {
    return { ...this.counters, entries: this.cache.size, bytes: this.cache.calculatedSize };
  }
}

/**
 * The reference store in Redis, shared by every replica: per task a chain of
 * versions (one list: the whole PTA of its first version, then the states each
 * later version added) and a hash of current versions. Growth is chain-growth.ts
 * (compare-and-set, a new chain's JSON sent in pieces) settled by
 * unanswered.ts when Redis leaves it unanswered; reading a version is
 * pta-chains.ts. Each replica caches PTAs by version (a version never changes):
 * a lookup reads the task's current version and its chain's start in one
 * round trip (so a replica never scores against a version another one has
 * replaced, nor misses one a rollover just replaced) and takes the PTA from
 * the cache when it holds that version, or waits for this replica's own
 * growth writing it, else builds it from a cached earlier version of the chain
 * and the states added since (only those are read), else from the whole chain.
 * Growth is also published, so replicas keep the pooled prior current without
 * re-reading every version (after their subscriber reconnects, they re-read
 * them all: messages sent meanwhile are lost). Redis emptied (FLUSHALL, a
 * restart without persistence) loses its epoch (a random id set once the
 * seeds are imported), read in the same round trip as each lookup: the first
 * replica to find it missing imports the seeds again, which sets a new one,
 * and versions count again from there; the cache is keyed by epoch, so no
 * version of before answers for one of after. After the command connection
 * comes back, the cache is dropped too and the seeds are imported again.
 * A removal (chain-removal.ts) takes the task out of the versions hash, so no
 * lookup on any replica finds it; the task's next PTA is numbered past the
 * removed version, so no cached version is ever taken for a new one.
 */
import type { Redis } from 'ioredis';
import type { PtaLimits } from '../../core/pta/index.js';
import type { Pta, Reference, TemporalPrior } from '../../core/scorer-api.js';
import type { State } from '../../core/types.js';
import { SteplensError } from '../../errors.js';
import type { CacheStats, Contribution, ReferenceStorePort, RemovedPta, StoredTaskStats } from '../store-port.js';
import { taskStats } from '../task-stats.js';
import { PooledPrior } from './pooled-prior.js';
import { ChainGrowth, type GrowthOptions } from './chain-growth.js';
import { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';
import type { Located } from './pta-chains.js';
import { importSeeds } from './seeds.js';
import { KnownVersions } from './known-versions.js';
import { VersionCache } from './version-cache.js';
import { VersionSizes } from './version-sizes.js';
import { buildTaskIndex } from './task-index.js';
import { isOwnKey, ownerOfKey } from '../tenant-keys.js';

/** Reads of a lookup at most, when chain rollovers keep landing between its two reads. */
const MAX_LOOKUPS = 5;

export interface RedisReferenceStoreOptions extends GrowthOptions {
  link: RedisLink;
  /** Read-only directories of `<task>.json` PTAs imported for tasks Redis does not hold yet (first wins). */
  seedDirs?: string[];
  /** Cache bound: PTA versions held in memory (default 256). */
  maxEntries?: number;
  /** Cache bound: JSON bytes of PTAs held in memory (default 256 MiB). */
  maxBytes?: number;
  minReferences?: number;
  warn?: (message: string) => void;
}

export class RedisReferenceStore implements ReferenceStorePort {
  readonly kind = 'redis' as const;
  readonly minReferences: number;
  readonly limits: PtaLimits;
  private readonly link: RedisLink;
  private readonly keys: RedisKeys;
  private readonly cache: VersionCache;
  private readonly sizesByVersion = new VersionSizes({
    versions: async (tasks) => (await this.read('version', (r) => Promise.all([r.get(this.keys.epoch), r.hmget(this.keys.tasks, ...tasks)])))[0] as Array<string | null>,
    pta: async (task, version) => (await this.versionAt(task, version)) ?? (await this.get(task)),
    key: (task, version) => this.cacheKey(task, version),
  });
  /** The epoch the cache, versions and pooled prior below belong to (undefined: not read yet, or Redis was emptied). */
  private epoch: string | undefined;
  /** Versions per task, as last seen (authoritative only while `synced`). */
  private readonly known = new KnownVersions();
  private synced = false;
  private readonly pooled: PooledPrior;
  private readonly growth: ChainGrowth;
  private readonly options: RedisReferenceStoreOptions;
  private seeded: Promise<void> | undefined;
  private seedDone = false;
  private connections = 0;
  private closed = false;

  private constructor(options: RedisReferenceStoreOptions) {
    this.options = options;
    this.pooled = new PooledPrior(options.warn);
    this.link = options.link;
    this.keys = new RedisKeys(options.link.prefix);
    this.minReferences = options.minReferences ?? 2;
    this.growth = new ChainGrowth(
      {
        link: this.link,
        keys: this.keys,
        lookup: (task) => this.lookup(task),
        ptaAt: (task, version, chain) => this.versionAt(task, version, chain),
        cacheKey: (task, version) => this.cacheKey(task, version),
        cached: (key) => this.cache.peek(key),
        stored: (task, key, entry) => {
          this.cache.set(key, entry);
          this.known.see(task, entry.pta.version);
        },
        see: (task, version) => this.known.see(task, version),
        // The task's own field (a shared task's; an own PTA's written by an older server) and its tenant's.
        removedAt: async (task) => Math.max(0, ...(await this.link.run('version', (r) => r.hmget(this.keys.removed, task, this.keys.removedField(task)))).map(Number)),
        removed: (task, version) => this.known.removed(task, version),
      },
      options,
    );
    this.limits = this.growth.limits;
    this.cache = new VersionCache({ link: this.link, keys: this.keys, written: (key) => this.growth.written(key), maxEntries: options.maxEntries, maxBytes: options.maxBytes });
  }

  /**
   * Subscribes to growth and, once Redis answers, imports the seeds. Does not
   * wait for Redis: `available()` (readiness) is false until it is reachable.
   */
  static async open(options: RedisReferenceStoreOptions): Promise<RedisReferenceStore> {
    const store = new RedisReferenceStore(options);
    const sub = options.link.subscriber();
    sub.on('message', (channel: string, message: string) => {
      if (channel === store.keys.grown) store.known.heard(message);
    });
    // (Re)subscribe on each connection, then re-read: what was published while disconnected is lost. The
    // subscriber may be up before the command connection (two sockets, either first): then the command
    // connection's 'ready' re-reads (onConnected), and a read now would only fail and warn.
    const subscribe = (): Promise<void> =>
      sub.subscribe(store.keys.grown).then(
        () => (options.link.available() ? store.resync() : undefined),
        () => undefined,
      );
    sub.on('ready', () => void subscribe());
    sub.on('close', () => {
      store.synced = false;
    });
    options.link.client.on('ready', () => store.onConnected());
    if (sub.status === 'ready') await subscribe();
    if (await options.link.whenReady(2000)) await store.seed().catch(() => undefined);
    return store;
  }

  /**
   * Each (re)connection: after the first, Redis may have restarted without its data (no persistence): the
   * cached versions may no longer be Redis' versions (a re-seeded task counts again from its seed), so the
   * cache and the pooled prior are dropped, and the seeds are imported again for tasks Redis lost.
   */
  private onConnected(): void {
    if (this.connections++ > 0) {
      this.forget(undefined);
      this.seeded = undefined;
    }
    void this.seed().catch(() => undefined);
  }

  /** Drops what this replica holds of Redis' versions (cache, known versions, pooled prior): it is `epoch`'s now. */
  private forget(epoch: string | undefined): void {
    this.epoch = epoch;
    this.cache.clear();
    this.sizesByVersion.clear();
    this.known.clear();
    this.synced = false;
    this.pooled.clear();
  }

  /**
   * Runs `fetch`, whose first reply is the epoch, and answers the others. Another epoch than ours: what we hold
   * is dropped. None (Redis was emptied): the seeds are imported again (the first replica to notice sets a new
   * epoch; the others take it) and the read is run once more.
   */
  private async read(op: string, fetch: (r: Redis) => Promise<unknown[]>): Promise<unknown[]> {
    for (let first = true; ; first = false) {
      const [epoch, ...replies] = await this.link.run(op, fetch);
      if (epoch === null && first) {
        if (this.epoch !== undefined) {
          this.forget(undefined);
          this.seeded = undefined;
        }
        await this.seed();
        continue;
      }
      if (typeof epoch === 'string' && epoch !== this.epoch) this.forget(epoch);
      return replies;
    }
  }

  /** A version's cache key in the epoch last read. */
  private cacheKey(task: string, version: number): string {
    return VersionCache.key(task, version, this.epoch);
  }

  private async resync(): Promise<void> {
    this.synced = false;
    const epoch = this.epoch;
    try {
      this.known.startReread();
      const all = await this.sharedVersions();
      if (this.epoch !== epoch) return; // Redis was emptied meanwhile: these are the old versions
      this.known.reread(all);
      this.synced = this.link.subscriber().status === 'ready';
    } catch (error) {
      this.options.warn?.(`redis: re-reading task versions failed: ${(error as Error).message}`);
    }
  }

  /** Imports the seed PTAs (tasks Redis already holds are left alone); retried every second until it succeeds. */
  seed(): Promise<void> {
    this.seeded ??= this.importSeeds().catch((error: unknown) => {
      this.seeded = undefined;
      if (!this.closed) setTimeout(() => void this.seed().catch(() => undefined), 1000).unref();
      throw error;
    });
    return this.seeded;
  }

  private async importSeeds(): Promise<void> {
    const epoch = await importSeeds(this.link, this.keys, this.options.seedDirs ?? [], this.options);
    if (epoch !== this.epoch) this.forget(epoch);
    // Indexed first: the re-read then takes the shared tasks' versions only.
    await buildTaskIndex(this.link, this.keys);
    await this.resync();
    this.seedDone = true;
  }

  /**
   * The task's current version and the start of the chain holding it, read with the epoch in one round trip,
   * the version first: a rollover landing between the two reads shows as a chain starting past the version
   * (which is in the replaced chain, its start unknown: "no PTA"), and they are read again. Not a MULTI nor a
   * script: Redis out of memory refuses a MULTI's reads too, and CLIENT PAUSE WRITE holds scripts.
   */
  private async lookup(task: string): Promise<Located | undefined> {
    for (let attempt = 1; ; attempt++) {
      const [v, c] = await this.read('version', (r) => Promise.all([r.get(this.keys.epoch), r.hget(this.keys.tasks, task), r.hget(this.keys.chains, task)]));
      if (typeof v !== 'string') return undefined;
      const version = Number(v);
      const start = typeof c === 'string' ? Number(c) : undefined;
      if (start !== undefined && start > version && attempt < MAX_LOOKUPS) continue;
      this.known.see(task, version);
      // No chain (or still past it): the version's own key, as before chains.
      return { version, ...(start !== undefined && start <= version ? { chain: start } : {}) };
    }
  }

  async tasks(): Promise<string[]> {
    const [tasks] = await this.read('tasks', (r) => Promise.all([r.get(this.keys.epoch), r.hkeys(this.keys.tasks)]));
    return (tasks as string[]).sort();
  }

  /** The shared tasks from their index set (task-index.ts), or from the whole tasks hash until it is built. */
  sharedTasks(): Promise<string[]> {
    return this.indexed(this.keys.sharedTasks, (k) => !isOwnKey(k));
  }

  /** `tenant`'s own PTAs' keys from its index set, or from the whole tasks hash until it is built. */
  ownTasks(tenant: string): Promise<string[]> {
    return this.indexed(this.keys.ownTasks(tenant), (k) => ownerOfKey(k)?.tenant === tenant);
  }

  private async indexed(set: string, keep: (key: string) => boolean): Promise<string[]> {
    const [built, members] = await this.read('tasks', (r) => Promise.all([r.get(this.keys.epoch), r.exists(this.keys.indexed), r.smembers(set)]));
    if (built === 1) return (members as string[]).sort();
    return (await this.tasks()).filter(keep);
  }

  /** Every task's current version: from what was published while subscribed, else read. */
  private async versions(): Promise<Map<string, number>> {
    if (!this.synced) await this.resync();
    if (!this.synced) return new Map(Object.entries(await this.sharedVersions()).map(([task, v]) => [task, Number(v)]));
    return this.known.current;
  }

  /**
   * Every shared task's version: from the shared tasks' index set once built (task-index.ts), else the whole tasks
   * hash. Not every tenant's own PTAs: at 50,000 of them `HGETALL` took 1.0-1.3 s and held the event loop 0.8-0.9 s
   * parsing the reply, on each replica starting and each time its subscriber reconnected (T83).
   */
  private async sharedVersions(): Promise<Record<string, string>> {
    const [built, shared] = await this.link.run('tasks', (r) => Promise.all([r.exists(this.keys.indexed), r.smembers(this.keys.sharedTasks)]));
    if (built !== 1) return this.link.run('tasks', (r) => r.hgetall(this.keys.tasks));
    if (shared.length === 0) return {};
    const versions = await this.link.run('tasks', (r) => r.hmget(this.keys.tasks, ...shared));
    // A task removed between the two reads has none: gone.
    return Object.fromEntries(shared.flatMap((task, i) => (versions[i] == null ? [] : [[task, versions[i]]])));
  }

  async has(task: string): Promise<boolean> {
    return (await this.lookup(task)) !== undefined;
  }

  async version(task: string): Promise<number | undefined> {
    return (await this.lookup(task))?.version;
  }

  async get(task: string): Promise<Pta | undefined> {
    const at = await this.lookup(task);
    return at === undefined ? undefined : this.versionAt(task, at.version, at.chain);
  }

  /** The chain a PTA this store handed out belongs to (what a session pins besides its version). */
  chainStart(pta: Pta): number | undefined {
    return this.cache.chainStart(pta);
  }

  /**
   * One version of a task's PTA (the current one or one kept after growth: a session's pin); undefined once
   * gone. `chain`: the version's chain start when known, else the current chain's. The epoch is read first:
   * a version cached before Redis was emptied is not the version of that number now.
   */
  async ptaAt(task: string, version: number, chain?: number): Promise<Pta | undefined> {
    await this.read('epoch', (r) => Promise.all([r.get(this.keys.epoch)]));
    return this.versionAt(task, version, chain);
  }

  /** {@link ptaAt} in the epoch last read (version-cache.ts). */
  private versionAt(task: string, version: number, chain?: number): Promise<Pta | undefined> {
    return this.cache.at(task, version, chain, this.epoch);
  }

  async reference(task: string): Promise<Reference> {
    const pta = await this.get(task);
    if (pta && pta.references.length >= this.minReferences) return { kind: 'pta', pta };
    return { kind: 'prior', prior: await this.pooledPrior() };
  }

  /** The prior over every shared task's current version (only tasks that changed since the last call are read; tenants' own PTAs never). */
  async prior(): Promise<TemporalPrior> {
    await this.read('epoch', (r) => Promise.all([r.get(this.keys.epoch)]));
    return this.pooledPrior();
  }

  /** {@link prior} in the epoch last read. Missed at its version: replaced since `versions` was read (its chain rolled over); then the current one. */
  private async pooledPrior(): Promise<TemporalPrior> {
    return this.pooled.update(await this.versions(), async (task, version) => (await this.versionAt(task, version)) ?? (await this.get(task)));
  }

  /** Compare-and-set growth (chain-growth.ts). */
  addReference(task: string, states: readonly State[], contribution?: Contribution): Promise<Pta> {
    return this.growth.add(task, states, contribution);
  }

  /** Compare-and-set removal (chain-removal.ts). */
  remove(task: string): Promise<RemovedPta | undefined> {
    return this.growth.remove(task);
  }

  /** Each current PTA's JSON bytes (version-sizes.ts: versions read together, each version measured once). */
  sizes(tasks: readonly string[]): Promise<number[]> {
    return this.sizesByVersion.sizes(tasks);
  }

  async list(tasks?: readonly string[]): Promise<StoredTaskStats[]> {
    const unreachable = (error: unknown): boolean => error instanceof SteplensError && error.code === 'unavailable';
    return taskStats(
      tasks ?? (await this.tasks()),
      (task) => this.get(task),
      (m) => this.options.warn?.(m),
      unreachable,
    );
  }

  flush(): Promise<void> {
    return this.growth.flush();
  }

  /** Flushes; the link (shared with the session journal) is closed by its owner. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  available(): boolean {
    return this.link.available() && this.seedDone;
  }

  async health(deadlineMs: number): Promise<string | undefined> {
    const link = await this.link.health(deadlineMs);
    if (link !== undefined) return link;
    return this.seedDone ? undefined : `Redis at ${this.link.endpoint}: the seed references are not imported yet`;
  }

  cacheStats(): CacheStats {
    return this.cache.stats();
  }
}

/**
 * The reference store in Redis, shared by every replica: per task a chain of
 * versions (one list: the whole PTA of its first version, then the states each
 * later version added) and a hash of current versions. Growth is a
 * compare-and-set script (the new version is written only if the task is
 * still at the version it was built from; otherwise it is rebuilt from the
 * newer one and tried again), so replicas learning the same task at once lose
 * no reference. A growth stores only the reference's states, until they
 * outweigh the chain's PTA: then the next version starts a new chain and the
 * replaced one is kept for `keepVersionsMs`, so sessions scored against its
 * versions can still be rebuilt on another replica. Each replica caches PTAs
 * by version (a version never changes): a lookup reads the task's current
 * version (one HGET, so a replica never scores against a version another one
 * has replaced) and takes the PTA from the cache when it holds that version,
 * else builds it from a cached earlier version of the chain and the states
 * added since (only those are read), else from the whole chain. Growth is
 * also published, so replicas keep the pooled prior current without
 * re-reading every version (after their subscriber reconnects, they re-read
 * them all: messages sent meanwhile are lost). After the command connection
 * comes back, the cache is dropped and the seeds are imported again for tasks
 * Redis lost (a restart without persistence).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { DEFAULT_PTA_LIMITS, growWithinSteps, knownPtaJsonBytes, statesFromJson, type PtaLimits } from '../../core/pta/index.js';
import type { Pta, Reference, TemporalPrior } from '../../core/scorer-api.js';
import type { State } from '../../core/types.js';
import { SteplensError } from '../../errors.js';
import { PriorPool } from '../prior-pool.js';
import { measurePtaInSlices, ptaJsonInSlices, runInSteps } from '../pta-text.js';
import type { CacheStats, Contribution, ReferenceStorePort, StoredTaskStats } from '../store-port.js';
import { taskStats } from '../task-stats.js';
import { RedisKeys } from './keys.js';
import { RedisLink } from './link.js';
import { readChain, readVersionKey, type Entry } from './pta-chains.js';
import { GROW_CHAIN, GROW_DELTA } from './scripts.js';
import { readSeedPtas } from './seeds.js';

export interface RedisReferenceStoreOptions {
  link: RedisLink;
  /** Read-only directories of `<task>.json` PTAs imported for tasks Redis does not hold yet (first wins). */
  seedDirs?: string[];
  /** A replaced chain of PTA versions stays readable this long (default 35 min: a session's lifetime). */
  keepVersionsMs?: number;
  /** Versions one chain holds at most before the next starts a new chain (default 256). */
  maxChainVersions?: number;
  /** Cache bound: PTA versions held in memory (default 256). */
  maxEntries?: number;
  /** Cache bound: JSON bytes of PTAs held in memory (default 256 MiB). */
  maxBytes?: number;
  minReferences?: number;
  /** Caps of one task's PTA: a reference that would pass one is refused with `too_large` (default {@link DEFAULT_PTA_LIMITS}). */
  limits?: PtaLimits;
  warn?: (message: string) => void;
}

const MAX_GROW_ATTEMPTS = 50;
/** A growth left unanswered waits at most this many command timeouts for Redis to answer again. */
const SETTLE_TIMEOUTS = 3;
/** How long a growth's record (`gid:<id>`: the version it wrote) stays, far past the wait above. */
const GROWTH_RECORD_MS = 10 * 60_000;
/** A chain's added states may weigh as much as its PTA, and at least this much, before a new chain starts. */
const MIN_CHAIN_DELTA_BYTES = 1024 * 1024;
export class RedisReferenceStore implements ReferenceStorePort {
  readonly kind = 'redis' as const;
  readonly minReferences: number;
  readonly limits: PtaLimits;
  private readonly link: RedisLink;
  private readonly keys: RedisKeys;
  private readonly cache: LRUCache<string, Entry>;
  /** The chain of every PTA object this store handed out (sessions pin it, so their rebuild finds the version). */
  private readonly chainOf = new WeakMap<Pta, number>();
  /** Current version per task, as last seen (authoritative only while `synced`). */
  private readonly current = new Map<string, number>();
  private synced = false;
  private pool = new PriorPool();
  private readonly pooled = new Map<string, number>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly options: RedisReferenceStoreOptions;
  private seeded: Promise<void> | undefined;
  private seedDone = false;
  private connections = 0;
  private closed = false;
  private counters = { hits: 0, misses: 0 };

  private constructor(options: RedisReferenceStoreOptions) {
    this.options = options;
    this.link = options.link;
    this.keys = new RedisKeys(options.link.prefix);
    this.minReferences = options.minReferences ?? 2;
    this.limits = options.limits ?? DEFAULT_PTA_LIMITS;
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
      this.cache.clear();
      this.pool = new PriorPool();
      this.pooled.clear();
      this.seeded = undefined;
    }
    void this.seed().catch(() => undefined);
  }

  private onGrown(message: string): void {
    const at = message.indexOf(':');
    const version = Number(message.slice(0, at));
    const task = message.slice(at + 1);
    if (at > 0 && Number.isInteger(version)) this.see(task, version);
  }

  /** Records a task's version (never going back: messages may arrive after our own write). The replaced version stays cached: the next one is built from it. */
  private see(task: string, version: number): void {
    const known = this.current.get(task) ?? 0;
    if (known < version) this.current.set(task, version);
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
    for (const pta of await readSeedPtas(this.options.seedDirs ?? [], this.options.warn)) {
      const json = await ptaJsonInSlices(pta);
      const chain = this.keys.chain(pta.task, pta.version);
      const record = this.keys.growth(randomUUID());
      await this.link.run('seed', (r) => GROW_CHAIN.run(r, [this.keys.tasks, this.keys.chains, chain, chain, record], [pta.task, 0, pta.version, json, 0, this.keys.grown, GROWTH_RECORD_MS]));
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

  /** The chain a PTA this store handed out belongs to (what a session pins besides its version). */
  chainStart(pta: Pta): number | undefined {
    return this.chainOf.get(pta);
  }

  /**
   * One version of a task's PTA (the current one or one kept after growth); undefined once gone.
   * `chain`: the version's chain start when known (a session's pin), else the current chain's.
   */
  async ptaAt(task: string, version: number, chain?: number): Promise<Pta | undefined> {
    const key = this.keys.pta(task, version);
    const cached = this.cache.get(key);
    if (cached) {
      this.counters.hits++;
      return cached.pta;
    }
    this.counters.misses++;
    const start = chain ?? (await this.currentChain(task, version));
    const entry = start === undefined ? await readVersionKey(this.link, this.keys, task, version) : await readChain(this.link, this.keys, (k) => this.cache.peek(k), task, start, version);
    if (entry === undefined) return undefined;
    this.cache.set(key, entry);
    if (entry.chain) this.chainOf.set(entry.pta, entry.chain.start);
    return entry.pta;
  }

  /** The start of the task's current chain when it holds `version`. */
  private async currentChain(task: string, version: number): Promise<number | undefined> {
    const raw = await this.link.run('chain', (r) => r.hget(this.keys.chains, task));
    const start = raw === null ? undefined : Number(raw);
    return start !== undefined && start <= version ? start : undefined;
  }

  async reference(task: string): Promise<Reference> {
    const pta = await this.get(task);
    if (pta && pta.references.length >= this.minReferences) return { kind: 'pta', pta };
    return { kind: 'prior', prior: await this.prior() };
  }

  /** The prior over every task's current version (only tasks that changed since the last call are read). */
  async prior(): Promise<TemporalPrior> {
    const versions = await this.versions();
    for (const [task, version] of versions) {
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
    // Tasks Redis no longer holds (lost in a restart without persistence) leave the prior too.
    for (const task of [...this.pooled.keys()]) {
      if (versions.has(task)) continue;
      this.pooled.delete(task);
      this.pool.delete(task);
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

  private async grow(task: string, input: readonly State[], contribution: Contribution | undefined): Promise<Pta> {
    // The states as every replica will read them back (JSON), so each builds the very same version.
    const delta = JSON.stringify(input);
    const read = statesFromJson(delta);
    if (!read.ok) throw new SteplensError('bad_input', `task ${task}: the reference cannot be stored: ${read.error}`);
    const states = read.value;
    const deltaBytes = Buffer.byteLength(delta);
    let newChain = false;
    for (let attempt = 0; attempt < MAX_GROW_ATTEMPTS; attempt++) {
      const raw = await this.link.run('version', (r) => r.hget(this.keys.tasks, task));
      const version = raw === null ? 0 : Number(raw);
      const current = version === 0 ? undefined : await this.ptaAt(task, version);
      if (version !== 0 && current === undefined) continue; // replaced between the two reads
      contribution?.check?.(current, states);
      if (current !== undefined) await measurePtaInSlices(current);
      const grown = await runInSteps(growWithinSteps(task, current, states, this.limits, contribution?.by));
      if (!grown.ok) throw new SteplensError('too_large', grown.error);
      const next = grown.value;
      const chain = version === 0 ? undefined : this.cache.peek(this.keys.pta(task, version))?.chain;
      const asDelta =
        !newChain && chain !== undefined && next.version - chain.start < (this.options.maxChainVersions ?? 256) && chain.deltaBytes + deltaBytes <= Math.max(chain.ptaBytes, MIN_CHAIN_DELTA_BYTES);
      let entry: Entry;
      let answer: unknown;
      if (asDelta) {
        const list = this.keys.chain(task, chain.start);
        answer = await this.runGrowth(task, version, (r, record) =>
          GROW_DELTA.run(r, [this.keys.tasks, this.keys.chains, list, record], [task, version, next.version, delta, chain.start, this.keys.grown, GROWTH_RECORD_MS]),
        );
        entry = { pta: next, bytes: knownPtaJsonBytes(next) ?? chain.ptaBytes + chain.deltaBytes + deltaBytes, chain: { ...chain, deltaBytes: chain.deltaBytes + deltaBytes } };
      } else {
        const json = await ptaJsonInSlices(next);
        const list = this.keys.chain(task, next.version);
        const replaced = chain !== undefined ? this.keys.chain(task, chain.start) : version === 0 ? list : this.keys.pta(task, version);
        const keep = this.options.keepVersionsMs ?? 35 * 60_000;
        answer = await this.runGrowth(task, version, (r, record) =>
          GROW_CHAIN.run(r, [this.keys.tasks, this.keys.chains, list, replaced, record], [task, version, next.version, json, keep, this.keys.grown, GROWTH_RECORD_MS]),
        );
        entry = { pta: next, bytes: Buffer.byteLength(json), chain: { start: next.version, ptaBytes: Buffer.byteLength(json), deltaBytes: 0 } };
      }
      if (answer === 'ok') {
        this.cache.set(this.keys.pta(task, next.version), entry);
        this.chainOf.set(next, entry.chain!.start); // set in both branches above
        this.see(task, next.version);
        return next;
      }
      if (answer === 'broken') newChain = true;
      else this.see(task, Number(answer));
    }
    throw new SteplensError('unavailable', `task ${task}: ${MAX_GROW_ATTEMPTS} concurrent growths in a row; try again`);
  }

  /**
   * Runs one growth script under a fresh growth id. When it goes unanswered (timed out: Redis may still run
   * it; or the connection dropped), `unavailable` would be a lie if Redis applied it, so this waits (a few
   * command timeouts at most) until Redis answers again and reads the growth's record: there, the growth
   * was applied ('ok'); absent, it was not (Redis answers a client's commands in order, so the script has
   * run or never will): the task's version, as a compare-and-set miss answers, or `unavailable` saying
   * nothing was stored when the version did not move. No answer in time: `unavailable` saying it is unknown.
   */
  private async runGrowth(task: string, from: number, script: (r: Redis, record: string) => Promise<unknown>): Promise<unknown> {
    const record = this.keys.growth(randomUUID());
    try {
      return await this.link.run('grow', (r) => script(r, record));
    } catch (error) {
      if (!RedisLink.unanswered(error)) throw error;
      const unanswered = (error as Error).message;
      const waitMs = SETTLE_TIMEOUTS * this.link.commandTimeoutMs;
      const deadline = Date.now() + waitMs;
      for (;;) {
        const seen = await this.growthSeen(task, record);
        if (seen?.wrote) return 'ok';
        if (seen !== undefined && seen.version !== from) return String(seen.version);
        if (seen !== undefined) throw new SteplensError('unavailable', `task ${task}: nothing was stored: ${unanswered}`, { cause: error });
        if (Date.now() >= deadline)
          throw new SteplensError(
            'unavailable',
            `task ${task}: it is not known whether the reference was stored: ${unanswered}, and Redis did not answer within ${waitMs} ms since: read the task's version before sending it again`,
            { cause: error },
          );
        await this.link.whenReady(deadline - Date.now());
        await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(0, deadline - Date.now()))));
      }
    }
  }

  /** Whether a growth's record is in Redis, and the task's version; undefined while Redis does not answer. */
  private async growthSeen(task: string, record: string): Promise<{ wrote: boolean; version: number } | undefined> {
    try {
      const wrote = (await this.link.run('grow_check', (r) => r.get(record))) !== null;
      const version = Number((await this.link.run('version', (r) => r.hget(this.keys.tasks, task))) ?? 0);
      return { wrote, version };
    } catch (error) {
      if (error instanceof SteplensError && error.code === 'unavailable') return undefined;
      throw error;
    }
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

  async health(deadlineMs: number): Promise<string | undefined> {
    const link = await this.link.health(deadlineMs);
    if (link !== undefined) return link;
    return this.seedDone ? undefined : `Redis at ${this.link.endpoint}: the seed references are not imported yet`;
  }

  cacheStats(): CacheStats {
    return { ...this.counters, entries: this.cache.size, bytes: this.cache.calculatedSize };
  }
}

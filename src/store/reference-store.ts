/**
 * The reference store: task PTAs in an LRU cache (bounded by entries and
 * bytes) over an on-disk directory, one `<task>.json` (the PTA's JSON) per
 * task, written atomically, loaded lazily. Read-only seed directories supply
 * PTAs for tasks the data directory does not have; writes always go to the
 * data directory. The prior pooled from every stored reference is computed on
 * first need and kept up to date as references are added.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { addReference, buildPta, ptaToJson } from '../core/pta/index.js';
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { SteplensError } from '../errors.js';
import { removeStaleTemps, writeFileAtomic } from './atomic-write.js';
import { taskFileName } from './file-names.js';
import { PriorPool } from './prior-pool.js';
import { parseStoredPta, storedTaskFiles } from './stored-pta.js';
import type { CacheStats, ReferenceStorePort, StoredTaskStats } from './store-port.js';
import { taskStats } from './task-stats.js';

export type { StoredTaskStats } from './store-port.js';

export interface ReferenceStoreOptions {
  /** Writable directory of task PTAs (created if missing). */
  dataDir: string;
  /** Read-only directories consulted for tasks absent from `dataDir` (first wins). */
  seedDirs?: string[];
  /** Cache bound: PTAs held in memory (default 256). */
  maxEntries?: number;
  /** Cache bound: total JSON bytes of PTAs held in memory (default 256 MiB). */
  maxBytes?: number;
  /** A PTA is used as a task's reference once it holds this many references (default 2, method.md section 4). */
  minReferences?: number;
  /** Called for problems worth a log line (unreadable files). */
  warn?: (message: string) => void;
}

interface Entry {
  pta: Pta;
  bytes: number;
}

/** See the module comment. Create with {@link ReferenceStore.open}. */
export class ReferenceStore implements ReferenceStorePort {
  readonly kind = 'file' as const;
  readonly dataDir: string;
  readonly minReferences: number;
  private readonly files = new Map<string, string>();
  private readonly cache: LRUCache<string, Entry>;
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly pool = new PriorPool();
  private readonly warn: (message: string) => void;
  private poolReady: Promise<void> | undefined;
  private counters = { hits: 0, misses: 0 };

  private constructor(options: ReferenceStoreOptions) {
    this.dataDir = path.resolve(options.dataDir);
    this.minReferences = options.minReferences ?? 2;
    this.warn = options.warn ?? (() => undefined);
    this.cache = new LRUCache<string, Entry>({
      max: options.maxEntries ?? 256,
      maxSize: options.maxBytes ?? 256 * 1024 * 1024,
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
    });
  }

  /** Opens (and creates) the data directory and indexes it and the seeds; loads no PTA. */
  static async open(options: ReferenceStoreOptions): Promise<ReferenceStore> {
    const store = new ReferenceStore(options);
    await mkdir(store.dataDir, { recursive: true });
    await removeStaleTemps(store.dataDir);
    for (const dir of [...(options.seedDirs ?? [])].reverse()) await store.index(path.resolve(dir), true);
    await store.index(store.dataDir, false);
    return store;
  }

  private async index(dir: string, optional: boolean): Promise<void> {
    let files: Map<string, string>;
    try {
      files = await storedTaskFiles(dir);
    } catch (error) {
      if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return this.warn(`seed directory ${dir} does not exist`);
      throw error;
    }
    for (const [task, file] of files) this.files.set(task, file);
  }

  /** Every task with a stored PTA, sorted. */
  async tasks(): Promise<string[]> {
    return this.taskList();
  }

  private taskList(): string[] {
    return [...this.files.keys()].sort();
  }

  async has(task: string): Promise<boolean> {
    return this.files.has(task);
  }

  async version(task: string): Promise<number | undefined> {
    return (await this.get(task))?.version;
  }

  /** The task's PTA, loaded on first use; undefined when the task has none. Throws on an unreadable file. */
  async get(task: string): Promise<Pta | undefined> {
    const cached = this.cache.get(task);
    if (cached) {
      this.counters.hits++;
      return cached.pta;
    }
    const file = this.files.get(task);
    if (file === undefined) return undefined;
    this.counters.misses++;
    const entry = await this.load(task, file);
    this.cache.set(task, entry);
    return entry.pta;
  }

  private async load(task: string, file: string): Promise<Entry> {
    const text = await readFile(file, 'utf8');
    const parsed = parseStoredPta(text, file, task);
    if (!parsed.ok) throw new SteplensError('internal', parsed.error);
    return { pta: parsed.value, bytes: Buffer.byteLength(text) };
  }

  /**
   * What a session of `task` is scored against: its PTA once it holds
   * `minReferences` references, otherwise the pooled prior.
   */
  async reference(task: string): Promise<Reference> {
    const pta = await this.get(task);
    if (pta && pta.references.length >= this.minReferences) return { kind: 'pta', pta };
    return { kind: 'prior', prior: await this.prior() };
  }

  /** The temporal prior pooled from every stored reference (method.md section 8). */
  async prior(): Promise<TemporalPrior> {
    this.poolReady ??= this.fillPool();
    await this.poolReady;
    return this.pool.prior();
  }

  private async fillPool(): Promise<void> {
    for (const task of this.taskList()) {
      try {
        const pta = this.cache.peek(task)?.pta ?? (await this.load(task, this.files.get(task) as string)).pta;
        this.pool.set(pta);
      } catch (error) {
        this.warn(`prior: skipping task ${task}: ${(error as Error).message}`);
      }
    }
  }

  /**
   * Adds one passing trajectory's states to the task's PTA (building it when
   * the task has none), writes it atomically and returns the new PTA. Calls for
   * one task are serialised, so concurrent additions never lose one another.
   */
  async addReference(task: string, states: readonly State[]): Promise<Pta> {
    const previous = this.locks.get(task) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(async () => {
      const current = await this.get(task);
      const next = current ? addReference(current, states) : buildPta(task, [states]);
      const text = ptaToJson(next);
      const file = path.join(this.dataDir, taskFileName(task));
      await writeFileAtomic(file, text);
      this.files.set(task, file);
      this.cache.set(task, { pta: next, bytes: Buffer.byteLength(text) });
      if (this.poolReady) {
        await this.poolReady;
        this.pool.set(next);
      }
      return next;
    });
    this.locks.set(task, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(task) === run) this.locks.delete(task);
    }
  }

  /** Stats of every stored task (tasks whose file is unreadable are skipped with a warning). */
  async list(): Promise<StoredTaskStats[]> {
    return taskStats(this.taskList(), (task) => this.get(task), this.warn);
  }

  /** Waits for every pending write. Every completed `addReference` is already durable. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.locks.values()]);
  }

  /** Every completed write is durable on disk: closing is flushing. */
  async close(): Promise<void> {
    await this.flush();
  }

  available(): boolean {
    return true;
  }

  /** Cache counters for metrics. */
  cacheStats(): CacheStats {
    return { ...this.counters, entries: this.cache.size, bytes: this.cache.calculatedSize };
  }
}

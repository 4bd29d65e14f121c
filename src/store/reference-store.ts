/**
 * The reference store: task PTAs in an LRU cache (bounded by entries and
 * bytes) over an on-disk directory, one `<task>.json` (the PTA's JSON) per
 * task (file-names.ts), written atomically. Read-only seed directories supply
 * PTAs for tasks the data directory does not have; writes always go to the
 * data directory. Opening checks every file (task-file-check.ts, pta-files.ts): a broken PTA is
 * moved aside with a warning (its task falls back to the prior), a file that
 * is not a PTA is skipped with a warning and left alone. The prior pooled from
 * every stored reference is computed then and kept up to date as references are added.
 * A removed task's file holds a removal marker instead (pta-files.ts): it hides a
 * seed of the task and numbers the task's next PTA past the removed version.
 */
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { InFlight } from '../in-flight.js';
import { DEFAULT_PTA_LIMITS, growWithinSteps, type PtaLimits } from '../core/pta/index.js';
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { SteplensError } from '../errors.js';
import { removeStaleTemps, writeFileAtomic } from './atomic-write.js';
import { createDataFolder, dataFolderHealth } from './data-folder.js';
import { lockDataDir, type DataLock } from './data-lock.js';
import { writeFailure } from './disk-errors.js';
import { PriorPool } from './prior-pool.js';
import { measurePtaInSlices, ptaJsonChunks, runInSteps } from './pta-text.js';
import { removalMarkerJson } from './pta-files.js';
import type { CacheStats, Contribution, ReferenceStorePort, RemovedPta, StoredTaskStats } from './store-port.js';
import { checkTaskFile, type PtaEntry } from './task-file-check.js';
import { TaskFiles } from './task-files.js';
import { taskFilesIn } from './task-folder.js';
import { TaskQueue } from './task-queue.js';
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
  /** Caps of one task's PTA: a reference that would pass one is refused with `too_large` (default {@link DEFAULT_PTA_LIMITS}). */
  limits?: PtaLimits;
  /** How a PTA file is written, in pieces (default: atomically, see atomic-write.ts); returns its bytes. Embedders and tests may wrap it (a full disk). */
  write?: (file: string, text: AsyncIterable<string>) => Promise<number>;
  /** Called for problems worth a log line (files skipped or moved aside; these name the file, errors to clients never do). */
  warn?: (message: string) => void;
}

/** See the module comment. Create with {@link ReferenceStore.open}. */
export class ReferenceStore implements ReferenceStorePort {
  readonly kind = 'file' as const;
  readonly dataDir: string;
  readonly minReferences: number;
  readonly limits: PtaLimits;
  private readonly files: TaskFiles;
  private readonly cache: LRUCache<string, PtaEntry>;
  /** Additions and removals, queued per task (task-queue.ts). */
  private readonly queue = new TaskQueue();
  private readonly pool = new PriorPool();
  private readonly warn: (message: string) => void;
  private readonly write: (file: string, text: AsyncIterable<string>) => Promise<number>;

  private counters = { hits: 0, misses: 0 };
  /** Per task, the read of its PTA file under way (get). */
  private readonly reading = new InFlight<string, Pta | undefined>();
  private lock: DataLock | undefined;

  private constructor(options: ReferenceStoreOptions) {
    this.dataDir = path.resolve(options.dataDir);
    this.files = new TaskFiles(this.dataDir);
    this.minReferences = options.minReferences ?? 2;
    this.limits = options.limits ?? DEFAULT_PTA_LIMITS;
    this.write = options.write ?? writeFileAtomic;
    this.warn = options.warn ?? (() => undefined);
    this.cache = new LRUCache<string, PtaEntry>({
      max: options.maxEntries ?? 256,
      maxSize: options.maxBytes ?? 256 * 1024 * 1024,
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
    });
  }

  /**
   * Opens (and creates) the data directory, indexes it and the seeds, checking every task file: broken
   * PTAs in the data directory are moved aside, other files skipped, each with a warning naming the file.
   */
  static async open(options: ReferenceStoreOptions): Promise<ReferenceStore> {
    const store = new ReferenceStore(options);
    await createDataFolder(store.dataDir);
    store.lock = await lockDataDir(store.dataDir);
    try {
      await removeStaleTemps(store.dataDir);
      for (const dir of [...(options.seedDirs ?? [])].reverse()) await store.index(path.resolve(dir), true);
      await store.index(store.dataDir, false);
    } catch (error) {
      await store.lock.release();
      throw error;
    }
    return store;
  }

  private async index(dir: string, seed: boolean): Promise<void> {
    for await (const { file, entry } of taskFilesIn(dir, seed, this.dataDir, this.warn)) {
      if ('removed' in entry) {
        // A later folder (the data folder after the seeds) wins: its marker hides a seed's PTA of the task.
        this.forget(entry.task);
        this.files.setRemoved(entry.task, file, entry.removed);
        continue;
      }
      this.files.set(entry.pta.task, file, entry.bytes);
      this.pool.set(entry.pta);
    }
  }

  /** Every task with a stored PTA, sorted. */
  async tasks(): Promise<string[]> {
    return this.files.tasks();
  }

  async sharedTasks(): Promise<string[]> {
    return this.files.sharedTasks();
  }

  async ownTasks(tenant: string): Promise<string[]> {
    return this.files.ownTasks(tenant);
  }

  async has(task: string): Promise<boolean> {
    return this.files.has(task);
  }

  async version(task: string): Promise<number | undefined> {
    return (await this.get(task))?.version;
  }

  /**
   * The task's PTA (read again when it left the cache); undefined when the task has none, or when its
   * file has become unusable since opening (then handled as at open: warned, moved aside, forgotten).
   */
  async get(task: string): Promise<Pta | undefined> {
    const cached = this.cache.get(task);
    if (cached) {
      this.counters.hits++;
      return cached.pta;
    }
    if (!this.files.has(task)) return undefined;
    // The sessions that start on a task while its PTA is read share the one read (not one read of the file each).
    return this.reading.run(task, () => this.read(task));
  }

  private async read(task: string): Promise<Pta | undefined> {
    for (;;) {
      const cached = this.cache.get(task);
      if (cached) return cached.pta;
      const file = this.files.file(task);
      if (file === undefined) return undefined;
      this.counters.misses++;
      const writes = this.files.writeCount(task);
      const entry = await checkTaskFile(file, this.dataDir, this.warn, (t) => t === task);
      // Added to or removed meanwhile: what was read may be the version before (caching it would serve it again).
      if (this.files.writeCount(task) !== writes) continue;
      if (entry === undefined || 'removed' in entry) {
        if (this.files.file(task) === file) this.forget(task);
        return undefined;
      }
      this.cache.set(task, entry);
      this.files.read(task, entry.bytes);
      return entry.pta;
    }
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
    return this.pool.prior();
  }

  /**
   * Adds one passing trajectory's states to the task's PTA (building it when
   * the task has none), writes it atomically and returns the new PTA. Calls for
   * one task are serialised, so concurrent additions never lose one another.
   * A reference that would take the PTA past a cap is refused (`too_large`), a
   * write the disk refuses (full, read-only) is `unavailable`: nothing changes then.
   * The merge shares the unchanged nodes with the previous version and the JSON is
   * built in slices, so a large PTA never holds the event loop for long.
   */
  async addReference(task: string, states: readonly State[], contribution?: Contribution): Promise<Pta> {
    return this.queue.run(task, async () => {
      const current = await this.get(task);
      contribution?.check?.(current, states);
      if (current !== undefined) await measurePtaInSlices(current);
      const removed = current === undefined ? this.files.removal(task) : undefined;
      const grown = await runInSteps(growWithinSteps(task, current, states, this.limits, contribution?.by, removed?.version));
      if (!grown.ok) throw new SteplensError('too_large', grown.error);
      const next = grown.value;
      const settle = contribution?.admit?.(await measurePtaInSlices(next), current === undefined ? 0 : await measurePtaInSlices(current));
      // A file the data directory already holds for the task (its removal marker too) is replaced where it is (an older name included).
      const file = this.files.target(task, this.files.file(task) ?? removed?.file);
      let bytes: number;
      try {
        bytes = await this.write(file, ptaJsonChunks(next));
      } catch (error) {
        settle?.(false);
        throw writeFailure(error, `task ${task}: reference not stored`);
      }
      settle?.(true);
      this.files.wrote(task);
      this.files.set(task, file, bytes);
      this.cache.set(task, { pta: next, bytes });
      this.pool.set(next);
      return next;
    });
  }

  /**
   * Removes the task's PTA: its file is replaced by a removal marker (pta-files.ts) in one atomic write, which
   * also hides a seed of the task and keeps the version removed, so the next PTA is numbered past it. Queued
   * behind the task's additions, as they are behind each other. A write the disk refuses is `unavailable`:
   * nothing changes then.
   */
  async remove(task: string): Promise<RemovedPta | undefined> {
    return this.queue.run(task, async () => {
      const current = await this.get(task);
      if (current === undefined) return undefined;
      const bytes = this.files.bytesOf(task) ?? (await measurePtaInSlices(current));
      const file = this.files.target(task, this.files.file(task));
      const marker = removalMarkerJson(task, current.version);
      try {
        await this.write(
          file,
          (async function* () {
            yield marker;
          })(),
        );
      } catch (error) {
        throw writeFailure(error, `task ${task}: PTA not removed`);
      }
      this.forget(task);
      this.files.setRemoved(task, file, current.version);
      return { version: current.version, bytes };
    });
  }

  /** The task has no PTA here any more (removed, or its file became unusable). */
  private forget(task: string): void {
    this.files.forget(task);
    this.cache.delete(task);
    this.pool.delete(task);
  }

  async sizes(tasks: readonly string[]): Promise<number[]> {
    return tasks.map((task) => this.files.bytesOf(task) ?? 0);
  }

  /** Stats of every stored task, or of those of `tasks` it holds (tasks whose file has become unusable are skipped with a warning). */
  async list(tasks?: readonly string[]): Promise<StoredTaskStats[]> {
    return taskStats(tasks ?? this.files.tasks(), (task) => this.get(task), this.warn);
  }

  /** Waits for every pending write. Every completed `addReference` is already durable. */
  async flush(): Promise<void> {
    await this.queue.settled();
  }

  /** Every completed write is durable on disk: closing is flushing, then giving the folder's lock back. */
  async close(): Promise<void> {
    await this.flush();
    await this.lock?.release();
    this.lock = undefined;
  }

  available(): boolean {
    return true;
  }

  /** Not ready while the data folder is (nearly) full: data-folder.ts. */
  health(): Promise<string | undefined> {
    return dataFolderHealth(this.dataDir);
  }

  /** Cache counters for metrics. */
  cacheStats(): CacheStats {
    return { ...this.counters, entries: this.cache.size, bytes: this.cache.calculatedSize };
  }
}

/**
 * A replica's PTAs by version (a version never changes once written): an LRU
 * bounded by entries and JSON bytes, keyed by epoch, version and task, so no
 * version read before Redis was emptied answers after. A miss reads the
 * version once however many sessions ask (`reading`), from a cached earlier
 * version of its chain and the states added since when one is held.
 */
import { LRUCache } from 'lru-cache';
import { InFlight } from '../../in-flight.js';
import type { Pta } from '../../core/scorer-api.js';
import type { CacheStats } from '../store-port.js';
import type { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';
import { readChain, readVersionKey, type Entry } from './pta-chains.js';

export interface VersionCacheDeps {
  link: RedisLink;
  keys: RedisKeys;
  /** This replica's own growth writing the version under `key`, if any: its PTA is the growth's, not a re-read. */
  written: (key: string) => Promise<unknown> | undefined;
  /** Cache bound: PTA versions held (default 256). */
  maxEntries?: number | undefined;
  /** Cache bound: JSON bytes of PTAs held (default 256 MiB). */
  maxBytes?: number | undefined;
}

export class VersionCache {
  private readonly cache: LRUCache<string, Entry>;
  /** The chain of every PTA object handed out (sessions pin it, so their rebuild finds the version). */
  private readonly chainOf = new WeakMap<Pta, number>();
  /** Per cached version (its key), the read of it under way. */
  private readonly reading = new InFlight<string, Pta | undefined>();
  private readonly counters = { hits: 0, misses: 0 };

  constructor(private readonly deps: VersionCacheDeps) {
    this.cache = new LRUCache({
      max: deps.maxEntries ?? 256,
      maxSize: deps.maxBytes ?? 256 * 1024 * 1024,
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
    });
  }

  /** A version's key: its epoch's, so a read begun before Redis was emptied never answers after. */
  static key(task: string, version: number, epoch: string | undefined): string {
    return `${epoch ?? ''}:${version}:${task}`;
  }

  peek(key: string): Entry | undefined {
    return this.cache.peek(key);
  }

  set(key: string, entry: Entry): void {
    this.cache.set(key, entry);
    if (entry.chain) this.chainOf.set(entry.pta, entry.chain.start);
  }

  /** The chain a PTA handed out belongs to. */
  chainStart(pta: Pta): number | undefined {
    return this.chainOf.get(pta);
  }

  clear(): void {
    this.cache.clear();
  }

  stats(): CacheStats {
    return { ...this.counters, entries: this.cache.size, bytes: this.cache.calculatedSize };
  }

  /** One version of a task's PTA in `epoch`; undefined once gone. `chain`: the version's chain start when known, else the current chain's. */
  async at(task: string, version: number, chain: number | undefined, epoch: string | undefined): Promise<Pta | undefined> {
    const key = VersionCache.key(task, version, epoch);
    const cached = this.cache.get(key);
    if (cached) {
      this.counters.hits++;
      return cached.pta;
    }
    const writing = this.deps.written(key);
    if (writing !== undefined) {
      // This replica is writing that version and Redis already holds it: the growth's own PTA, not a re-read.
      await writing;
      const own = this.cache.get(key);
      if (own) {
        this.counters.hits++;
        return own.pta;
      }
    }
    // The sessions that start on a task while this version is read share the one read (not one chain read each).
    return this.reading.run(key, async () => {
      this.counters.misses++;
      const { link, keys } = this.deps;
      const start = chain ?? (await this.currentChain(task, version));
      const entry = start === undefined ? await readVersionKey(link, keys, task, version) : await readChain(link, keys, (u) => this.cache.peek(VersionCache.key(task, u, epoch)), task, start, version);
      if (entry === undefined) return undefined;
      this.set(key, entry);
      return entry.pta;
    });
  }

  /** The start of the task's current chain when it holds `version`. */
  private async currentChain(task: string, version: number): Promise<number | undefined> {
    const raw = await this.deps.link.run('chain', (r) => r.hget(this.deps.keys.chains, task));
    const start = raw === null ? undefined : Number(raw);
    return start !== undefined && start <= version ? start : undefined;
  }
}

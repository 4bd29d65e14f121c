/**
 * The JSON bytes of the current PTAs of some tasks, for the own-PTA quota (own-pta-quota.ts), which reads the bytes
 * of every own PTA of a tenant at the first change of each burst. Each was looked up in Redis one at a time and, once
 * out of the 256-entry version cache, read and parsed again: with 400 own PTAs ~160 ms of CPU for each addition the
 * per-task quota then refused (its budget slot given back: at any pace) and each removal (T92). Now their versions
 * are read together, and a version's bytes are measured once and remembered by its version cache key (epoch, task,
 * version: a version never changes, and a task's next PTA after a removal is numbered past it). Bounded: past `max`
 * the least recently used goes.
 */
import { LRUCache } from 'lru-cache';
import type { Pta } from '../../core/scorer-api.js';
import { measurePtaInSlices } from '../pta-text.js';

/** Tasks whose versions are asked in one read (one `HMGET`). */
const SLICE = 1000;

/** What the store gives: its reads, and its version cache's key. */
export interface VersionReader {
  /** The current version of each task (null: none), in order. */
  versions(tasks: readonly string[]): Promise<Array<string | null>>;
  /** The PTA of `task` at `version`, else its current one (replaced meanwhile), else undefined. */
  pta(task: string, version: number): Promise<Pta | undefined>;
  key(task: string, version: number): string;
}

export class VersionSizes {
  private readonly bytes: LRUCache<string, number>;

  constructor(
    private readonly reader: VersionReader,
    max = 65_536,
  ) {
    this.bytes = new LRUCache({ max });
  }

  /** Each task's current PTA's JSON bytes (0: none). */
  async sizes(tasks: readonly string[]): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < tasks.length; i += SLICE) {
      const slice = tasks.slice(i, i + SLICE);
      const versions = await this.reader.versions(slice);
      for (const [j, task] of slice.entries()) out.push(versions[j] == null ? 0 : await this.sizeAt(task, Number(versions[j])));
    }
    return out;
  }

  clear(): void {
    this.bytes.clear();
  }

  private async sizeAt(task: string, version: number): Promise<number> {
    const known = this.bytes.get(this.reader.key(task, version));
    if (known !== undefined) return known;
    const pta = await this.reader.pta(task, version);
    if (pta === undefined) return 0;
    const bytes = await measurePtaInSlices(pta);
    this.bytes.set(this.reader.key(task, pta.version), bytes);
    return bytes;
  }
}

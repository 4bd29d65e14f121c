/**
 * The JSON bytes of PTA versions this replica measured, by version cache key (epoch, task, version: a version never
 * changes, and a task's next PTA after a removal is numbered past it). The own-PTA quota reads the bytes of every
 * own PTA of a tenant at the first change of each burst (own-pta-quota.ts); each was looked up in Redis and, once out
 * of the 256-entry version cache, read and parsed again: with 400 own PTAs ~160 ms of CPU for each addition the
 * per-task quota then refused (its budget slot given back: at any pace) and each removal (T92). Now one `HMGET` of
 * their versions, and only a version not measured yet is read. Bounded: past `max` the least recently used goes.
 */
import { LRUCache } from 'lru-cache';

export class VersionSizes {
  private readonly bytes: LRUCache<string, number>;

  constructor(max = 65_536) {
    this.bytes = new LRUCache({ max });
  }

  get(key: string): number | undefined {
    return this.bytes.get(key);
  }

  set(key: string, bytes: number): void {
    this.bytes.set(key, bytes);
  }

  clear(): void {
    this.bytes.clear();
  }
}

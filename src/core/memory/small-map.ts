/**
 * A string-keyed map for the small maps a session keeps for its whole life (the labeler's file flags and script
 * scans, the retry history's last steps by hash and by file, the workspace's files): keys and values alternate in
 * one array, searched in order, while there are at most {@link SMALL_MAX} entries; past that, a `Map`. The array has
 * room for a sixteenth more plus two entries ({@link nextRoom}) and is changed in place: a copy for every new key or
 * deletion doubled the garbage collector's share of the step path's CPU (2 → 4 % in a profile of session-cost).
 * A `Map` of 10-25 entries costs a table of 16 or 32 slots (3 words a slot and a word every two buckets, ~0.6 or 1.0
 * KB); here 2 words an entry (bench/README.md, "Memory per session, fourteenth pass"). Answers as a `Map` does for
 * `get`, `has`, `set`, `delete` and `size`, entries in insertion order (a key set again keeps its place).
 * Iterating goes over the entries there were when it began (a copy): callers may delete while they iterate, and
 * must not rely on seeing an entry added meanwhile.
 */

import { nextRoom, withRoom } from './small-arrays.js';

/** Entries kept in the array: a lookup compares up to this many keys (~5 ns each) before the map takes over. */
export const SMALL_MAX = 32;

/** No entries yet: one frozen array shared by every empty map (a store of its own costs 32 B). */
const NONE: readonly unknown[] = Object.freeze([]);

export class SmallMap<V> {
  /** Key, value, key, value, ... in insertion order; {@link NONE} when empty or once `big`. */
  private kv: unknown[] = NONE as unknown[];
  /** Slots `kv`'s store has (from {@link withRoom}): a new key past them copies it into a larger one. */
  private room = 0;
  /** The entries once there were more than {@link SMALL_MAX} (it stays, whatever is deleted later). */
  private big: Map<string, V> | undefined;
  /** Where the last key found sits in `kv` (a `set` after a `get` of one key searches once). */
  private hint = 0;

  get size(): number {
    return this.big === undefined ? this.kv.length >> 1 : this.big.size;
  }

  /** The key's place in `kv`, or -1. */
  private find(key: string): number {
    const kv = this.kv;
    if (kv[this.hint] === key) return this.hint;
    for (let i = 0; i < kv.length; i += 2) {
      if (kv[i] === key) {
        this.hint = i;
        return i;
      }
    }
    return -1;
  }

  get(key: string): V | undefined {
    if (this.big !== undefined) return this.big.get(key);
    const i = this.find(key);
    return i < 0 ? undefined : (this.kv[i + 1] as V);
  }

  has(key: string): boolean {
    return this.big === undefined ? this.find(key) >= 0 : this.big.has(key);
  }

  set(key: string, value: V): this {
    if (this.big !== undefined) {
      this.big.set(key, value);
      return this;
    }
    const i = this.find(key);
    if (i >= 0) {
      this.kv[i + 1] = value;
      return this;
    }
    const n = this.kv.length;
    if (n >= 2 * SMALL_MAX) {
      const kv = this.kv;
      const big = new Map<string, V>();
      for (let j = 0; j < n; j += 2) big.set(kv[j] as string, kv[j + 1] as V);
      this.big = big.set(key, value);
      this.kv = NONE as unknown[];
      this.room = 0;
      return this;
    }
    if (n + 2 > this.room) {
      this.room = nextRoom(n + 2) & ~1;
      this.kv = withRoom(this.kv, this.room);
    }
    this.kv.push(key, value);
    this.hint = n;
    return this;
  }

  delete(key: string): boolean {
    if (this.big !== undefined) return this.big.delete(key);
    const i = this.find(key);
    if (i < 0) return false;
    const kv = this.kv;
    const n = kv.length - 2;
    if (n === 0) {
      this.kv = NONE as unknown[];
      this.room = 0;
    } else {
      for (let j = i; j < n; j++) kv[j] = kv[j + 2];
      kv.length = n;
      // V8 trims a store at least twice the length plus 16 on a shorter length: the room is gone then.
      if (2 * n + 16 <= this.room) this.room = n;
    }
    this.hint = 0;
    return true;
  }

  clear(): void {
    this.kv = NONE as unknown[];
    this.room = 0;
    this.big = undefined;
    this.hint = 0;
  }

  /** The first key in insertion order (the least recently added), if any, without a copy of the entries. */
  firstKey(): string | undefined {
    if (this.big !== undefined) return this.big.keys().next().value;
    return this.kv[0] as string | undefined;
  }

  keys(): IterableIterator<string> {
    if (this.big !== undefined) return [...this.big.keys()][Symbol.iterator]();
    const out: string[] = [];
    for (let i = 0; i < this.kv.length; i += 2) out.push(this.kv[i] as string);
    return out[Symbol.iterator]();
  }

  values(): IterableIterator<V> {
    if (this.big !== undefined) return [...this.big.values()][Symbol.iterator]();
    const out: V[] = [];
    for (let i = 1; i < this.kv.length; i += 2) out.push(this.kv[i] as V);
    return out[Symbol.iterator]();
  }

  entries(): IterableIterator<[string, V]> {
    if (this.big !== undefined) return [...this.big.entries()][Symbol.iterator]();
    const out: Array<[string, V]> = [];
    for (let i = 0; i < this.kv.length; i += 2) out.push([this.kv[i] as string, this.kv[i + 1] as V]);
    return out[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}

/**
 * A string-to-number map for per-session histories keyed by content hashes (the variant keys): open addressing
 * over a typed index of entry numbers (one byte a slot while it holds up to 204 keys, two up to 52,428), the keys in one array in insertion order and the values in another (unboxed doubles,
 * or small integers). A `Map` of ~100 entries costs ~1.8 KB of table, plus a 12-byte HeapNumber per value that is
 * not a small integer (the variant keys are 52-bit numbers): the variant keys took 4.0 KB a 100-step session, this
 * 2.6 with their key strings (a heap snapshot of bench/memory's sessions). The arrays are on the heap: a typed
 * array of values was off-heap and cost more in all. Keys are compared as strings, so answers are those of a
 * `Map`; the probe start is a seeded hash, so a client that chooses its actions cannot aim many at one slot.
 */
import { randomBytes } from 'node:crypto';

type Index = Uint8Array | Uint16Array | Uint32Array;

/** Mixed into every probe hash: drawn once per process (it decides where a key sits, never an answer). */
const SEED = randomBytes(4).readUInt32LE(0);

/**
 * FNV-1a from {@link SEED} of 8 characters spread over the key: the keys are MD5 digests in hex, every character
 * of which is uniform, so 32 bits of them place a key as well as all 128 (at a quarter of the reads).
 */
function hashOf(key: string): number {
  let h = SEED ^ 0x811c9dc5;
  const n = key.length;
  const stride = n >>> 3 || 1;
  for (let i = 0; i < n; i += stride) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** An index of `slots` slots that can hold entry numbers up to slots · MAX_LOAD (0 marks an empty slot). */
function newIndex(slots: number): Index {
  return slots <= 256 ? new Uint8Array(slots) : slots <= 65_536 ? new Uint16Array(slots) : new Uint32Array(slots);
}

/**
 * Slots of a new index: 102 keys before the first rehash, so a 100-step session makes one index (a typed array's
 * store is off-heap, slow to allocate: starting at 16 slots and doubling cost ~0.3 µs a step on session-cost).
 */
const FIRST_SLOTS = 128;

/** Keys at most per slot: linear probing stays short at this load with a hash of uniform digits, and 100 keys fit 128 slots. */
const MAX_LOAD = 0.8;

/** A string-to-number map (insertion only, and `clear`); see the module comment. */
export class HashTable {
  private index: Index = newIndex(FIRST_SLOTS);
  private keys: string[] = [];
  private values: number[] = [];

  /** Number of keys. */
  get size(): number {
    return this.keys.length;
  }

  /** The value of `key`, or undefined. */
  get(key: string): number | undefined {
    const slot = this.slotOf(key);
    const e = this.index[slot]!;
    return e === 0 ? undefined : this.values[e - 1];
  }

  /** Sets `key` to `value` and returns its previous value (undefined when new): one probe for both. */
  swap(key: string, value: number): number | undefined {
    const slot = this.slotOf(key);
    const e = this.index[slot]!;
    if (e !== 0) {
      const prev = this.values[e - 1]!;
      this.values[e - 1] = value;
      return prev;
    }
    const n = this.keys.length;
    this.keys.push(key);
    this.values.push(value);
    // At most MAX_LOAD of the slots full: entry numbers fit the index's width (see newIndex), probes stay short.
    if (n + 1 > MAX_LOAD * this.index.length) this.rehash(this.index.length * 2);
    else this.index[slot] = n + 1;
    return undefined;
  }

  /** Sets `key` to `value`. */
  set(key: string, value: number): void {
    this.swap(key, value);
  }

  /** Forgets every key. */
  clear(): void {
    if (this.index.length === FIRST_SLOTS) this.index.fill(0);
    else this.index = newIndex(FIRST_SLOTS);
    this.keys = [];
    this.values = [];
  }

  /** The slot that holds `key`, or the empty slot where it would go (linear probing; there is always an empty slot). */
  private slotOf(key: string): number {
    const { index, keys } = this;
    const mask = index.length - 1;
    let slot = hashOf(key) & mask;
    for (let e = index[slot]!; e !== 0 && keys[e - 1] !== key; e = index[slot]!) slot = (slot + 1) & mask;
    return slot;
  }

  private rehash(slots: number): void {
    const index = newIndex(slots);
    const mask = slots - 1;
    const { keys } = this;
    for (let i = 0; i < keys.length; i++) {
      let slot = hashOf(keys[i]!) & mask;
      while (index[slot] !== 0) slot = (slot + 1) & mask;
      index[slot] = i + 1;
    }
    this.index = index;
  }
}

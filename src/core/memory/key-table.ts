/**
 * A string-to-number table for a session's variant keys (state hashes to 52-bit numbers), its retry history (state
 * hashes to steps, paths to steps) and its labeler's file flags (paths to bits): open addressing with the keys and
 * the values in two arrays of one length, a power of two or one and a half times one (8, 12, 16, 24, ...; see
 * {@link nextSlots}), at most three quarters full (seven eighths up to 64 slots). A `Map` of ~76 such
 * entries (a 100-step session) has capacity 128: 3 words an entry slot and a bucket word every two, ~3.1 KB, plus a
 * HeapNumber for each value past a small integer; here 128 slots of one key pointer and one unboxed double, ~2.1 KB
 * (bench/README.md, "Memory per session, ninth pass"). Keys are compared as strings, so it answers as a `Map`. The
 * probe start is a hash seeded once per process: a client that chooses its actions (and so their hashes) cannot aim
 * them at one slot. The seed decides where a key sits, never an answer.
 */
import { randomBytes } from 'node:crypto';

const SEED = randomBytes(4).readUInt32LE(0);

/** Slots of a new table (grown by {@link nextSlots} when more than three quarters are taken). */
const FIRST_SLOTS = 16;

/**
 * Tables of at most this many slots grow only past seven eighths taken (a probe of so few slots stays in a
 * cache line or two): a retry history or file flags of 25-28 keys keeps 32 slots, a variant table of 49-56 keys 64
 * (bench/README.md, "mem18").
 */
const DENSE_SLOTS = 64;

/**
 * The slots a table of `slots` grows to: 2^k → 1.5 · 2^k → 2^(k+1). Doubling left a table of just past a threshold
 * half empty: a session's variant keys (46-95 at 100 steps) took 128 slots from 57 keys on; 96 slots now take 58-72
 * (bench/README.md, "mem20": ~0.4 KB less an active disjoint session over its four tables). A step in 1.5 costs
 * twice the rehashing of doubling, amortised one more insert per insert.
 */
function nextSlots(slots: number): number {
  return (slots & (slots - 1)) === 0 ? slots + Math.max(1, slots >>> 1) : 2 ** (32 - Math.clz32(slots));
}

/** The slot of hash `h` (32 bits) in a table of `slots`: its top bits scaled to the table (any size, not only powers of two). */
function slotOf(h: number, slots: number): number {
  return Math.floor((h * slots) / 2 ** 32);
}

/** Whether `count` keys are too many for `slots` slots. */
function full(count: number, slots: number): boolean {
  return slots <= DENSE_SLOTS ? count * 8 > slots * 7 : count * 4 > slots * 3;
}

/**
 * FNV-1a from {@link SEED} over 8 characters spread along the key and its length: the keys are MD5 digests in hex,
 * each character uniform, so those place a key as well as all 32 would.
 */
function sampledHash(key: string): number {
  const n = key.length;
  let h = Math.imul(SEED ^ 0x811c9dc5 ^ n, 0x01000193);
  const stride = n >>> 3 || 1;
  for (let i = 0; i < n; i += stride) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** FNV-1a from {@link SEED} over every character: for keys that are not digests (paths share long prefixes). */
function wholeHash(key: string): number {
  let h = Math.imul(SEED ^ 0x811c9dc5 ^ key.length, 0x01000193);
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * Slots of a session's table of action hashes (its variant keys, its retry history) when the session is expected to
 * reach `expected` states: room for three quarters as many keys (the corpus runs' first 50-72 steps hold 0.85-0.96
 * new hashes a step, 10th to 90th percentile; ws-load's 79-step run 0.72-0.8), so the table skips most of the copies
 * it would outgrow on the way, promoted garbage with many sessions stepping in turn (bench/README.md, "gc27"). Not
 * seven eighths: the memory bench's 100-step sessions held ~0.08 KB more (tables of fewer keys started too large).
 * `first`, the table's usual start, when `expected` is 0 (unknown) or small.
 */
export function hashSlots(expected: number, first = FIRST_SLOTS): number {
  return KeyTable.slotsFor((3 * expected) >> 2, first);
}

/** What a table's keys are: MD5 digests in hex (a sample of their characters places them) or any strings. */
export type KeyKind = 'digest' | 'any';

/** Insertion, update and lookup only (no deletion: none of its users forgets a key); see the module comment. */
export class KeyTable {
  private keys: Array<string | undefined>;
  private values: number[];
  private count = 0;
  /** Keys hashed over every character (`'any'`), not a sample. */
  private readonly whole: boolean;

  constructor(slots = FIRST_SLOTS, kind: KeyKind = 'digest') {
    this.whole = kind === 'any';
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    // NaN: the array holds doubles from the start (no change of its kind when the first 52-bit value comes).
    this.values = new Array<number>(slots).fill(Number.NaN);
  }

  /** Number of keys. */
  get size(): number {
    return this.count;
  }

  /** The value of `key`, or undefined. */
  get(key: string): number | undefined {
    const { keys } = this;
    const n = keys.length;
    let slot = slotOf(this.hashOf(key), n);
    for (let k = keys[slot]; k !== undefined; k = keys[slot]) {
      if (k === key) return this.values[slot];
      if (++slot === n) slot = 0;
    }
    return undefined;
  }

  /** Sets `key` to `value` and returns its previous value (undefined when new): one probe for both. */
  swap(key: string, value: number): number | undefined {
    const { keys } = this;
    const n = keys.length;
    let slot = slotOf(this.hashOf(key), n);
    for (let k = keys[slot]; k !== undefined; k = keys[slot]) {
      if (k === key) {
        const prev = this.values[slot]!;
        this.values[slot] = value;
        return prev;
      }
      if (++slot === n) slot = 0;
    }
    keys[slot] = key;
    this.values[slot] = value;
    if (full(++this.count, keys.length)) this.grow();
    return undefined;
  }

  /** Every key and its value, in slot order. */
  forEach(visit: (key: string, value: number) => void): void {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] !== undefined) visit(this.keys[i]!, this.values[i]!);
  }

  /**
   * The slots a table of `count` keys starts with so that it takes them all without growing: `first` (a table's
   * usual start) or a size it grows to from there.
   */
  static slotsFor(count: number, first = FIRST_SLOTS): number {
    let slots = first;
    while (full(count, slots)) slots = nextSlots(slots);
    return slots;
  }

  private hashOf(key: string): number {
    return this.whole ? wholeHash(key) : sampledHash(key);
  }

  private grow(): void {
    const { keys, values } = this;
    const slots = nextSlots(keys.length);
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.values = new Array<number>(slots).fill(Number.NaN);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === undefined) continue;
      let slot = slotOf(this.hashOf(key), slots);
      while (this.keys[slot] !== undefined) if (++slot === slots) slot = 0;
      this.keys[slot] = key;
      this.values[slot] = values[i]!;
    }
  }
}

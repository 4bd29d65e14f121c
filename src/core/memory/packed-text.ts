/**
 * Text kept long but read rarely (shadow-workspace files), stored deflated
 * once it goes cold: source text shrinks 3-5x. The compressed bytes live in a
 * one-byte (latin1) heap string, nothing off-heap.
 * A small global LRU of recently used texts ({@link HOT_TEXTS}, shared by all
 * sessions) keeps them inflated, so a step that reads a file several times, or
 * the next step on the same file, pays no zlib call; a text leaving it is
 * deflated once. Lossless: short text stays a plain string, and text with
 * lone surrogates (which UTF-8 cannot carry) is never deflated. Deterministic; zlib is computation, not I/O.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type * as Zlib from 'node:zlib';
import { flatten } from './flat-string.js';

/** node:zlib, loaded on the first text deflated or inflated: most CLI runs never do, and loading it costs a start (issue 24). */
let zlibModule: typeof Zlib | undefined;
const zlib = (): typeof Zlib => (zlibModule ??= process.getBuiltinModule('node:zlib'));

/** With compression on, texts shorter than this are kept as plain strings. */
export const PACK_MIN_CHARS = 256;

/** Texts this long or longer are compressed when cold; Infinity = compression off (the default). */
let compressFrom = Number.POSITIVE_INFINITY;

/**
 * Turns compression of cold long texts on or off for the whole process (it never changes
 * what is computed, only memory against CPU: on the server bench about a third less
 * memory per session for about a tenth more CPU per step). Off by default.
 */
export function setTextCompression(on: boolean): void {
  compressFrom = on ? PACK_MIN_CHARS : Number.POSITIVE_INFINITY;
}

/**
 * Bytes of a deflated text's digest (the first of its SHA-256), kept ahead of its deflated bytes in one string: the
 * shared pool compares a new text with a deflated entry by digest instead of inflating the entry (bench/README.md,
 * "Memory per session, twelfth pass": most inflates were those comparisons). 128 bits: a text wrongly taken for
 * another's needs a second preimage of it (2^128 work); a collision of two texts one client chose only mixes up
 * that client's own two texts.
 */
const DIGEST_BYTES = 16;

/** The digest of a text's UTF-8 bytes (see {@link DIGEST_BYTES}). */
function digestOf(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest().subarray(0, DIGEST_BYTES);
}

/** Digest bytes a deflated text of `length` characters carries: only texts the pool may hold ({@link SHARE_MIN_CHARS} on) need one. */
function digestBytes(length: number): number {
  return length >= SHARE_MIN_CHARS ? DIGEST_BYTES : 0;
}

/** Texts kept inflated over all sessions (least recently used are deflated first). */
export const HOT_TEXTS = 64;

const hot = new Set<LazyText>();

/**
 * A long text: inflated while hot, deflated (`z`, latin1 bytes) when cold. With compression off it never cools
 * and is not tracked; it is then only a shareable holder (see {@link sharedText}).
 */
export class LazyText {
  private raw: string | undefined;
  /** Deflated: its digest ({@link digestBytes}) then its deflated bytes, latin1 characters (one flat string). */
  private z: string | undefined;
  /** zlib's level `z` was made at (an idle session's compaction deflates again at its level what a step deflated at 1). */
  private level = 0;
  /** The text's length (known without inflating it). */
  readonly length: number;

  /** `fresh`: the caller guarantees `text` is a flat string of its own (e.g. a join result), so no copy is made. */
  constructor(text: string, fresh = false) {
    this.raw = fresh ? text : flatten(text);
    this.length = text.length;
    if (text.length >= compressFrom) warm(this);
  }

  /** The text (inflates it when cold). */
  text(): string {
    if (this.raw === undefined) {
      const deflated = Buffer.from(this.z!, 'latin1').subarray(digestBytes(this.length));
      this.raw = zlib().inflateRawSync(deflated).toString('utf8');
    }
    if (this.length >= compressFrom) warm(this);
    return this.raw;
  }

  /** The text if it is inflated now, without inflating it or counting as a use (the pool's comparisons). */
  peek(): string | undefined {
    return this.raw;
  }

  /**
   * Whether `text` is this text, without inflating it when the pool may hold it: a deflated text is compared by
   * digest. A text with a lone surrogate is never a deflated one (those are well formed, and its UTF-8 would read
   * U+FFFD for the surrogate).
   */
  equals(text: string): boolean {
    if (this.raw !== undefined) return this.raw === text;
    if (text.length !== this.length || !text.isWellFormed()) return false;
    if (digestBytes(this.length) === 0) return this.text() === text;
    const digest = digestOf(Buffer.from(text, 'utf8'));
    return Buffer.from(this.z!.slice(0, DIGEST_BYTES), 'latin1').equals(digest);
  }

  /**
   * Takes `text`, equal to it ({@link equals}), as its inflated copy (what reading it would give, without zlib);
   * true when it was deflated (the text was read back from the pool instead of by inflating it).
   */
  adopt(text: string, fresh: boolean): boolean {
    if (this.raw !== undefined) return false;
    this.raw = fresh ? text : flatten(text);
    return true;
  }

  /**
   * Leaves the hot set: deflates (once) and drops the inflated copy, unless deflating does not pay. `level`: zlib's
   * (1, the fastest, when a step pushes it out of the hot set; more for an idle session's, see {@link compactText}).
   */
  cool(level = 1): void {
    if (this.z !== undefined && this.level < level) this.text();
    hot.delete(this);
    if ((this.z === undefined || this.level < level) && this.raw !== undefined) {
      // Text with a lone surrogate has no UTF-8 form: it stays inflated (checked here, not when packed: most texts never cool).
      if (!this.raw.isWellFormed()) return;
      const bytes = Buffer.from(this.raw, 'utf8');
      const deflated = zlib().deflateRawSync(bytes, { level });
      const digest = digestBytes(this.length);
      if (digest + deflated.length < this.raw.length) {
        this.z = (digest === 0 ? deflated : Buffer.concat([digestOf(bytes), deflated])).toString('latin1');
        this.level = level;
      }
    }
    if (this.z !== undefined) this.raw = undefined;
  }

  /** Leaves the hot set without deflating (the text was replaced, or its session ended: it will not be read again soon). */
  release(): void {
    hot.delete(this);
  }
}

function warm(t: LazyText): void {
  hot.delete(t);
  hot.add(t);
  if (hot.size > HOT_TEXTS) hot.values().next().value!.cool();
}

/** A text as stored: itself (flat) or a {@link LazyText} (long, maybe shared with other sessions, maybe deflated). */
export type PackedText = string | LazyText;

/** Texts this long or longer are shared between sessions (shorter: the pool's entry would cost more than it saves). */
export const SHARE_MIN_CHARS = 1024;

/**
 * Long texts kept by any session, by {@link sampledTextKey}, held weakly: sessions of one task (the rollouts of a GRPO
 * group, a client that retries) see the same files and write the same scripts, and keep one copy of each such
 * text between them instead of one each. Texts of one key (a rare collision: `sed -i` keeps a file's length, and
 * an edit may miss every sampled character) share a bucket and are told apart by comparing them; a deflated
 * entry of the text's length is compared by digest, not inflated ({@link LazyText.equals}). An entry goes when no
 * session keeps its text any more.
 */
const shared = new Map<number, WeakRef<LazyText> | Array<WeakRef<LazyText>>>();
const sharedGone = new FinalizationRegistry<number>((key) => {
  const entry = shared.get(key);
  if (entry === undefined) return;
  const alive = (Array.isArray(entry) ? entry : [entry]).filter((r) => r.deref() !== undefined);
  if (alive.length === 0) shared.delete(key);
  else shared.set(key, alive.length === 1 ? alive[0]! : alive);
});

/**
 * A key of a text: its length and an FNV-1a hash of 64 characters spread over it and its last 32. Not a digest
 * (texts of one key must be compared), so it costs ~100 characters read instead of hashing the whole text:
 * shadow-workspace files are packed again after every step that changes them, and scope lookups key parse trees.
 */
export function sampledTextKey(text: string): number {
  const n = text.length;
  let h = 0x811c9dc5;
  const stride = Math.max(1, Math.floor(n / 64));
  for (let i = 0; i < n; i += stride) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  for (let i = Math.max(0, n - 32); i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return n * 2 ** 20 + (h >>> 12);
}

/**
 * Texts one pool key holds at most. The sampled characters are public, so a client can send many texts of one
 * key (same length, differences between the samples): a bucket without a bound would cost every pooled text a
 * comparison with each of them. A text that finds its bucket full is kept by its session alone.
 */
export const MAX_BUCKET = 4;

/** The shared copy of `text` (a new one, pooled unless its key's bucket is full). */
function sharedText(text: string, fresh: boolean): LazyText {
  // A small integer (texts of one sampled key keep one pool key): the map's key and the registry's held value are
  // then no HeapNumbers (~32 B a pooled text; a disjoint session pools ~7).
  const key = sampledTextKey(text) % 2 ** 30;
  const entry = shared.get(key);
  const bucket = entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
  for (const ref of bucket) {
    const hit = ref.deref();
    if (hit?.length !== text.length) continue;
    // A deflated entry (a session done with the file for a while) is compared by digest: a hit then spares a copy.
    if (hit.equals(text)) {
      // A use like a read: the text stays inflated while sessions keep packing it (the caller's equal copy, no zlib).
      hit.adopt(text, fresh);
      if (hit.length >= compressFrom) warm(hit);
      return hit;
    }
  }
  const made = new LazyText(text, fresh);
  const alive = bucket.filter((r) => r.deref() !== undefined);
  if (alive.length >= MAX_BUCKET) return made;
  const ref = new WeakRef(made);
  shared.set(key, alive.length === 0 ? ref : [...alive, ref]);
  sharedGone.register(made, key);
  return made;
}

/** The pool's keys (tests). */
export function sharedKeys(): number[] {
  return [...shared.keys()];
}

/** Texts in the shared pool (tests). */
export function sharedTexts(): number {
  let n = 0;
  for (const entry of shared.values()) n += Array.isArray(entry) ? entry.length : 1;
  return n;
}

/**
 * Packs `text` for keeping (never retains `text` itself when it is a slice or
 * concatenation, unless the caller says it is `fresh`: flat and its own).
 */
export function packText(text: string, fresh = false): PackedText {
  if (text.length >= SHARE_MIN_CHARS) return sharedText(text, fresh);
  if (text.length >= compressFrom) return new LazyText(text, fresh);
  return fresh ? text : flatten(text);
}

/** The text a packed text stands for. */
export function unpackText(packed: PackedText): string {
  return typeof packed === 'string' ? packed : packed.text();
}

/** The length of the text a packed text stands for (without inflating it). */
export function packedLength(packed: PackedText): number {
  return packed.length;
}

/**
 * zlib's level for an idle session's texts: 6 keeps a disjoint session's 32k characters in ~9.4 KB against ~10.4 at
 * level 1, for ~2x the deflate time, paid outside steps; inflating costs the same.
 */
export const COMPACT_LEVEL = 6;

/**
 * A packed text deflated now, whatever the compression setting (its session is idle: see `ShadowWorkspace.compact`);
 * it is inflated again when read. A plain text of {@link PACK_MIN_CHARS} or more becomes a (deflated, unshared)
 * {@link LazyText}; what it returns stands for the same text.
 */
export function compactText(packed: PackedText, level = COMPACT_LEVEL): PackedText {
  const lazy = typeof packed === 'string' ? (packed.length >= PACK_MIN_CHARS ? new LazyText(packed, true) : undefined) : packed;
  if (lazy === undefined) return packed;
  lazy.cool(level);
  // A text deflating does not pay for (or with a lone surrogate) stays the plain string it was.
  return typeof packed === 'string' && lazy.peek() !== undefined ? packed : lazy;
}

/**
 * zlib's level for texts a live session has not used for {@link COLD_STEPS} steps (deflated on the step path, see
 * `ShadowWorkspace.settle`): the fastest.
 */
export const COLD_LEVEL = 1;

/** Marks a packed text as replaced (it leaves the hot set without being deflated). */
export function releaseText(packed: PackedText | undefined): void {
  if (packed instanceof LazyText) packed.release();
}

/**
 * One string object per repeated command text, for the maps keyed by commands (the shell parse cache, the
 * terminal-facts cache). V8 computes a string's hash on its first lookup in a `Map`, reading every character
 * (~1.5 ns a character: 0.46 µs for the held-out run's mean shell command of 290 characters), and keeps it in that
 * string object only. A frame's command is a new string every step, so every step paid for the whole hash even
 * when the command had been seen before. Here a repeated text is found by its sampled key ({@link sampledTextKey}:
 * about 100 characters read) and one comparison, and the kept string, hashed already, is what the caches are asked
 * with. A program cannot tell two equal strings apart, so nothing else changes.
 */
import { sampledTextKey } from './packed-text.js';

/** Shorter texts are hashed about as fast as their key is computed: not pooled. */
export const SAME_TEXT_MIN_CHARS = 128;
/** Longer texts are not pooled: V8 hashes a string this long by its length alone, and the caches keep none of them. */
export const SAME_TEXT_MAX_CHARS = 16_383;
/** Entries and characters kept over both generations (about: recently seen texts survive). */
export const SAME_TEXT_ENTRIES = 4096;
export const SAME_TEXT_CHARS = 2_000_000;

/**
 * Two generations, an approximate LRU without a delete per hit (as `flat-string`'s pools): new and recently found
 * texts go to the young map; when it is full it becomes the old one and the previous old one is dropped. A key
 * holds one text: another text of the same key (a collision, rare, or made on purpose) replaces it, which costs
 * the next lookup of the first one a miss, i.e. the hash it would have paid anyway.
 */
let young = new Map<number, string>();
let old = new Map<number, string>();
let youngChars = 0;

function keep(key: number, text: string): void {
  if (!young.has(key)) youngChars += text.length;
  young.set(key, text);
  if (young.size >= SAME_TEXT_ENTRIES / 2 || youngChars >= SAME_TEXT_CHARS / 2) {
    old = young;
    young = new Map();
    youngChars = 0;
  }
}

/** The kept string equal to `text` when there is one (its hash computed by the maps it was looked up in), else `text`, now kept. */
export function sameText(text: string): string {
  if (text.length < SAME_TEXT_MIN_CHARS || text.length > SAME_TEXT_MAX_CHARS) return text;
  // A small integer: the length's low bits and the sampled hash (a key past 2^30 would be a boxed number).
  const key = sampledTextKey(text) % 2 ** 30;
  const y = young.get(key);
  if (y === text) return y;
  const o = old.get(key);
  if (o === text) {
    keep(key, o);
    return o;
  }
  keep(key, text);
  return text;
}

/** Entries and characters held (tests). */
export function sameTextSize(): { entries: number; chars: number } {
  let chars = 0;
  for (const t of young.values()) chars += t.length;
  for (const t of old.values()) chars += t.length;
  return { entries: young.size + old.size, chars };
}

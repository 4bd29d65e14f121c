/**
 * String copies that keep no parent alive, and bounded pools of shared copies
 * for values that repeat across trajectories (paths, tool names, hashes,
 * tokens, scopes, line ranges). V8 represents `s.slice(..)` of 13+ characters
 * as a SlicedString that keeps its whole parent (an observation, a command)
 * alive, and `a + b` as a ConsString tree; what a session keeps must be
 * neither. Pure: a copy or a pooled value equals its input, so no output changes.
 */

/** Entries kept by each pool (about: recently used entries survive); strings longer than {@link INTERN_MAX_CHARS} are not pooled. */
export const INTERN_ENTRIES = 32_768;
export const INTERN_MAX_CHARS = 512;
/** Characters of pooled strings kept (both generations): the pool is bounded by bytes, not only by entries. */
export const INTERN_CHARS = 2_000_000;

/**
 * A two-generation pool, an approximate LRU without a delete per hit: new and
 * recently hit entries go to the young map; when it holds half the entries it
 * becomes the old one and the previous old map is dropped.
 */
class Pool<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  /** Characters of the young generation's keys (the values are the keys or small tuples). */
  private youngChars = 0;
  private oldChars = 0;

  get(key: string): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) this.put(key, o);
    return o;
  }

  put(key: string, value: V): void {
    if (!this.young.has(key)) this.youngChars += key.length;
    this.young.set(key, value);
    if (this.young.size >= INTERN_ENTRIES / 2 || this.youngChars >= INTERN_CHARS / 2) {
      this.old = this.young;
      this.oldChars = this.youngChars;
      this.young = new Map();
      this.youngChars = 0;
    }
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  /** Characters of the keys held (a key appearing in both generations counts twice: an upper bound). */
  get chars(): number {
    return this.youngChars + this.oldChars;
  }
}

const strings = new Pool<string>();
const ranges = new Pool<readonly [number, number]>();

/**
 * A flat, sequential copy of `text` that holds no reference to a parent string
 * (a JSON round trip allocates a fresh string in V8). Short strings are returned
 * as they are: below 13 characters V8 copies on slice anyway.
 */
export function flatten(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/**
 * The pooled copy of `text`: equal to it, flat, and shared by every caller that
 * interns an equal string while it stays in the pool (bounded by entries).
 */
export function intern(text: string): string {
  if (text.length > INTERN_MAX_CHARS) return flatten(text);
  const hit = strings.get(text);
  if (hit !== undefined) return hit;
  const copy = flatten(text);
  strings.put(copy, copy);
  return copy;
}

/**
 * A shared, frozen `[start, end]` equal to `range` (pooled like {@link intern}):
 * states keep line ranges, and the same ranges recur. Ranges holding anything
 * but safe integers (or -0) are returned as they are.
 */
export function internRange(range: readonly [number, number]): [number, number] {
  if (!range.every((n) => Number.isSafeInteger(n) && !Object.is(n, -0))) return range as [number, number];
  const key = `${range[0]},${range[1]}`;
  let hit = ranges.get(key);
  if (hit === undefined) {
    hit = Object.freeze([range[0], range[1]] as const);
    ranges.put(key, hit);
  }
  return hit as [number, number];
}

/** Entries in the string and range pools, and characters of the pooled strings (for tests and metrics). */
export function poolSizes(): { strings: number; ranges: number; chars: number } {
  return { strings: strings.size, ranges: ranges.size, chars: strings.chars };
}

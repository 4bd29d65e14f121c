/**
 * Variants of an action (method.md section 6.3): the content hash ignores
 * whitespace, a leading `cd DIR &&` and the repository root, so that
 * references match; the repeat detectors need the action itself. A state
 * whose hash equals an earlier state's but whose exact action differs from
 * the most recent of them (an edit re-indented, the same command run in
 * another directory) is a variant, not a repeat.
 */
import { rewriteRoots } from '../labeler/paths.js';
import { hashSlots, KeyTable } from '../memory/key-table.js';
import type { Action } from '../types.js';
import { headLength, md5, normalizeBounded, restDigest, stripLeadingCd } from './normalize.js';
import type { TerminalFacts } from './terminal-facts.js';

/**
 * Trailing blanks of each line and surrounding blank lines do not change an action. The lookbehind starts a match at
 * the first blank of a run only: `/[ \t]+$/gm` retried a run that ends mid-line from each of its blanks, so one
 * 100 KB step of spaces held the event loop 12 s (quadratic). Same result; linear, and faster than a hand loop
 * (a 10 KB heredoc: 29 µs, against 34 for the old regex and 45 for a loop).
 */
export function trimLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/(?<![ \t])[ \t]+$/gm, '')
    .trim();
}

/**
 * The exact form of an action, for the kinds whose hash drops something that
 * changes what they do: a shell command with the directory it ran in, a code
 * cell, an edit with its text as written, a search with its tool (`find_file`
 * matches names, `search_dir` contents). Undefined for the rest (their hash
 * already is exact). `file` is the repo-relative target, `dir` the directory
 * a command ran in, `tool` the tool as the log names it. A command or cell past
 * MAX_NORMALIZED_CHARS is trimmed by its head, the rest hashed as written (normalize.ts).
 */
export function exactAction(action: Action, tool: string, file: string | undefined, dir: string, root: string | undefined): string | undefined {
  switch (action.kind) {
    case 'search':
      return `${tool}\0${action.query ?? ''}\0${file ?? action.path ?? ''}`;
    case 'shell':
      return `${dir}\0${normalizeBounded(action.command, (c) => trimLines(rewriteRoots(stripLeadingCd(c), root)))}`;
    case 'code':
      return normalizeBounded(action.code, (c) => trimLines(rewriteRoots(c, root)));
    case 'edit':
      return JSON.stringify([file ?? action.path, action.op, action.range ?? null, exactText(action.old), exactText(action.new), exactText(action.text)]);
    default:
      return undefined;
  }
}

/**
 * An edit's text in its exact form: as written, or past MAX_NORMALIZED_CHARS its head as written and the rest's
 * digest (the one its state hash took: hashed once, T105), as a pair, which no text within the bound writes as.
 * Equal texts give equal forms, texts that differ anywhere differ (but for MD5 collisions), as the whole text did.
 */
function exactText(text: string | undefined): string | [string, string] | null {
  if (text === undefined) return null;
  const head = headLength(text);
  return head === text.length ? text : [text.slice(0, head), restDigest(text, head)];
}

/** The key of an exact form: a 52-bit prefix of its MD5 (a number per distinct hash, not a string). */
export function exactKey(exact: string | undefined): number | undefined {
  return exact === undefined ? undefined : Number.parseInt(md5(exact).slice(0, 13), 16);
}

/** Directories whose key is memoised per command (a command run in more directories computes the rest each time). */
export const MAX_MEMO_DIRS = 8;

/**
 * `exactKey(exactAction(action, ...))` of a shell command or code cell, memoised on its terminal facts (cached per
 * command text, kind and root, so shared across steps and sessions) per directory: repeated commands skip the
 * trimming, root rewriting and hashing. A code cell's exact form does not depend on the directory.
 */
export function terminalExactKey(facts: TerminalFacts, action: Extract<Action, { kind: 'shell' | 'code' }>, dir: string, root: string | undefined): number {
  const at = action.kind === 'shell' ? dir : '';
  const memo = (facts.exact ??= new Map<string, number>());
  let key = memo.get(at);
  if (key === undefined) {
    key = exactKey(exactAction(action, '', undefined, dir, root))!;
    if (memo.size < MAX_MEMO_DIRS) memo.set(at, key);
  }
  return key;
}

/** Remembers, per hash, the exact form's key of the most recent action with that hash. */
export interface VariantTracker {
  /** True when `hash` was seen before and its most recent action's key differs from `key` (undefined: the hash is exact). */
  isVariant(hash: string, key: number | undefined): boolean;
  /** No step is expected soon (an idle session): kept in a compact form until the next {@link isVariant}. */
  compact(): void;
}

/** `expected`: the states the session is expected to reach (0: unknown), sizing its first table ({@link hashSlots}). */
export function createVariantTracker(expected = 0): VariantTracker {
  return new Variants(expected);
}

/** A class, not an object of closures: every session keeps one, and shares the method. */
class Variants implements VariantTracker {
  /** Undefined while compacted (the entries are then in `hashes` and `keys`). A table, not a `Map`: ~1.2 KB less (key-table.ts). */
  private last: KeyTable | undefined;
  private hashes: string[] | undefined;
  private keys: number[] | undefined;

  constructor(expected: number) {
    this.last = new KeyTable(hashSlots(expected));
  }

  isVariant(hash: string, key: number | undefined): boolean {
    if (key === undefined) return false;
    const prev = (this.last ?? this.expand()).swap(hash, key);
    return prev !== undefined && prev !== key;
  }

  /**
   * The table as two columns of its entries: ~76 entries at 100 steps cost ~2.1 KB in a table of 128 slots, ~1.3 KB
   * here. Rebuilt by the next step (a few µs at 76 entries), once an idle spell.
   */
  compact(): void {
    if (this.last === undefined || this.last.size === 0) return;
    // Of exact length. Numbers past 2^31 (most keys): unboxed in an array of doubles, on the heap (a Float64Array's store this size is not).
    const hashes = new Array<string>(this.last.size);
    const keys = new Array<number>(this.last.size);
    let i = 0;
    this.last.forEach((hash, key) => {
      hashes[i] = hash;
      keys[i++] = key;
    });
    this.hashes = hashes;
    this.keys = keys;
    this.last = undefined;
  }

  private expand(): KeyTable {
    const last = new KeyTable(KeyTable.slotsFor(this.hashes!.length));
    for (let i = 0; i < this.hashes!.length; i++) last.swap(this.hashes![i]!, this.keys![i]!);
    this.hashes = undefined;
    this.keys = undefined;
    this.last = last;
    return last;
  }
}

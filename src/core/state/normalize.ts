import { hash } from 'node:crypto';
import type { Action } from '../types.js';
import { rewriteRoots } from '../labeler/paths.js';

const LEADING_CD = /^\s*cd\s+(?:"[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:&&|;)\s*/;

/**
 * Characters of a text (a command, a code cell, an edit's or a message's text) normalised for its hash and exact
 * form. Normalising is regex work per whitespace run: one 900 KB command of 450,000 one-letter words took 100-500 ms
 * in `collapseWhitespace` alone, with the garbage it leaves. Past this bound the rest of the text is hashed as
 * written (MD5, linear, no regex), so a huge step costs a bounded normalisation and its hash still covers all of
 * it. Real texts are far below it (the longest command of the calibration set: 6,111 characters): their hashes do
 * not change.
 */
export const MAX_NORMALIZED_CHARS = 65_536;

/** Characters of `text` normalised: all of it within the bound, else the bound (one less rather than split a surrogate pair). */
export function headLength(text: string): number {
  if (text.length <= MAX_NORMALIZED_CHARS) return text.length;
  const c = text.charCodeAt(MAX_NORMALIZED_CHARS - 1);
  return c >= 0xd800 && c <= 0xdbff ? MAX_NORMALIZED_CHARS - 1 : MAX_NORMALIZED_CHARS;
}

/**
 * The last long texts whose rest was hashed, and the digests: a step's state hash and its exact form (variant.ts)
 * both stand for the same rest, so a 1 MB command or edit text was hashed twice (T105). Three: an edit's old, new
 * and text. Emptied by {@link forgetRestDigests} once a step is done, so no text outlives its step here.
 */
const restTexts: Array<string | undefined> = [undefined, undefined, undefined];
const restDigests = ['', '', ''];
let nextRest = 0;

/** What stands for the rest of a text past its first `head` characters: nothing for a text within the bound, else NUL and the rest's MD5. */
export function restDigest(text: string, head: number): string {
  if (head === text.length) return '';
  // `head` is headLength(text) at every caller: the digest is a function of the text alone.
  for (let i = 0; i < restTexts.length; i++) if (restTexts[i] === text) return restDigests[i]!;
  const digest = `\0${md5(text.slice(head))}`;
  restTexts[nextRest] = text;
  restDigests[nextRest] = digest;
  nextRest = (nextRest + 1) % restTexts.length;
  return digest;
}

/** Drops the texts {@link restDigest} remembers (the state builder, at the end of each step). */
export function forgetRestDigests(): void {
  if (restTexts[0] === undefined) return;
  restTexts.fill(undefined);
  nextRest = 0;
}

/** `normalize` of the text within the bound; past it, `normalize` of its head followed by {@link restDigest}. */
export function normalizeBounded(text: string, normalize: (head: string) => string): string {
  const head = headLength(text);
  return head === text.length ? normalize(text) : `${normalize(text.slice(0, head))}${restDigest(text, head)}`;
}

/**
 * The whitespace runs {@link collapseWhitespace} rewrites: those of two or more characters, and single ones other than
 * a space. A lone space is already what it would become, and most of a command's runs are lone spaces: `/\s+/g`
 * replaced each of them (a 64 KiB head of `echo a && ` x 6,554: 19,661 replacements, ~2.3 ms; now none, T105).
 */
export const RUNS_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

/** Collapses every whitespace run to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(RUNS_TO_COLLAPSE, ' ').trim();
}

/**
 * Normalises a terminal command for hashing (method.md section 1): strips
 * leading `cd DIR &&` / `cd DIR;` prefixes, rewrites repository roots to
 * relative paths, collapses whitespace.
 */
export function normalizeCommand(command: string, root?: string): string {
  return collapseWhitespace(rewriteRoots(stripLeadingCd(command), root));
}

/** The command without its leading `cd DIR &&` / `cd DIR;` prefixes. */
export function stripLeadingCd(command: string): string {
  let c = command;
  for (let m = LEADING_CD.exec(c); m; m = LEADING_CD.exec(c)) c = c.slice(m[0].length);
  return c;
}

/**
 * Sorted distinct tokens of a normalised command for the Jaccard tier. Split at
 * whitespace, quotes and shell operators; option flags (`-rn`, `--include=..`)
 * are dropped (**choice**), so `grep -rn foo src` and `rg foo src` share {foo, src}.
 */
export function commandTokens(normalized: string): string[] {
  const set = new Set<string>();
  // A redirection's leading digits are tried from the start of their run only (a match can always start there), so a
  // long run of digits is not rescanned from each of its positions (64 KiB of `1`: 2.2 s as `\d*>&\d+`).
  const text = normalized.replace(/(?:(?<!\d)\d+)?>&\d+|\b\d+>>?|&>>?/g, ' ');
  for (const t of text.split(/[\s'"`|;&<>(){}]+/)) {
    if (t === '' || t.startsWith('-')) continue;
    set.add(t);
  }
  return [...set].sort();
}

/** MD5 hex digest of a string (the one-shot `crypto.hash`: no Hash object per call, ~2.5x faster on short texts). */
export function md5(text: string): string {
  return hash('md5', text, 'hex');
}

/**
 * The content hashed for a state: terminal commands normalised; edits as
 * `file + old + new` (create/write: the file text) with whitespace collapsed;
 * views as file and range. `file` is the repo-relative target, when known. Texts past
 * {@link MAX_NORMALIZED_CHARS} are normalised by their head ({@link normalizeBounded}).
 */
export function hashContent(action: Action, file: string | undefined, root?: string): string {
  const f = file ?? '';
  switch (action.kind) {
    case 'shell':
      return `shell\0${normalizeBounded(action.command, (c) => normalizeCommand(c, root))}`;
    case 'code':
      return `code\0${normalizeBounded(action.code, (c) => collapseWhitespace(rewriteRoots(c, root)))}`;
    case 'view':
      return `view\0${f}\0${action.range ? action.range.join(',') : ''}`;
    case 'edit': {
      const oldText = action.old ?? (action.range && action.op === 'replace_lines' ? action.range.join(':') : '');
      const newText = action.new ?? action.text ?? '';
      return `edit\0${f}\0${normalizeBounded(oldText, collapseWhitespace)}\0${normalizeBounded(newText, collapseWhitespace)}${action.op === 'undo' ? '\0undo' : ''}`;
    }
    case 'search':
      return `search\0${normalizeBounded(action.query ?? '', collapseWhitespace)}\0${f}`;
    case 'list':
      return `list\0${f}`;
    case 'think':
    case 'finish':
    case 'message':
      return `${action.kind}\0${normalizeBounded(action.text ?? '', collapseWhitespace)}`;
    case 'none':
      return 'none';
    case 'other':
      return `other\0${action.name}`;
  }
}

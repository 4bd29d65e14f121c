/**
 * Variants of an action (method.md section 6.3): the content hash ignores
 * whitespace, a leading `cd DIR &&` and the repository root, so that
 * references match; the repeat detectors need the action itself. A state
 * whose hash equals an earlier state's but whose exact action differs from
 * the most recent of them (an edit re-indented, the same command run in
 * another directory) is a variant, not a repeat.
 */
import { rewriteRoots } from '../labeler/paths.js';
import type { Action } from '../types.js';
import { md5, stripLeadingCd } from './normalize.js';

/** Trailing blanks of each line and surrounding blank lines do not change an action. */
function trimLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/**
 * The exact form of an action, for the kinds whose hash drops something that
 * changes what they do: a shell command with the directory it ran in, a code
 * cell, an edit with its text as written, a search with its tool (`find_file`
 * matches names, `search_dir` contents). Undefined for the rest (their hash
 * already is exact). `file` is the repo-relative target, `dir` the directory
 * a command ran in, `tool` the tool as the log names it.
 */
export function exactAction(action: Action, tool: string, file: string | undefined, dir: string, root: string | undefined): string | undefined {
  switch (action.kind) {
    case 'search':
      return `${tool}\0${action.query ?? ''}\0${file ?? action.path ?? ''}`;
    case 'shell':
      return `${dir}\0${trimLines(rewriteRoots(stripLeadingCd(action.command), root))}`;
    case 'code':
      return trimLines(rewriteRoots(action.code, root));
    case 'edit':
      return JSON.stringify([file ?? action.path, action.op, action.range ?? null, action.old ?? null, action.new ?? null, action.text ?? null]);
    default:
      return undefined;
  }
}

/** Remembers, per hash, the exact form of the most recent action with that hash. */
export interface VariantTracker {
  /** True when `hash` was seen before and its most recent action differs from `exact` (undefined: the hash is exact). */
  isVariant(hash: string, exact: string | undefined): boolean;
}

export function createVariantTracker(): VariantTracker {
  // A 52-bit prefix of the MD5 of the exact form: a number per distinct hash, not a string.
  const last = new Map<string, number>();
  return {
    isVariant(hash, exact) {
      if (exact === undefined) return false;
      const key = Number.parseInt(md5(exact).slice(0, 13), 16);
      const prev = last.get(hash);
      last.set(hash, key);
      return prev !== undefined && prev !== key;
    },
  };
}

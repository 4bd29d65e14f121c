import { hash } from 'node:crypto';
import type { Action } from '../types.js';
import { rewriteRoots } from '../labeler/paths.js';

const LEADING_CD = /^\s*cd\s+(?:"[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:&&|;)\s*/;

/** Collapses every whitespace run to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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
  const text = normalized.replace(/\d*>&\d+|\b\d+>>?|&>>?/g, ' ');
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
 * views as file and range. `file` is the repo-relative target, when known.
 */
export function hashContent(action: Action, file: string | undefined, root?: string): string {
  const f = file ?? '';
  switch (action.kind) {
    case 'shell':
      return `shell\0${normalizeCommand(action.command, root)}`;
    case 'code':
      return `code\0${collapseWhitespace(rewriteRoots(action.code, root))}`;
    case 'view':
      return `view\0${f}\0${action.range ? action.range.join(',') : ''}`;
    case 'edit': {
      const oldText = action.old ?? (action.range && action.op === 'replace_lines' ? action.range.join(':') : '');
      const newText = action.new ?? action.text ?? '';
      return `edit\0${f}\0${collapseWhitespace(oldText)}\0${collapseWhitespace(newText)}${action.op === 'undo' ? '\0undo' : ''}`;
    }
    case 'search':
      return `search\0${collapseWhitespace(action.query ?? '')}\0${f}`;
    case 'list':
      return `list\0${f}`;
    case 'think':
    case 'finish':
    case 'message':
      return `${action.kind}\0${collapseWhitespace(action.text ?? '')}`;
    case 'none':
      return 'none';
    case 'other':
      return `other\0${action.name}`;
  }
}

/**
 * The submitted patch where the log has it (SWE-agent's `submit`, mini-swe-agent's final
 * `git diff`, CodeR's: a unified diff in the finish step's observation), and what each
 * changed file is: source, test, or neither (a scratch script, notes, a backup copy).
 */
import { hasScratchName, isBackupPath, isNotesPath, isTestPath } from '../labeler/file-roles.js';

export type PatchRole = 'source' | 'test' | 'other';

export interface PatchFile {
  path: string;
  role: PatchRole;
  /** Added plus removed lines. */
  lines: number;
}

/** The role of a path in a patch: test files, then scratch-named files, files new at the repository root, notes and backups (other), then source. */
export function patchRole(path: string, created: boolean): PatchRole {
  if (isTestPath(path)) return 'test';
  if (hasScratchName(path) || (created && !path.includes('/')) || isNotesPath(path) || isBackupPath(path)) return 'other';
  return 'source';
}

/** A `diff --git` header at a line's start (sticky: tried where a line starts; `\S` stops at the line's end). */
const HEADER = /diff --git a\/(\S+) b\/(\S+)/y;

/** What a walk over a unified diff reports: each file's header, that it is new, and each added or removed line. */
export interface DiffVisitor {
  file(path: string): void;
  created(): void;
  /** An added (`+`) or removed (`-`) line of a hunk: `text.slice(from, to)` without its sign. */
  line(sign: '+' | '-', text: string, from: number, to: number): void;
}

/** Where a walk over a diff stands between slices (walkDiffTo): the next line's start, and what it is inside of. */
export interface DiffWalk {
  p: number;
  inFile: boolean;
  inHunk: boolean;
}

/** A walk over `text` from `at` (where the first `diff --git` block starts). */
export const diffWalk = (at: number): DiffWalk => ({ p: at, inFile: false, inHunk: false });

/**
 * Walks the `diff --git` blocks of `text` from `at` (where the first one starts), line by line without splitting the
 * text: a prefix test at a line's start cannot pass its end (no prefix holds a newline).
 */
export function walkDiff(text: string, at: number, v: DiffVisitor): void {
  walkDiffTo(text, diffWalk(at), text.length, v);
}

/**
 * Walks on from `w` over the lines that start at or before `until` (the whole text: `text.length`), leaving `w` at
 * the next one; a walk in slices reports what one walk does. True once the text is walked.
 */
export function walkDiffTo(text: string, w: DiffWalk, until: number, v: DiffVisitor): boolean {
  for (; w.p <= text.length && w.p <= until;) {
    const p = w.p;
    let end = text.indexOf('\n', p);
    if (end < 0) end = text.length;
    HEADER.lastIndex = p;
    const h = text.startsWith('diff --git a/', p) ? HEADER.exec(text) : null;
    if (h !== null) {
      v.file(h[2]!);
      w.inFile = true;
      w.inHunk = false;
    } else if (w.inFile) {
      if (!w.inHunk && text.startsWith('new file mode', p)) v.created();
      else if (text.startsWith('@@', p)) w.inHunk = true;
      else if (w.inHunk && p < end) {
        const c = text.charCodeAt(p);
        if (c === 43 || c === 45) v.line(c === 43 ? '+' : '-', text, p + 1, end); // + or -
      }
    }
    w.p = end + 1;
  }
  return w.p > text.length;
}

/** The files of a unified diff (`diff --git` blocks), null when the text holds none. */
export function parseDiff(text: string): PatchFile[] | null {
  const at = text.indexOf('diff --git ');
  if (at < 0) return null;
  const files: PatchFile[] = [];
  let cur: { path: string; created: boolean; lines: number } | undefined;
  const close = () => {
    if (cur !== undefined) files.push({ path: cur.path, role: patchRole(cur.path, cur.created), lines: cur.lines });
  };
  walkDiff(text, at, {
    file(path) {
      close();
      cur = { path, created: false, lines: 0 };
    },
    created() {
      cur!.created = true; // walkDiff reports it only inside a file
    },
    line() {
      cur!.lines += 1; // and lines only inside a file
    },
  });
  close();
  return files;
}

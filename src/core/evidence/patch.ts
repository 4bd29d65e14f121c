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

/** The files of a unified diff (`diff --git` blocks), null when the text holds none. */
export function parseDiff(text: string): PatchFile[] | null {
  const at = text.indexOf('diff --git ');
  if (at < 0) return null;
  const files: PatchFile[] = [];
  let cur: { path: string; created: boolean; lines: number } | undefined;
  const close = () => {
    if (cur !== undefined) files.push({ path: cur.path, role: patchRole(cur.path, cur.created), lines: cur.lines });
  };
  let inHunk = false;
  // Line by line from `at` without splitting the text: a prefix test at a line's start cannot pass its end (no prefix holds a newline).
  for (let p = at; p <= text.length;) {
    let end = text.indexOf('\n', p);
    if (end < 0) end = text.length;
    HEADER.lastIndex = p;
    const h = text.startsWith('diff --git a/', p) ? HEADER.exec(text) : null;
    if (h !== null) {
      close();
      cur = { path: h[2]!, created: false, lines: 0 };
      inHunk = false;
    } else if (cur !== undefined) {
      if (!inHunk && text.startsWith('new file mode', p)) cur.created = true;
      else if (text.startsWith('@@', p)) inHunk = true;
      else if (inHunk && p < end && (text.charCodeAt(p) === 43 || text.charCodeAt(p) === 45)) cur.lines += 1; // + or -
    }
    p = end + 1;
  }
  close();
  return files;
}

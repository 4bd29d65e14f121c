/**
 * The changed lines of a unified diff and of edit actions, normalised for comparing patches
 * across runs (as Agentless compares normalised patches): surrounding and repeated
 * whitespace and comment-only lines do not make two changes different.
 */
import type { Step } from '../../src/core/types.js';

export interface DiffLine {
  file: string;
  /** The file is new in the diff. */
  created: boolean;
  sign: '+' | '-';
  text: string;
}

const HEADER = /^diff --git a\/(\S+) b\/(\S+)/;
const COMMENT = /^(#|\/\/|\/\*|\*)/;

/** Whitespace trimmed and collapsed; a blank or comment-only line is ''. */
export function normaliseLine(line: string): string {
  const t = line.trim().replace(/\s+/g, ' ');
  return COMMENT.test(t) ? '' : t;
}

/** The added and removed lines of every `diff --git` block of `text`, null when it holds none. */
export function diffLines(text: string): DiffLine[] | null {
  const at = text.indexOf('diff --git ');
  if (at < 0) return null;
  const out: DiffLine[] = [];
  let file: string | undefined;
  let created = false;
  let inHunk = false;
  for (const line of text.slice(at).split('\n')) {
    const h = HEADER.exec(line);
    if (h !== null) {
      file = h[2]!;
      created = false;
      inHunk = false;
    } else if (file === undefined) continue;
    else if (!inHunk && line.startsWith('new file mode')) created = true;
    else if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && (line.startsWith('+') || line.startsWith('-'))) out.push({ file, created, sign: line[0] as '+' | '-', text: line.slice(1) });
  }
  return out;
}

const linesOf = (s: string | undefined): string[] => (s === undefined || s === '' ? [] : s.split('\n'));

/** `±text` of the normalised non-blank lines an edit action removes and adds (a shell write shows none). */
export function editLinesOf(step: Step): string[] {
  const a = step.action;
  if (a.kind !== 'edit') return [];
  const removed = a.op === 'str_replace' ? linesOf(a.old) : [];
  const added = a.op === 'create' || a.op === 'write' ? linesOf(a.text) : linesOf(a.new);
  return [...removed.map((l) => `-${normaliseLine(l)}`), ...added.map((l) => `+${normaliseLine(l)}`)].filter((l) => l.length > 1);
}

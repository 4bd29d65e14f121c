/**
 * A run's final patch normalised for a vote among the runs of one task (issue 26 item 3; Agentless selects among
 * samples by majority vote on normalised patches). Two runs that make the same change get the same list, whatever
 * the formatting, comments, hunk order or context lines. The patch is the one the evidence reads (patch.ts): the
 * last submitted diff, else the source edits seen. Only source files count (not tests, scratch scripts, notes or
 * backups). Each changed line becomes `file\0±text` with `text` normalised (`normaliseCodeLine`); a line removed and
 * added again (a whitespace-only or comment-only change, an edit undone) cancels out; the list is sorted.
 */
import type { Label, State, Step } from '../types.js';
import { patchRole, walkDiff } from '../evidence/patch.js';

/** At most this many changed lines of a patch are kept **(choice)**: a patch past it is compared on its first lines. */
export const MAX_PATCH_LINES = 4096;

const HASH_COMMENTS = /\.(py|pyi|pyx|sh|bash|rb|pl|r|ya?ml|toml|cfg|ini|cmake)$|(^|\/)(Makefile|Dockerfile|requirements[^/]*\.txt)$/i;
const SLASH_COMMENTS = /\.(java|kt|scala|groovy|js|jsx|mjs|cjs|ts|tsx|go|rs|c|h|cc|cpp|cxx|hpp|cs|swift|php|dart)$/i;
// Comment-only lines of each family (a `*` then a space or nothing continues or ends a block comment; `*ptr` is code).
const SLASH_LINE = /^(\/\/|\/\*|\*\/|\*(\s|$))/;

/** Which comment syntax a file's lines use, from its name (none known: no line is taken for a comment). */
export function commentStyle(file: string): 'hash' | 'slash' | 'none' {
  return HASH_COMMENTS.test(file) ? 'hash' : SLASH_COMMENTS.test(file) ? 'slash' : 'none';
}

/**
 * One line of code as the vote compares it: '' for a blank or comment-only line; else a trailing comment dropped
 * (only where no quote precedes it, so that a `#` inside a string stays), whitespace dropped except one space
 * between two word characters, double quotes read as single ones.
 */
export function normaliseCodeLine(line: string, style: 'hash' | 'slash' | 'none'): string {
  let t = line.trim();
  if (t === '' || (style === 'hash' && t.startsWith('#')) || (style === 'slash' && SLASH_LINE.test(t))) return '';
  const mark = style === 'hash' ? t.indexOf('#') : style === 'slash' ? t.indexOf('//') : -1;
  if (mark > 0 && !/["'`]/.test(t.slice(0, mark))) t = t.slice(0, mark).trimEnd();
  // Runs of whitespace kept only where they separate two words (`return x`), gone elsewhere (`f(a, b)` = `f(a,b)`).
  return t.replace(/\s+/g, (ws, at: number) => (/\w/.test(t[at - 1] ?? '') && /\w/.test(t[at + ws.length] ?? '') ? ' ' : '')).replaceAll('"', "'");
}

/**
 * Net changed lines: each `file\0text` counted +1 when added and −1 when removed, so a line removed and added again
 * cancels out. Capped at {@link MAX_PATCH_LINES} keys.
 */
class NetLines {
  private readonly net = new Map<string, number>();
  add(file: string, sign: '+' | '-', raw: string, style = commentStyle(file)): void {
    const text = normaliseCodeLine(raw, style);
    if (text === '') return;
    const key = `${file}\0${text}`;
    const had = this.net.get(key);
    if (had === undefined && this.net.size >= MAX_PATCH_LINES) return;
    this.net.set(key, (had ?? 0) + (sign === '+' ? 1 : -1));
  }
  /** `file\0±text`, once per net count, sorted. */
  lines(): string[] {
    const out: string[] = [];
    for (const [key, n] of this.net) {
      const at = key.indexOf('\0');
      const item = `${key.slice(0, at)}\0${n > 0 ? '+' : '-'}${key.slice(at + 1)}`;
      for (let k = 0; k < Math.abs(n); k++) out.push(item);
    }
    return out.sort();
  }
}

/** The normalised source lines a unified diff changes (sorted `file\0±text`), null when `text` holds no `diff --git`. */
export function normalisedDiff(text: string): string[] | null {
  const at = text.indexOf('diff --git ');
  if (at < 0) return null;
  const files: Array<{ path: string; created: boolean; lines: Array<['+' | '-', string]> }> = [];
  walkDiff(text, at, {
    file: (path) => files.push({ path, created: false, lines: [] }),
    created: () => void (files[files.length - 1]!.created = true), // only reported inside a file
    line: (sign, t, from, to) => void files[files.length - 1]!.lines.push([sign, t.slice(from, to)]),
  });
  const net = new NetLines();
  for (const f of files) {
    if (patchRole(f.path, f.created) !== 'source') continue;
    const style = commentStyle(f.path);
    for (const [sign, line] of f.lines) net.add(f.path, sign, line, style);
  }
  return net.lines();
}

const linesOf = (s: string | undefined): string[] => (s === undefined || s === '' ? [] : s.split('\n'));

/** The lines a source edit removes and adds, as far as the action shows them (a shell write shows none). */
function editLines(step: Step): Array<['+' | '-', string]> {
  const a = step.action;
  if (a.kind !== 'edit') return [];
  const removed = a.op === 'str_replace' ? linesOf(a.old) : [];
  const added = a.op === 'create' || a.op === 'write' ? linesOf(a.text) : linesOf(a.new);
  return [...removed.map((l): ['-', string] => ['-', l]), ...added.map((l): ['+', string] => ['+', l])];
}

export interface FinalPatchTracker {
  add(step: Step, state: State, label: Label): void;
  /** The normalised final patch of the steps added so far (sorted; empty: no source change seen). */
  value(): string[];
}

/** The final patch as the evidence reads it: the latest submitted diff (a finish step's output), else the source edits seen. */
export function createFinalPatchTracker(): FinalPatchTracker {
  const edited = new NetLines();
  let submitted: string[] | undefined;
  return {
    add(step, state, label) {
      if (label.sourceEdit && label.file !== undefined) for (const [sign, line] of editLines(step)) edited.add(label.file, sign, line);
      if (state.kind === 'finish' && step.observation !== undefined) submitted = normalisedDiff(step.observation) ?? submitted;
    },
    value: () => submitted ?? edited.lines(),
  };
}

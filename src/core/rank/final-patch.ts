/**
 * A run's final patch normalised for a vote among the runs of one task (issue 26 item 3; Agentless selects among
 * samples by majority vote on normalised patches). Two runs that make the same change get the same list, whatever
 * the formatting, comments, hunk order or context lines. The patch is the one the evidence reads (patch.ts): the
 * last submitted diff, else the source edits seen. Only source files count (not tests, scratch scripts, notes or
 * backups). Each changed line becomes `file\0±text` with `text` normalised (`normaliseCodeLine`); a line removed and
 * added again (a whitespace-only or comment-only change, an edit undone) cancels out; the list is sorted.
 */
import type { Label, State, Step } from '../types.js';
import { patchRole, walkDiff, type DiffVisitor } from '../evidence/patch.js';

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
 * cancels out. Capped at {@link MAX_PATCH_LINES} keys. Kept per file, so that a line costs its own length and not
 * its path's as well (T55: a long path on every short line of a diff held the event loop for seconds).
 */
export class NetLines {
  private readonly files = new Map<string, Map<string, number>>();
  private keys = 0;
  add(file: string, sign: '+' | '-', raw: string, style = commentStyle(file)): void {
    const text = normaliseCodeLine(raw, style);
    if (text === '') return;
    let net = this.files.get(file);
    const had = net?.get(text);
    if (had === undefined && this.keys >= MAX_PATCH_LINES) return;
    if (net === undefined) this.files.set(file, (net = new Map<string, number>()));
    if (had === undefined) this.keys += 1;
    net.set(text, (had ?? 0) + (sign === '+' ? 1 : -1));
  }
  /** How many lines `lines()` holds, and how many characters they come to with a newline each, without making them. */
  size(): { lines: number; chars: number } {
    let lines = 0;
    let chars = 0;
    for (const [file, net] of this.files) {
      for (const [text, n] of net) {
        lines += Math.abs(n);
        chars += Math.abs(n) * (file.length + text.length + 3);
      }
    }
    return { lines, chars };
  }
  /** Each distinct line of `lines()` and how many times it is there, in its order. */
  counted(): Array<[string, number]> {
    const signed = (net: Map<string, number>) => [...net].filter(([, n]) => n !== 0).map(([text, n]): [string, number] => [`${n > 0 ? '+' : '-'}${text}`, Math.abs(n)]);
    const paths = [...this.files.keys()];
    // `file\0±text` sorts by file, then by ±text, when no file holds a NUL (git quotes such a name): sorted per file.
    if (paths.some((p) => p.includes('\0'))) return this.counted0();
    const out: Array<[string, number]> = [];
    for (const file of paths.sort()) for (const [t, n] of signed(this.files.get(file)!).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push([`${file}\0${t}`, n]);
    return out;
  }
  /** `counted()` for files holding a NUL, as the flat `file\0text` keys split them (at the first NUL). */
  private counted0(): Array<[string, number]> {
    const items = new Map<string, number>();
    for (const [file, net] of this.files) {
      for (const [text, n] of net) {
        if (n === 0) continue;
        const key = `${file}\0${text}`;
        const at = key.indexOf('\0');
        const item = `${key.slice(0, at)}\0${n > 0 ? '+' : '-'}${key.slice(at + 1)}`;
        items.set(item, (items.get(item) ?? 0) + Math.abs(n));
      }
    }
    return [...items].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
  /** `file\0±text`, once per net count, sorted. */
  lines(): string[] {
    const out: string[] = [];
    for (const [item, n] of this.counted()) for (let k = 0; k < n; k++) out.push(item);
    return out;
  }
}

/** The normalised source lines a unified diff changes (sorted `file\0±text`), null when `text` holds no `diff --git`. */
export function normalisedDiff(text: string): string[] | null {
  return diffLines(text)?.lines() ?? null;
}

/** The net source lines of a unified diff, null when `text` holds no `diff --git`. */
export function diffLines(text: string): NetLines | null {
  const at = text.indexOf('diff --git ');
  if (at < 0) return null;
  const net = new NetLines();
  walkDiff(text, at, sourceLines(net));
  return net;
}

/** A walk's visitor adding each source file's changed lines to `net` (a file's role is known by its first line: `new file mode` comes before its hunks). */
export function sourceLines(net: NetLines): DiffVisitor {
  let file: { path: string; created: boolean; source?: boolean; style?: ReturnType<typeof commentStyle> } | undefined;
  return {
    file: (path) => void (file = { path, created: false }),
    created: () => void (file!.created = true), // only reported inside a file, before its lines
    line(sign, t, from, to) {
      const f = file!; // lines are only reported inside a file
      f.source ??= patchRole(f.path, f.created) === 'source';
      if (f.source) net.add(f.path, sign, t.slice(from, to), (f.style ??= commentStyle(f.path)));
    },
  };
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
  /** The same lines as counts, for `netClass` (patch-class.ts), which makes their class without listing them. */
  net(): NetLines;
}

/** The final patch as the evidence reads it: the latest submitted diff (a finish step's output), else the source edits seen. */
export function createFinalPatchTracker(): FinalPatchTracker {
  const edited = new NetLines();
  let submitted: NetLines | undefined;
  return {
    add(step, state, label) {
      if (label.sourceEdit && label.file !== undefined) for (const [sign, line] of editLines(step)) edited.add(label.file, sign, line);
      if (state.kind === 'finish' && step.observation !== undefined) submitted = diffLines(step.observation) ?? submitted;
    },
    value: () => (submitted ?? edited).lines(),
    net: () => submitted ?? edited,
  };
}

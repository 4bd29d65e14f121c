/** The sparse-array ShadowWorkspace as it was before packing (verbatim but for the import and the name): the reference the packed one must match. */
import type { LineRange } from '../../src/core/types.js';
import { splitLines } from '../../src/core/state/numbered-text.js';

/** Default budget of a shadow workspace: characters of file text kept per trajectory. */
const DEFAULT_WORKSPACE_CHARS = 1_000_000;

/**
 * The file contents an agent has seen and changed (method.md section 3), per
 * trajectory. Files are sparse line arrays (1-based; unknown lines are holes);
 * scope lookup uses the known prefix from line 1. Bounded: past `maxChars` of
 * text, the files least recently seen or changed are forgotten (their later
 * states get no scope), so a long-lived server session cannot grow without
 * limit; the eviction is deterministic, so online still equals offline.
 */
export class SparseWorkspace {
  private readonly files = new Map<string, Array<string | undefined>>();
  private readonly sizes = new Map<string, number>();
  private total = 0;

  constructor(private readonly maxChars = DEFAULT_WORKSPACE_CHARS) {}

  /** Characters of file text currently kept. */
  get size(): number {
    return this.total;
  }

  /** After `file` changed by `delta` characters: marks it most recent, evicts the oldest files past the budget. */
  private touched(file: string, delta: number): void {
    const arr = this.files.get(file);
    if (!arr) return;
    this.total += delta;
    this.sizes.set(file, (this.sizes.get(file) ?? 0) + delta);
    this.files.delete(file);
    this.files.set(file, arr);
    for (const oldest of this.files.keys()) {
      if (this.total <= this.maxChars || oldest === file) break;
      this.forget(oldest);
    }
  }

  /** Records lines seen in an observation (line number -> text). */
  observe(file: string, lines: Map<number, string>): void {
    if (lines.size === 0) return;
    let arr = this.files.get(file);
    if (!arr) {
      arr = [];
      this.files.set(file, arr);
    }
    let delta = 0;
    for (const [n, text] of lines) {
      if (n < 1) continue;
      delta += text.length + 1 - measureLine(arr[n - 1]);
      arr[n - 1] = text;
    }
    this.touched(file, delta);
  }

  /** Records the whole text of a file (create, write, full `cat`). */
  setText(file: string, text: string): void {
    const lines = splitLines(text);
    const before = this.sizes.get(file) ?? 0;
    this.files.set(file, lines);
    this.touched(file, measure(lines) - before);
  }

  /** Forgets a file whose content changed in an unknown way. */
  forget(file: string): void {
    this.files.delete(file);
    this.total -= this.sizes.get(file) ?? 0;
    this.sizes.delete(file);
  }

  /** The contiguous known text from line 1, and its line count. */
  prefix(file: string): { text: string; lines: number } | undefined {
    const arr = this.files.get(file);
    if (arr?.[0] === undefined) return undefined;
    let n = 0;
    while (n < arr.length && arr[n] !== undefined) n++;
    return { text: arr.slice(0, n).join('\n'), lines: n };
  }

  /** Where `old` sits in the known prefix (1-based inclusive lines), if it occurs there. */
  locate(file: string, old: string): LineRange | undefined {
    const p = this.prefix(file);
    if (!p || old === '') return undefined;
    const idx = p.text.indexOf(old);
    if (idx < 0) return undefined;
    const start = countLines(p.text, idx) + 1;
    const body = old.endsWith('\n') ? old.slice(0, -1) : old;
    return [start, start + countLines(body, body.length)];
  }

  /** Applies a str_replace: returns the replaced range, or undefined (the file is then forgotten). */
  replace(file: string, old: string, replacement: string): LineRange | undefined {
    const range = this.locate(file, old);
    const arr = this.files.get(file);
    const p = this.prefix(file);
    if (!range || !arr || !p) {
      this.forget(file);
      return undefined;
    }
    const idx = p.text.indexOf(old);
    const text = p.text.slice(0, idx) + replacement + p.text.slice(idx + old.length);
    const tail = arr.slice(p.lines);
    const next = [...splitLines(text), ...tail];
    this.files.set(file, next);
    this.touched(file, measure(next) - (this.sizes.get(file) ?? 0));
    return range;
  }

  /** Replaces lines [start, end] with `text` (SWE-agent `edit a:b`). */
  replaceLines(file: string, range: LineRange, text: string): void {
    const arr = this.files.get(file);
    if (!arr) return;
    if (range[0] - 1 > arr.length) {
      this.forget(file);
      return;
    }
    const added = splitLines(text);
    const removed = arr.splice(range[0] - 1, range[1] - range[0] + 1, ...added);
    this.touched(file, measure(added) - measure(removed));
  }

  /** Inserts `text` after line `after` (0 = at the top). */
  insert(file: string, after: number, text: string): void {
    const arr = this.files.get(file);
    if (!arr) return;
    if (after > arr.length) {
      this.forget(file);
      return;
    }
    const added = splitLines(text);
    arr.splice(after, 0, ...added);
    this.touched(file, measure(added));
  }
}

/** Characters a kept line costs (its text and newline); a hole costs nothing. */
function measureLine(line: string | undefined): number {
  return line === undefined ? 0 : line.length + 1;
}

function measure(lines: ReadonlyArray<string | undefined>): number {
  let n = 0;
  for (const line of lines) n += measureLine(line);
  return n;
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

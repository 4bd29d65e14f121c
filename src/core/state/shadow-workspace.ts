import type { LineRange } from '../types.js';
import { splitLines } from './numbered-text.js';
import { intern } from './flat-string.js';
import { pack, packedPrefix, releasePacked, unpack, type PackedFile } from './packed-lines.js';

/** Default budget of a shadow workspace: characters of file text kept per trajectory. */
export const DEFAULT_WORKSPACE_CHARS = 1_000_000;

/**
 * The file contents an agent has seen and changed (method.md section 3), per
 * trajectory. Files are sparse line arrays (1-based; unknown lines are holes);
 * scope lookup uses the known prefix from line 1. Bounded: past `maxChars` of
 * text, the files least recently seen or changed are forgotten (their later
 * states get no scope), so a long-lived server session cannot grow without
 * limit; the eviction is deterministic, so online still equals offline.
 * Between operations each file is kept packed (see packed-lines.ts), except
 * the one touched last, which stays a line array until another file is
 * touched: agents work on one file for several steps in a row, and packing
 * it after each of them cost about a tenth of a server step.
 */
export class ShadowWorkspace {
  /** Kept files in recency order; `null` marks the hot file, whose lines are in `hot`. */
  private readonly files = new Map<string, PackedFile | null>();
  private hot: { file: string; arr: Array<string | undefined>; previous: PackedFile | undefined; named: boolean } | undefined;
  private readonly sizes = new Map<string, number>();
  private total = 0;

  constructor(private readonly maxChars = DEFAULT_WORKSPACE_CHARS) {}

  /** Characters of file text currently kept. */
  get size(): number {
    return this.total;
  }

  /** After `file` changed by `delta` characters: marks it most recent, evicts the oldest files past the budget. */
  private touched(file: string, delta: number): void {
    if (!this.files.has(file)) return;
    const packed = this.files.get(file) as PackedFile | null;
    this.total += delta;
    this.sizes.set(file, (this.sizes.get(file) ?? 0) + delta);
    this.files.delete(file);
    this.files.set(file, packed);
    for (const oldest of this.files.keys()) {
      if (this.total <= this.maxChars || oldest === file) break;
      this.forget(oldest);
    }
  }

  /** The file's sparse line array (the hot one itself, or an unpacked copy: callers change it and `store` it), undefined when not kept. */
  private load(file: string): Array<string | undefined> | undefined {
    if (this.hot?.file === file) return this.hot.arr;
    const packed = this.files.get(file);
    return packed == null ? undefined : unpack(packed);
  }

  /** Packs the hot file into `files` (in place: it keeps its recency position). */
  private cool(): void {
    const h = this.hot;
    if (h === undefined) return;
    this.hot = undefined;
    if (!this.files.has(h.file)) return;
    const packed = pack(h.arr, h.previous, h.named || h.previous?.extra !== undefined);
    releasePacked(h.previous, packed);
    this.files.set(h.file, packed);
  }

  /** Makes `arr` the content of `file`, which becomes the hot file (a new file enters the recency order last). */
  private store(file: string, arr: Array<string | undefined>, named = false): void {
    if (this.hot?.file === file) {
      this.hot.arr = arr;
      this.hot.named ||= named;
      return;
    }
    this.cool();
    const previous = this.files.get(file) ?? undefined;
    this.hot = { file, arr, previous, named };
    this.files.set(file, null);
  }

  /** Records lines seen in an observation (line number -> text). */
  observe(name: string, lines: Map<number, string>): void {
    const file = intern(name);
    if (lines.size === 0) return;
    const arr = this.load(file) ?? [];
    let delta = 0;
    let named = false;
    for (const [n, text] of lines) {
      if (n < 1) continue;
      delta += text.length + 1 - measureLine(arr[n - 1]);
      arr[n - 1] = text;
      if (!Number.isInteger(n) || n - 1 > MAX_INDEX) named = true;
    }
    this.store(file, arr, named);
    this.touched(file, delta);
  }

  /** Records the whole text of a file (create, write, full `cat`). */
  setText(name: string, text: string): void {
    const file = intern(name);
    const lines = splitLines(text);
    const before = this.sizes.get(file) ?? 0;
    this.store(file, lines);
    this.touched(file, measure(lines) - before);
  }

  /** Forgets a file whose content changed in an unknown way. */
  forget(file: string): void {
    if (this.hot?.file === file) {
      releasePacked(this.hot.previous);
      this.hot = undefined;
    } else releasePacked(this.files.get(file) ?? undefined);
    this.files.delete(file);
    this.total -= this.sizes.get(file) ?? 0;
    this.sizes.delete(file);
  }

  /** The contiguous known text from line 1, and its line count. */
  prefix(file: string): { text: string; lines: number } | undefined {
    if (this.hot?.file === file) {
      const arr = this.hot.arr;
      if (arr[0] === undefined) return undefined;
      let n = 0;
      while (n < arr.length && arr[n] !== undefined) n++;
      return { text: arr.slice(0, n).join('\n'), lines: n };
    }
    const packed = this.files.get(file);
    return packed == null ? undefined : packedPrefix(packed);
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
  replace(name: string, old: string, replacement: string): LineRange | undefined {
    const file = intern(name);
    const range = this.locate(file, old);
    const arr = this.load(file);
    const p = this.prefix(file);
    if (!range || !arr || !p) {
      this.forget(file);
      return undefined;
    }
    const idx = p.text.indexOf(old);
    const text = p.text.slice(0, idx) + replacement + p.text.slice(idx + old.length);
    const tail = arr.slice(p.lines);
    const next = [...splitLines(text), ...tail];
    this.store(file, next);
    this.touched(file, measure(next) - (this.sizes.get(file) ?? 0));
    return range;
  }

  /** Replaces lines [start, end] with `text` (SWE-agent `edit a:b`). */
  replaceLines(name: string, range: LineRange, text: string): void {
    const file = intern(name);
    const arr = this.load(file);
    if (!arr) return;
    const added = splitLines(text);
    const removed = arr.splice(range[0] - 1, range[1] - range[0] + 1, ...added);
    this.store(file, arr);
    this.touched(file, measure(added) - measure(removed));
  }

  /** Inserts `text` after line `after` (0 = at the top). */
  insert(name: string, after: number, text: string): void {
    const file = intern(name);
    const arr = this.load(file);
    if (!arr) return;
    if (after > arr.length) {
      this.forget(file);
      return;
    }
    const added = splitLines(text);
    arr.splice(after, 0, ...added);
    this.store(file, arr);
    this.touched(file, measure(added));
  }
}

/** The largest array index: a line numbered past it becomes a named property of the array. */
const MAX_INDEX = 2 ** 32 - 2;

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

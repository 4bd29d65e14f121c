import type { LineRange } from '../types.js';
import { splitLines } from './numbered-text.js';
import { intern } from '../memory/flat-string.js';
import { COLD_LEVEL } from '../memory/packed-text.js';
import { COLD_MIN_CHARS, ColdFiles } from './cold-files.js';
import { compactPacked, fileExtra, observeJoined, observePacked, pack, packJoined, packedPrefix, packedSize, releasePacked, unpack, type PackedFile } from './packed-lines.js';
import { HOT_FILES, lineArray, reusable, type HotFile } from './hot-file.js';

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
 * the {@link HOT_FILES} edited last, which stay line arrays (or one joined
 * text) until they fall out of that set or a step does not use them
 * ({@link settle}): an agent that edits a file mostly does so again in its
 * next step, and packing after each step cost about a tenth of a server step.
 * A view goes into the packed form directly (only the runs it touches are
 * joined again: see `observePacked`).
 */
export class ShadowWorkspace {
  /** Kept files in recency order; `null` marks a hot file, whose lines are in `hot`. */
  private readonly files = new Map<string, PackedFile | null>();
  /** The hot files, least recently stored first. */
  private readonly hot = new Map<string, HotFile>();
  /** Characters kept: the sum of the files' sizes (see {@link sizeOf}). */
  private total = 0;
  /** Whether the current step used a hot file (see {@link settle}). */
  private hotUsed = false;
  /** The files no step has used for a while (cold-files.ts): their long texts are deflated at the end of a step. */
  private readonly cold = new ColdFiles();

  constructor(private readonly maxChars = DEFAULT_WORKSPACE_CHARS) {}

  /** Characters of file text currently kept. */
  get size(): number {
    return this.total;
  }

  /**
   * Characters a kept file costs (each known line's text and newline; 0 when not kept): a hot file carries its size,
   * a packed one gives it (no map of sizes beside the files). Public for `ColdFiles.settle` (long files go cold sooner).
   */
  sizeOf(file: string): number {
    const h = this.hot.get(file);
    if (h !== undefined) return h.size;
    const packed = this.files.get(file);
    return packed == null ? 0 : packedSize(packed);
  }

  /** After `file`, just stored or packed, changed by `delta` characters: marks it most recent, evicts the oldest files past the budget. */
  private touched(file: string, delta: number): void {
    if (!this.files.has(file)) return;
    const packed = this.files.get(file) as PackedFile | null;
    this.total += delta;
    const h = this.hot.get(file);
    if (h !== undefined) h.size += delta;
    this.files.delete(file);
    this.files.set(file, packed);
    for (const oldest of this.files.keys()) {
      if (this.total <= this.maxChars || oldest === file) break;
      this.forget(oldest);
    }
  }

  /** The hot file `file`, if it is one (marks the hot set used by this step). */
  private hotFile(file: string): HotFile | undefined {
    this.cold.used(file);
    const h = this.hot.get(file);
    if (h !== undefined) this.hotUsed = true;
    return h;
  }

  /**
   * Ends a step: a hot file the step did not use is packed now (it waits for its next use packed, not as a line
   * array of slices). Agents mostly come back to a file right away or not for a while.
   */
  settle(): void {
    if (!this.hotUsed && this.hot.size > 0) {
      const [file, h] = this.hot.entries().next().value!;
      this.cool(file, h);
    }
    this.hotUsed = false;
    this.cold.settle(this);
  }

  /** A file gone cold keeps its long texts deflated until a step reads it again (called by `ColdFiles.settle`). */
  goneCold(file: string): void {
    const packed = this.files.get(file);
    if (packed != null) this.files.set(file, compactPacked(packed, COLD_LEVEL, COLD_MIN_CHARS));
  }

  /** The file's sparse line array (a hot one itself, or an unpacked copy: callers change it and `store` it), undefined when not kept. */
  private load(file: string): Array<string | undefined> | undefined {
    const h = this.hotFile(file);
    if (h !== undefined) return lineArray(h);
    const packed = this.files.get(file);
    return packed == null ? undefined : unpack(packed);
  }

  /** Packs a hot file into `files` (in place: it keeps its recency position). */
  private cool(file: string, h: HotFile): void {
    this.hot.delete(file);
    if (!this.files.has(file)) return;
    const packed = h.text !== undefined ? packJoined(h.text, h.lines, h.previous) : pack(h.arr!, h.previous, h.named || (h.previous !== undefined && fileExtra(h.previous) !== undefined));
    releasePacked(h.previous, packed);
    this.files.set(file, packed);
  }

  /**
   * Makes `arr` (or the dense lines `text` joins, `lines` of them) the content of `file`, which becomes the most
   * recent hot file (a new file enters the recency order last).
   */
  private store(file: string, arr: Array<string | undefined> | undefined, named = false, text?: string, lines = 0): void {
    this.hotUsed = true;
    this.cold.used(file);
    const h = this.hot.get(file);
    if (h !== undefined) {
      this.hot.delete(file);
      this.hot.set(file, { arr, text, lines, previous: reusable(h.previous, text), named: h.named || named, size: h.size });
      return;
    }
    const previous = this.files.get(file) ?? undefined;
    this.hot.set(file, { arr, text, lines, previous: reusable(previous, text), named, size: previous === undefined ? 0 : packedSize(previous) });
    this.files.set(file, null);
    if (this.hot.size > HOT_FILES) {
      const [oldest, entry] = this.hot.entries().next().value!;
      this.cool(oldest, entry);
    }
  }

  /** Records lines seen in an observation (line number -> text). */
  observe(name: string, lines: Map<number, string>): void {
    const file = intern(name);
    if (lines.size === 0) return;
    let first = 0;
    const texts: string[] = [];
    for (const [n, text] of lines) {
      if (texts.length === 0) first = n;
      else if (n !== first + texts.length) return this.observeLines(file, lines);
      texts.push(text);
    }
    if (!this.observePacked(file, first, texts)) this.observeLines(file, lines);
  }

  /**
   * Records the lines `texts` seen from line `first` on: what `observe` does with the map of line `first + i` to
   * `texts[i]`, without the map (a ranged read's lines, every such step).
   */
  observeWindow(name: string, first: number, texts: readonly string[]): void {
    const file = intern(name);
    if (texts.length === 0 || this.observePacked(file, first, texts)) return;
    const lines = new Map<number, string>();
    for (let i = 0; i < texts.length; i++) lines.set(first + i, texts[i]!);
    this.observeLines(file, lines);
  }

  /**
   * {@link observeWindow} of `joined.split('\n')` (`count` lines, as a ranged read shows them): when the window
   * touches no known line of a packed file, the text is kept as its run without being split into lines first.
   */
  observeWindowText(name: string, first: number, joined: string, count: number): void {
    const file = intern(name);
    if (count === 0) return;
    const packed = this.packedTarget(file, first, count);
    const next = packed === false ? undefined : observeJoined(packed, first - 1, joined, count);
    if (packed === false || next === undefined) {
      this.observeWindow(file, first, joined.split('\n'));
      return;
    }
    releasePacked(packed, next.packed);
    this.files.set(file, next.packed);
    this.touched(file, next.delta);
  }

  /** `observe` into the file's line array (the lines are no window, or the file is a hot line array). */
  private observeLines(file: string, lines: Map<number, string>): void {
    const arr = this.load(file) ?? [];
    let delta = 0;
    let named = false;
    for (const [n, text] of lines) {
      if (n < 1) continue;
      delta += text.length + 1 - measureLine(arr[n - 1]);
      arr[n - 1] = text;
      if (!Number.isInteger(n) || n - 1 > MAX_INDEX) named = true;
    }
    // Kept as an array: a file viewed is often viewed again next, and a join now would be split again then (session-cost: +8 % CPU a step).
    this.store(file, arr, named);
    this.touched(file, delta);
  }

  /**
   * Records a window of lines (`texts` from line `first` on, as views give them) into a file that is not a hot line
   * array, in its packed form: the file stays packed and only the runs the window touches are joined again. False
   * when the lines are no such window or the file is a hot line array (then `observeLines` goes on).
   */
  private observePacked(file: string, first: number, texts: readonly string[]): boolean {
    const packed = this.packedTarget(file, first, texts.length);
    if (packed === false) return false;
    const next = observePacked(packed, first - 1, texts);
    if (next === undefined) return false;
    releasePacked(packed, next.packed);
    this.files.set(file, next.packed);
    this.touched(file, next.delta);
    return true;
  }

  /**
   * The packed form of `file` (undefined when not kept) that a window of `count` lines from line `first` goes into, or
   * false when the window is not one (`observePacked`) or the file is a hot line array. A hot file kept as one text is
   * packed first.
   */
  private packedTarget(file: string, first: number, count: number): PackedFile | undefined | false {
    if (!Number.isInteger(first) || first < 1) return false;
    if (first - 1 + count - 1 > MAX_INDEX) return false;
    const h = this.hotFile(file);
    if (h?.arr !== undefined) return false;
    // A hot file kept as one text is packed first (its text may be a slice of an observation).
    if (h !== undefined) this.cool(file, h);
    return this.files.get(file) ?? undefined;
  }

  /** Records the whole text of a file (create, write, full `cat`). */
  setText(name: string, text: string): void {
    const file = intern(name);
    const before = this.sizeOf(file);
    this.touched(file, this.storeText(file, text) - before);
  }

  /**
   * Stores the lines `splitLines(text)` gives as their join (one string, not a slice and a slot per line); returns the
   * characters they cost (what `measure` gives for them). The join is `text` less a trailing newline.
   */
  private storeText(file: string, text: string): number {
    const joined = text.endsWith('\n') ? text.slice(0, -1) : text;
    let lines = 1;
    for (let i = joined.indexOf('\n'); i >= 0; i = joined.indexOf('\n', i + 1)) lines++;
    this.store(file, undefined, false, joined, lines);
    // Each line's characters and its newline.
    return joined.length + 1;
  }

  /**
   * Its session is done (it ended): every kept text leaves the process-wide set of inflated texts without being
   * deflated, since deflating text nobody reads again is wasted work (with 16 sessions in turn, every deflate).
   * The workspace stays usable: a text read again joins that set again.
   */
  release(): void {
    for (const packed of this.files.values()) if (packed !== null) releasePacked(packed);
    for (const h of this.hot.values()) releasePacked(h.previous);
    // Nothing deflates them later either.
    this.cold.clear();
  }

  /**
   * No step is expected soon (its session is idle): the hot file is packed and every long text kept is deflated
   * (memory/packed-text.ts), whatever the compression setting; a text read later is inflated again (and stays so
   * until the next `compact`). Changes nothing a later operation gives: packing and deflating are lossless.
   */
  compact(): void {
    for (const [file, h] of [...this.hot]) this.cool(file, h);
    // Set in place: a file keeps its recency position.
    for (const [file, packed] of this.files) if (packed !== null) this.files.set(file, compactPacked(packed));
    // Every file is deflated now: none waits to be.
    this.cold.clear();
  }

  /** Forgets a file whose content changed in an unknown way. */
  forget(file: string): void {
    this.total -= this.sizeOf(file);
    const h = this.hotFile(file);
    if (h !== undefined) {
      releasePacked(h.previous);
      this.hot.delete(file);
    } else releasePacked(this.files.get(file) ?? undefined);
    this.files.delete(file);
  }

  /** The contiguous known text from line 1, and its line count. */
  prefix(file: string): { text: string; lines: number } | undefined {
    const h = this.hotFile(file);
    if (h !== undefined) {
      if (h.text !== undefined) return { text: h.text, lines: h.lines };
      const arr = h.arr!;
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
    return idx < 0 ? undefined : rangeAt(p.text, idx, old);
  }

  /**
   * True when the file's known lines are its prefix alone (nothing after the prefix to carry over), known without
   * unpacking it: a hot file kept as one text, or a packed one that is one run from line 1 ending the array.
   */
  private isPrefixOnly(file: string): boolean {
    const h = this.hotFile(file);
    if (h !== undefined) return h.text !== undefined;
    const packed = this.files.get(file);
    return packed != null && !('runs' in packed) && packed.start === 0;
  }

  /** Applies a str_replace: returns the replaced range, or undefined (the file is then forgotten). */
  replace(name: string, old: string, replacement: string): LineRange | undefined {
    const file = intern(name);
    // What locate() gives, with the prefix and the match kept for the replacement (a hot line array joins on each prefix()).
    const p = this.prefix(file);
    const idx = p === undefined || old === '' ? -1 : p.text.indexOf(old);
    const arr = idx < 0 ? undefined : this.isPrefixOnly(file) ? [] : this.load(file);
    if (!p || !arr) {
      this.forget(file);
      return undefined;
    }
    const range = rangeAt(p.text, idx, old);
    const text = p.text.slice(0, idx) + replacement + p.text.slice(idx + old.length);
    const tail = arr.slice(p.lines);
    if (tail.length === 0) {
      const size = this.storeText(file, text);
      this.touched(file, size - this.sizeOf(file));
      return range;
    }
    const next = [...splitLines(text), ...tail];
    this.store(file, next);
    this.touched(file, measure(next) - this.sizeOf(file));
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

/** Newlines in `text` before index `end` (indexOf finds them ~5x faster than a charCodeAt loop). */
function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The lines (1-based, inclusive) `old`, found at index `idx` of `text`, covers (a trailing newline ends its last line). */
function rangeAt(text: string, idx: number, old: string): LineRange {
  const start = countLines(text, idx) + 1;
  const body = old.endsWith('\n') ? old.slice(0, -1) : old;
  return [start, start + countLines(body, body.length)];
}

import { COLD_LEVEL } from '../memory/packed-text.js';
import { COLD_MIN_CHARS, ColdFiles } from './cold-files.js';
import { compactPacked, fileExtra, observeJoined, observePacked, pack, packJoined, packedPrefix, packedSize, releasePacked, unpack, type PackedFile } from './packed-lines.js';
import { HOT_FILES, lineArray, reusable, type HotFile } from './hot-file.js';
import { MAX_INDEX } from './line-ranges.js';

/**
 * The files of a shadow workspace as kept between operations (shadow-workspace.ts reads and changes them): sparse
 * line arrays (1-based; unknown lines are holes), bounded by `maxChars` of text, past which the files least
 * recently seen or changed are forgotten (their later states get no scope), so a long-lived server session cannot
 * grow without limit; the eviction is deterministic, so online still equals offline. Between operations each file is
 * kept packed (see packed-lines.ts), except the {@link HOT_FILES} edited last, which stay line arrays (or one joined
 * text) until they fall out of that set or a step does not use them ({@link WorkspaceFiles.settle}): an agent that
 * edits a file mostly does so again in its next step, and packing after each step cost about a tenth of a server
 * step. A view goes into the packed form directly (only the runs it touches are joined again: see `observePacked`).
 */
export class WorkspaceFiles {
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

  constructor(private readonly maxChars: number) {}

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
  protected touched(file: string, delta: number): void {
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
  protected hotFile(file: string): HotFile | undefined {
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
  protected load(file: string): Array<string | undefined> | undefined {
    const h = this.hotFile(file);
    if (h !== undefined) return lineArray(h);
    const packed = this.files.get(file);
    return packed == null ? undefined : unpack(packed);
  }

  /** Packs a hot file into `files` (in place: it keeps its recency position). */
  protected cool(file: string, h: HotFile): void {
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
  protected store(file: string, arr: Array<string | undefined> | undefined, named = false, text?: string, lines = 0): void {
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

  /**
   * Records a window of lines (`texts` from line `first` on, as views give them) into a file that is not a hot line
   * array, in its packed form: the file stays packed and only the runs the window touches are joined again. False
   * when the lines are no such window or the file is a hot line array (then `observeLines` goes on).
   */
  protected observePacked(file: string, first: number, texts: readonly string[]): boolean {
    const packed = this.packedTarget(file, first, texts.length);
    if (packed === false) return false;
    return this.setPacked(file, packed, observePacked(packed, first - 1, texts));
  }

  /**
   * {@link observePacked} of `joined.split('\n')` (`count` lines) when the window touches no run of the packed file:
   * the text becomes a run as it is, without a split into lines and a join (`observeJoined`). False otherwise.
   */
  protected observeJoinedPacked(file: string, first: number, joined: string, count: number): boolean {
    const packed = this.packedTarget(file, first, count);
    if (packed === false) return false;
    return this.setPacked(file, packed, observeJoined(packed, first - 1, joined, count));
  }

  /** Puts `next` in place of `packed` as `file`'s packed form; false when there is no `next`. */
  private setPacked(file: string, packed: PackedFile | undefined, next: { packed: PackedFile; delta: number } | undefined): boolean {
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

  /**
   * Stores the lines `splitLines(text)` gives as their join (one string, not a slice and a slot per line); returns the
   * characters they cost (what `measure` gives for them). The join is `text` less a trailing newline.
   */
  protected storeText(file: string, text: string): number {
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

  /**
   * True when the file's known lines are its prefix alone (nothing after the prefix to carry over), known without
   * unpacking it: a hot file kept as one text, or a packed one that is one run from line 1 ending the array.
   */
  protected isPrefixOnly(file: string): boolean {
    const h = this.hotFile(file);
    if (h !== undefined) return h.text !== undefined;
    const packed = this.files.get(file);
    return packed != null && !('runs' in packed) && packed.start === 0;
  }
}

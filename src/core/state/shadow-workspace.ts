import type { LineRange } from '../types.js';
import { splitLines } from './numbered-text.js';
import { intern } from '../memory/flat-string.js';
import { MAX_INDEX, measure, measureLine, rangeAt } from './line-ranges.js';
import { WorkspaceFiles } from './workspace-files.js';

/** Default budget of a shadow workspace: characters of file text kept per trajectory. */
export const DEFAULT_WORKSPACE_CHARS = 1_000_000;

/**
 * The file contents an agent has seen and changed (method.md section 3), per trajectory: what observations showed
 * and edits did to each file, kept as workspace-files.ts keeps them (sparse, bounded, packed between steps). Scope
 * lookup uses the known prefix from line 1.
 */
export class ShadowWorkspace extends WorkspaceFiles {
  constructor(maxChars = DEFAULT_WORKSPACE_CHARS) {
    super(maxChars);
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
    if (!this.observeJoinedPacked(file, first, joined, count)) this.observeWindow(file, first, joined.split('\n'));
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

  /** Records the whole text of a file (create, write, full `cat`). */
  setText(name: string, text: string): void {
    const file = intern(name);
    const before = this.sizeOf(file);
    this.touched(file, this.storeText(file, text) - before);
  }

  /** Where `old` sits in the known prefix (1-based inclusive lines), if it occurs there. */
  locate(file: string, old: string): LineRange | undefined {
    const p = this.prefix(file);
    if (!p || old === '') return undefined;
    const idx = p.text.indexOf(old);
    return idx < 0 ? undefined : rangeAt(p.text, idx, old);
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
    // As insert(): an edit that starts past the known lines would otherwise land right after them (splice clamps).
    if (range[0] - 1 > arr.length) {
      this.forget(file);
      return;
    }
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

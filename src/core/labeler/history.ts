import { KeyTable } from '../memory/key-table.js';
import { EMPTY_SCAN, type PythonScan } from './python-writes.js';

const MODIFIED = 1;
const CREATED = 2;
const SEEN = 4;

/** One of the history's file sets: a view of its one map of flags per file, with a Set's `has` and `add`. */
export class FileSet {
  constructor(
    private readonly flags: KeyTable,
    private readonly bit: number,
  ) {}

  has(file: string): boolean {
    return ((this.flags.get(file) ?? 0) & this.bit) !== 0;
  }

  add(file: string): this {
    const flags = this.flags.get(file) ?? 0;
    if ((flags & this.bit) === 0) this.flags.swap(file, flags | this.bit);
    return this;
  }
}

/** What the labeler remembers of a trajectory so far (rules 4-7 depend on it). */
export class LabelHistory {
  /** True once a source file (not test, not scratch) has been changed. */
  sourceEdited = false;
  /**
   * The three file sets below in one table (a file is in several; one table per session instead of three): a key
   * table of paths, not a `Map` (2 words a slot against the `Map`'s 3.5: ~0.2 KB less a session, bench/README.md "mem18").
   */
  private readonly flags = new KeyTable(8, 'any');
  /** Files the agent changed (any role), repo-relative. */
  readonly modified = new FileSet(this.flags, MODIFIED);
  /** Files the agent created, repo-relative. */
  readonly created = new FileSet(this.flags, CREATED);
  /** Files the agent has read or viewed (so a later shell write is not a creation). */
  readonly seen = new FileSet(this.flags, SEEN);
  /**
   * What the text the agent wrote into each file (editor creates and edits, heredocs) opens, so that a later
   * `python f.py` can be read for file writes: its scan, not the text. Only scans that find something: a file
   * whose scan is empty (most files a session writes) reads as one never written (script-writes.ts, `pythonUse`:
   * an empty scan adds nothing to a run's), and the map is made with the first such scan (bench/README.md "mem20").
   */
  private scans: Map<string, PythonScan> | undefined;

  /** The scan of what the agent wrote into `file`, undefined when none was kept (never written, or its scan is empty). */
  script(file: string): PythonScan | undefined {
    return this.scans?.get(file);
  }

  /** Keeps `scan` as what `file` now holds (an empty scan forgets the file's earlier one). */
  setScript(file: string, scan: PythonScan): void {
    if (scan !== EMPTY_SCAN) (this.scans ??= new Map()).set(file, scan);
    else this.scans?.delete(file);
  }

  /** True when the agent modified or created `file` earlier. */
  touched(file: string): boolean {
    return ((this.flags.get(file) ?? 0) & (MODIFIED | CREATED)) !== 0;
  }
}

/**
 * Compact storage of a shadow-workspace file. The workspace's operations are
 * defined on a sparse line array (1-based line n at index n − 1, unknown lines
 * are holes); between operations a file is kept packed: each run of
 * consecutive known lines as one text joined with `\n` (deflated when long,
 * see memory/packed-text.ts), so a kept file costs its compressed characters, not a
 * string header per line, a slot per hole and the whole observation each line
 * was sliced out of. `unpack(pack(a))` has the
 * same length, elements and named properties as `a` (undefined values read as holes).
 */
import { flatten } from '../memory/flat-string.js';
import { compactText, packText, packedLength, releaseText, unpackText, type PackedText } from '../memory/packed-text.js';
import { exact } from '../memory/small-arrays.js';

/** Consecutive known lines starting at index `start`. */
export interface PackedRun {
  readonly start: number;
  readonly count: number;
  /** The lines joined with `\n`, packed (empty when `lines` is set). */
  readonly text: PackedText;
  /** The lines themselves, only when one of them contains a newline (the join would be ambiguous). */
  readonly lines?: readonly string[];
}

/** A packed sparse line array of several runs, or one that does not end the array, or with named properties. */
export interface PackedRuns {
  readonly length: number;
  readonly runs: readonly PackedRun[];
  /** What {@link packedSize} gives: the runs' and the named lines' characters and newlines. */
  readonly size: number;
  /** Non-index properties the array carried (lines numbered past the array index range). */
  readonly extra?: ReadonlyArray<readonly [string, string]>;
}

/**
 * A packed sparse line array. Most files a session keeps are one run that ends the array: such a file is its run
 * (one object instead of a file, a runs array and a run: ~100 B less a file kept).
 */
export type PackedFile = PackedRuns | PackedRun;

/** The runs of a packed file. */
export function fileRuns(file: PackedFile): readonly PackedRun[] {
  return 'runs' in file ? file.runs : [file];
}

/** The named properties a packed file keeps, if any. */
export function fileExtra(file: PackedFile): PackedRuns['extra'] {
  return 'runs' in file ? file.extra : undefined;
}

/** Characters a run's lines cost: each line's text and newline. */
function runSize(run: PackedRun): number {
  if (run.lines === undefined) return packedLength(run.text) + 1;
  let n = 0;
  for (const line of run.lines) n += line.length + 1;
  return n;
}

/**
 * Characters the known lines of a packed file cost, each line's text and newline, named ones too: what the shadow
 * workspace counts against its budget, kept here instead of in a map beside the files.
 */
export function packedSize(file: PackedFile): number {
  return 'runs' in file ? file.size : runSize(file);
}

/** The length of the array a packed file stands for. */
export function fileLength(file: PackedFile): number {
  return 'runs' in file ? file.length : file.start + file.count;
}

const MAX_INDEX = 2 ** 32 - 2;

function indexOf(key: string): number | undefined {
  const n = Number(key);
  return Number.isInteger(n) && n >= 0 && n <= MAX_INDEX && String(n) === key ? n : undefined;
}

function packRun(start: number, lines: string[], previous: PackedFile | undefined): PackedRun {
  if (lines.some((l) => l.includes('\n'))) return { start, count: lines.length, text: '', lines: lines.map(flatten) };
  const same = (previous === undefined ? undefined : fileRuns(previous))?.find((r) => r.start === start && r.count === lines.length && r.lines === undefined);
  if (same !== undefined && lines.length > 1) {
    const joined = lines.join('\n');
    return unpackText(same.text) === joined ? same : { start, count: lines.length, text: packText(joined, true) };
  }
  // A join of two or more lines is a fresh flat string; a single line may be a slice of an observation.
  return { start, count: lines.length, text: lines.length === 1 ? packText(lines[0]!) : packText(lines.join('\n'), true) };
}

/**
 * What `pack(text.split('\n'), previous)` gives for the join of `lines` lines none of which holds a newline (a hot
 * file kept as its join), without splitting and joining it again.
 */
export function packJoined(text: string, lines: number, previous: PackedFile | undefined): PackedRun {
  if (lines > 1 && previous !== undefined) {
    const same = fileRuns(previous).find((r) => r.start === 0 && r.count === lines && r.lines === undefined);
    if (same !== undefined && unpackText(same.text) === text) return same;
  }
  return { start: 0, count: lines, text: packText(text) };
}

/** Arrays up to this length are scanned by index unless they look sparse; longer ones always by their keys. */
const DENSE_SCAN_MAX = 1 << 20;

/** Below this length the index scan is cheap whatever the array holds. */
const SPARSE_PROBE_MIN = 256;

/**
 * True when 8 probes spread over `arr` find at most 2 known lines. A file seen in a window far from its start
 * (`sed -n 2000,2050p`) is a sparse array in V8's dictionary mode, where each index read is a hash lookup: a
 * scan of its 2,400 slots cost ~50 µs for its 25 lines, its keys ~5 µs. A dense array keeps the index scan
 * (its keys would cost ~4x the scan).
 */
function looksSparse(arr: ReadonlyArray<string | undefined>): boolean {
  if (arr.length < SPARSE_PROBE_MIN) return false;
  let known = 0;
  for (let p = 0; p < 8; p++) if (arr[Math.floor((p * (arr.length - 1)) / 7)] !== undefined) known++;
  return known <= 2;
}

/** How {@link pack} walks an array: by index, by its keys, or as {@link looksSparse} says (exported for tests: both walks pack alike). */
export type PackWalk = 'index' | 'keys' | 'auto';

/**
 * Packs a sparse line array (holes and undefined elements are unknown lines).
 * Runs equal to one of `previous` (the file's packing before the operation)
 * are reused as they are. `named`: the array may carry non-index properties
 * (lines numbered past the index range), which are then kept too.
 */
export function pack(arr: ReadonlyArray<string | undefined>, previous?: PackedFile, named = false, walk: PackWalk = 'auto'): PackedFile {
  const runs: PackedRun[] = [];
  const extra: Array<readonly [string, string]> = [];
  let start = -1;
  let cur: string[] = [];
  const add = (i: number, value: string | undefined): void => {
    if (value === undefined) return;
    if (cur.length > 0 && i !== start + cur.length) {
      runs.push(packRun(start, cur, previous));
      cur = [];
    }
    if (cur.length === 0) start = i;
    cur.push(value);
  };
  const sparse = walk === 'keys' || (walk === 'auto' && (arr.length > DENSE_SCAN_MAX || looksSparse(arr)));
  if (!sparse) for (let i = 0; i < arr.length; i++) add(i, arr[i]);
  if (sparse || named) {
    for (const key of Object.keys(arr)) {
      const value = (arr as unknown as Record<string, string | undefined>)[key];
      const i = indexOf(key);
      if (i === undefined) {
        if (value !== undefined) extra.push([flatten(key), flatten(value)]);
      } else if (sparse) add(i, value);
    }
  }
  if (cur.length > 0) runs.push(packRun(start, cur, previous));
  const only = runs[0];
  if (extra.length === 0 && runs.length === 1 && only!.start + only!.count === arr.length) return only!;
  let size = 0;
  for (const run of runs) size += runSize(run);
  for (const [, value] of extra) size += value.length + 1;
  // slice: an exact-size copy (a pushed-to array keeps spare capacity).
  return extra.length > 0 ? { length: arr.length, runs: runs.slice(), size, extra } : { length: arr.length, runs: runs.slice(), size };
}

/**
 * What `pack(a, file)` gives for `a` = `unpack(file)` (empty when `file` is undefined) with `lines` set from index
 * `start` on, and how much {@link packedSize} grows, without unpacking the file: only the runs the window overlaps or
 * touches are split and joined again (a view of a file costs its window, not the whole file). Undefined when the
 * file carries named properties (the caller unpacks it then).
 */
export function observePacked(file: PackedFile | undefined, start: number, lines: readonly string[]): { packed: PackedFile; delta: number } | undefined {
  if (file !== undefined && fileExtra(file) !== undefined) return undefined;
  const old = file === undefined ? [] : fileRuns(file);
  const end = start + lines.length;
  const runs: PackedRun[] = [];
  let i = 0;
  // Runs that end before the window's first line and do not touch it stay as they are; so do those after it.
  while (i < old.length && old[i]!.start + old[i]!.count < start) runs.push(old[i++]!);
  let j = i;
  while (j < old.length && old[j]!.start <= end) j++;
  // A window seen again inside one run, unchanged (a file viewed again): the file as it is.
  if (j === i + 1 && sameLines(old[i]!, start, lines)) return { packed: file!, delta: 0 };
  // Runs i..j-1 and the window are one run of consecutive lines from `from` (each run touches the window).
  const from = i < j ? Math.min(start, old[i]!.start) : start;
  const to = i < j ? Math.max(end, old[j - 1]!.start + old[j - 1]!.count) : end;
  const cur = new Array<string>(to - from);
  for (let k = i; k < j; k++) {
    const run = old[k]!;
    const known = run.lines ?? unpackText(run.text).split('\n');
    for (let n = 0; n < run.count; n++) cur[run.start - from + n] = known[n]!;
  }
  let delta = 0;
  for (let n = 0; n < lines.length; n++) {
    const at = start - from + n;
    const was = cur[at];
    delta += lines[n]!.length + 1 - (was === undefined ? 0 : was.length + 1);
    cur[at] = lines[n]!;
  }
  runs.push(packRun(from, cur, file));
  for (; j < old.length; j++) runs.push(old[j]!);
  const length = Math.max(file === undefined ? 0 : fileLength(file), end);
  const only = runs[0]!;
  if (runs.length === 1 && only.start + only.count === length) return { packed: only, delta };
  return { packed: { length, runs: exact(runs), size: (file === undefined ? 0 : packedSize(file)) + delta }, delta };
}

/**
 * {@link observePacked} of `joined.split('\n')` (`count` lines) when that window touches no run of `file`: the window is
 * a run of its own, packed from `joined` as it is, without splitting it into lines and joining them again (a ranged
 * read of lines not seen yet; bench/README.md, "life28"). Undefined when it touches a run or the file carries named
 * properties (the caller splits then). `joined` holds exactly `count` lines: `count - 1` newlines.
 */
export function observeJoined(file: PackedFile | undefined, start: number, joined: string, count: number): { packed: PackedFile; delta: number } | undefined {
  if (file !== undefined && fileExtra(file) !== undefined) return undefined;
  const old = file === undefined ? [] : fileRuns(file);
  const end = start + count;
  let i = 0;
  while (i < old.length && old[i]!.start + old[i]!.count < start) i++;
  if (i < old.length && old[i]!.start <= end) return undefined;
  // What packRun makes of the lines: their join, which is `joined` (copied by packText unless pooled already).
  const run: PackedRun = { start, count, text: packText(joined) };
  // Each line's text and newline.
  const delta = joined.length + 1;
  const length = Math.max(file === undefined ? 0 : fileLength(file), end);
  if (old.length === 0 && start + count === length) return { packed: run, delta };
  const runs = old.slice(0, i);
  runs.push(run);
  for (let j = i; j < old.length; j++) runs.push(old[j]!);
  return { packed: { length, runs: exact(runs), size: (file === undefined ? 0 : packedSize(file)) + delta }, delta };
}

/**
 * True when `lines` are the lines of `run` from index `start` on (all inside it), found in its joined text without
 * splitting it. A line holding a newline is never taken as equal (it would span two of the run's lines).
 */
function sameLines(run: PackedRun, start: number, lines: readonly string[]): boolean {
  if (start < run.start || start + lines.length > run.start + run.count) return false;
  if (run.lines !== undefined) return lines.every((line, n) => run.lines![start - run.start + n] === line);
  const text = unpackText(run.text);
  let at = 0;
  for (let n = run.start; n < start; n++) at = text.indexOf('\n', at) + 1;
  for (const line of lines) {
    const next = at + line.length;
    if (!text.startsWith(line, at) || (next < text.length && text.charCodeAt(next) !== 10) || line.includes('\n')) return false;
    at = next + 1;
  }
  return true;
}

/** The sparse line array a packed file stands for. */
export function unpack(file: PackedFile): Array<string | undefined> {
  const arr: Array<string | undefined> = [];
  for (const run of fileRuns(file)) {
    const lines = run.lines ?? unpackText(run.text).split('\n');
    for (let i = 0; i < run.count; i++) arr[run.start + i] = lines[i];
  }
  const length = fileLength(file);
  if (arr.length < length) arr.length = length;
  const extra = fileExtra(file);
  if (extra) for (const [k, v] of extra) (arr as unknown as Record<string, string>)[k] = v;
  return arr;
}

/** The contiguous known text from line 1 and its line count (what `arr.slice(0, n).join('\n')` gives), without unpacking. */
export function packedPrefix(file: PackedFile): { text: string; lines: number } | undefined {
  const run = fileRuns(file)[0];
  if (run?.start !== 0) return undefined;
  return { text: run.lines ? run.lines.join('\n') : unpackText(run.text), lines: run.count };
}

/** Marks a packed file as replaced or forgotten: its texts not kept by `next` leave the hot set without being deflated. */
export function releasePacked(file: PackedFile | undefined, next?: PackedFile): void {
  if (file === undefined) return;
  const kept = next === undefined ? undefined : fileRuns(next);
  for (const run of fileRuns(file)) if (!kept?.includes(run)) releaseText(run.text);
}

/**
 * A packed file's texts deflated (its session is idle, see {@link compactText}, or the file went unused for a while);
 * they are inflated again when read. The file itself when no run changed form, else a copy of it whose runs stand
 * for the same lines. `level`: zlib's; `minChars`: shorter texts are left as they are.
 */
export function compactPacked(file: PackedFile, level?: number, minChars = 0): PackedFile {
  const runs = fileRuns(file);
  let changed = false;
  const next = runs.map((run) => {
    if (run.lines !== undefined || packedLength(run.text) < minChars) return run;
    const text = compactText(run.text, level);
    if (text === run.text) return run;
    changed = true;
    return { start: run.start, count: run.count, text };
  });
  if (!changed) return file;
  return 'runs' in file ? { ...file, runs: next } : next[0]!;
}

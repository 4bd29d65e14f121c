/**
 * A hot file of a shadow workspace: one of the {@link HOT_FILES} stored last, kept between operations as a line array
 * or one joined text instead of packed (shadow-workspace.ts), with what it keeps of its packing before.
 */
import { releasePacked, type PackedFile } from './packed-lines.js';

/**
 * Files kept as line arrays between operations (the most recently stored ones). Their lines may
 * be slices that keep whole observations alive: 4 cost ~17 KB more per 100-step session
 * (bench/memory) for ~2 % less CPU, so 1.
 */
export const HOT_FILES = 1;

/** A hot file: its line array, or (after a whole text or a str_replace) the join of its dense lines and their count. */
export interface HotFile {
  arr: Array<string | undefined> | undefined;
  text: string | undefined;
  lines: number;
  /** The file's packing before it became hot (runs equal to it are reused when it cools), while it is a line array (see {@link reusable}). */
  previous: PackedFile | undefined;
  named: boolean;
  /** Characters its known lines cost (what `measure` gives for them, named lines too). */
  size: number;
}

/**
 * What a hot file keeps of its packing before it became hot: all of it while the file is a line array (its runs the
 * array leaves unchanged are reused when it cools), none once a whole text replaced it (a run is reused only if it
 * is that whole text: a no-op edit), so an edited file does not keep its old text too (~0.6 KB a disjoint session).
 */
export function reusable(previous: PackedFile | undefined, text: string | undefined): PackedFile | undefined {
  if (text === undefined) return previous;
  releasePacked(previous);
  return undefined;
}

/** A hot file's sparse line array (a new one when it is kept as its join: callers change it and store it). */
export function lineArray(h: HotFile): Array<string | undefined> {
  return h.arr ?? h.text!.split('\n');
}

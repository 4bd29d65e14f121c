/**
 * Irrelevant exploration (method.md section 10): E states on files no PTA node
 * touches; without a PTA, E states on files that are never edited and touched
 * by no other state (read once, never used again). Grouped per file.
 * Without a PTA, a search or listing of a folder another state went into or of
 * the whole tree, and a file another state names by a longer or shorter path,
 * were used: 319 of the rule's 663 firings on ../shared were such
 * (docs/detectors.md, "Irrelevant exploration without a PTA"); and a failed E state (its path does not exist) read
 * nothing.
 */
import { runToEnd, STATES_PER_STEP } from '../in-steps.js';
import type { State } from '../types.js';

export interface IrrelevantFile {
  file: string;
  steps: number[];
  tool: string;
}

/**
 * The set of a PTA's file list, made once per list: a list is never changed once made (a PTA's insert replaces it),
 * and each session's end built the set again (bench/README.md, "Lifecycle CPU per step, sixth pass").
 */
const fileSets = new WeakMap<readonly string[], ReadonlySet<string>>();

export function ptaFileSet(files: readonly string[]): ReadonlySet<string> {
  let set = fileSets.get(files);
  if (set === undefined) fileSets.set(files, (set = new Set(files)));
  return set;
}

export function findIrrelevantExploration(states: readonly State[], ptaFiles: readonly string[] | undefined): IrrelevantFile[] {
  return runToEnd(findIrrelevantExplorationInSteps(states, ptaFiles));
}

/**
 * {@link findIrrelevantExploration} in steps: it yields every {@link STATES_PER_STEP} states of each of its passes (two
 * without a PTA, one with).
 * `known`: the set of `ptaFiles` when the caller has it ({@link ptaFileSet}).
 */
export function* findIrrelevantExplorationInSteps(
  states: readonly State[],
  ptaFiles: readonly string[] | undefined,
  known: ReadonlySet<string> | undefined = ptaFiles === undefined ? undefined : new Set(ptaFiles),
): Generator<void, IrrelevantFile[]> {
  const byFile = new Map<string, IrrelevantFile>();
  const touches = new Map<string, number>();
  const edited = new Set<string>();
  // The counts of touches and edits serve only without a PTA: with one, a file is irrelevant when the PTA never touches it.
  for (let i = 0; known === undefined && i < states.length; i++) {
    if (i > 0 && i % STATES_PER_STEP === 0) yield;
    const s = states[i]!; // i < length
    if (s.file === undefined) continue;
    touches.set(s.file, (touches.get(s.file) ?? 0) + 1);
    if (s.changesFile) edited.add(s.file);
  }
  for (let i = 0; i < states.length; i++) {
    if (i > 0 && i % STATES_PER_STEP === 0) yield;
    const s = states[i]!; // i < length
    if (s.stage !== 'E' || s.file === undefined) continue;
    // Without a PTA a failed read (`cat` of a path that does not exist) explored nothing: its waste is a tool failure
    // (ATFR's path_not_found), not a file read once and never used (docs/detectors.md, "A failed read").
    const irrelevant = known !== undefined ? !known.has(s.file) : !s.failed && !edited.has(s.file) && touches.get(s.file) === 1 && !usedElsewhere(s.file, touches.keys());
    if (!irrelevant) continue;
    const item = byFile.get(s.file);
    if (item === undefined) byFile.set(s.file, { file: s.file, steps: [s.t], tool: s.tool });
    else item.steps.push(s.t);
  }
  return [...byFile.values()];
}

const trimSlash = (p: string): string => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);

/**
 * True when a path touched once was used all the same: it is the whole tree (`.`, `/`, `..`), a folder another touched
 * path lies in (a listing or search before reading what it found), or the same file as another touched path spelled
 * longer or shorter (`serializer.py` not found, then `/django__django/django/db/migrations/serializer.py`). Asked only
 * of the few paths touched once: one pass over the touched paths, nothing kept.
 */
function usedElsewhere(raw: string, touched: Iterable<string>): boolean {
  const file = trimSlash(raw);
  if (file === '' || file === '.' || file === './' || file === '/' || file === '..') return true;
  const inside = `${file}/`;
  const tail = `/${file}`;
  for (const other of touched) {
    if (other === raw) continue;
    const o = trimSlash(other);
    if (o === file || o.startsWith(inside) || o.endsWith(tail) || endsWithPath(file, o)) return true;
  }
  return false;
}

/** `file` ends with `/` then `end` (tested without building the string: called for every touched path). */
function endsWithPath(file: string, end: string): boolean {
  return end.length > 0 && file.length > end.length && file.endsWith(end) && file.charCodeAt(file.length - end.length - 1) === 47; // '/'
}

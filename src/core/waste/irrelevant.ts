/**
 * Irrelevant exploration (method.md section 7): E states on files no PTA node
 * touches; without a PTA, E states on files that are never edited and touched
 * by no other state (read once, never used again). Grouped per file.
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
    const irrelevant = known !== undefined ? !known.has(s.file) : !edited.has(s.file) && touches.get(s.file) === 1;
    if (!irrelevant) continue;
    const item = byFile.get(s.file);
    if (item === undefined) byFile.set(s.file, { file: s.file, steps: [s.t], tool: s.tool });
    else item.steps.push(s.t);
  }
  return [...byFile.values()];
}

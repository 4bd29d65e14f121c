/**
 * What the evidence trackers read of one step, computed once per step from the raw
 * step and the labeler's state and label: pure, and O(length of the step's text) with
 * the text capped, so a step costs the same at step 2,000 as at step 10.
 */
import { isTestPath } from '../labeler/file-roles.js';
import type { Label, State, Step } from '../types.js';
import { errorKind, tracePaths, type ErrorKind } from './errors.js';
import { scanOutput, type ScanAt } from './output-lines.js';
import { parseDiff, type PatchFile } from './patch.js';
import type { TestRun } from './runners/types.js';
import { scanTestLines } from './test-lines.js';
import { parseTestRun, verdictOf, type Verdict } from './test-results.js';

/**
 * Only the last this many characters of a command's output are read **(choice)**: runners
 * print their summaries, and tracebacks end, at the bottom; a 300 KB log costs no more than
 * 16 KB (on the corpus runs the mean evidence cost per step halved from a 64 KB window; a
 * traceback followed by more than 16 KB of other output is missed).
 */
export const OUTPUT_WINDOW = 16_384;

export interface StepEvidence {
  /** The step changed a non-test, non-scratch source file (the label's `sourceEdit`). */
  sourceEdit: boolean;
  /** The file the step changed and what it is (`other`: scratch, notes, unknown). */
  changed?: { file: string; role: 'source' | 'test' | 'other'; lines: number };
  /** The file a read or search step looked into. */
  read?: string;
  /** A test or reproduction run (`run_test`, `run_script`, or any command whose output has a test summary), keyed by its file or else its command hash, with its verdict. */
  run?: { key: string; verdict: Verdict };
  /** The test summary of the output, if any. */
  testRun: TestRun | null;
  /** A traceback, compiler or syntax error in a command's output. */
  error: ErrorKind | null;
  /** Files named by that error. */
  tracePaths: readonly string[];
  /** The submitted patch, when this is a finish step whose observation holds a diff. */
  patch: PatchFile[] | null;
}

/** Lines of a text (`split('\n').length`, 0 for none), counted without splitting it. */
function lineCount(s: string | undefined): number {
  if (s === undefined || s === '') return 0;
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Changed lines an edit action implies (old plus new text; shell writes count 1: their text is not seen). */
export function editLines(step: Step): number {
  const a = step.action;
  if (a.kind !== 'edit') return 1;
  switch (a.op) {
    case 'str_replace':
      return lineCount(a.old) + lineCount(a.new);
    case 'insert':
      return lineCount(a.new);
    case 'create':
    case 'write':
      return lineCount(a.text);
    case 'replace_lines':
      return (a.range !== undefined ? a.range[1] - a.range[0] + 1 : 0) + lineCount(a.new);
    case 'undo':
      return 0;
  }
}

const NONE: readonly string[] = Object.freeze([]);

const changedRole = (file: string, sourceEdit: boolean): 'source' | 'test' | 'other' => (sourceEdit ? 'source' : isTestPath(file) ? 'test' : 'other');

/**
 * What of a step's content to read, by the trackers that need it: a forecaster computes only the evidence its
 * model reads (evidence.ts `evidenceNeeds`). A part not read is absent: `testRun` and `error` null, no
 * `tracePaths`, no `patch`, so the runs a test summary reveals are not seen either.
 */
export const READ = { tests: 1, errors: 2, traces: 4, patch: 8 } as const;
export const READ_ALL = READ.tests | READ.errors | READ.traces | READ.patch;

/** An evidence object to pass as `into` (its fields are all overwritten by each call). */
export function emptyStepEvidence(): StepEvidence {
  return { sourceEdit: false, changed: undefined, read: undefined, run: undefined, testRun: null, error: null, tracePaths: NONE, patch: null };
}

/** Where the scan of the step in hand saw the first pytest summary line: written and read within one call. */
const scanAt: ScanAt = { pytestSummary: 0 };

/**
 * The evidence of one step; `read`: what of its content to read (a mask of {@link READ}, default all). `into`: an
 * object to write it into and return, for a caller that reads it before the next call (the evidence tracker: one
 * object a session instead of one a step); by default a new one.
 */
export function stepEvidence(step: Step, state: State, label: Label, read: number = READ_ALL, into?: StepEvidence): StepEvidence {
  const kind = step.action.kind;
  const terminal = kind === 'shell' || kind === 'code' || kind === 'other';
  const raw = step.observation ?? '';
  const out = terminal && (read & (READ.tests | READ.errors | READ.traces)) !== 0 ? (raw.length > OUTPUT_WINDOW ? raw.slice(-OUTPUT_WINDOW) : raw) : '';
  // A compiler location matters only to the error readers (errors.ts); a `grep -n` output is one on every line. Without
  // them only the test readers read the scan: its test shapes alone (test-lines.ts; the same flags for them).
  const errors = (read & (READ.errors | READ.traces)) !== 0;
  const mask = out === '' ? 0 : errors ? scanOutput(out, true, scanAt) : scanTestLines(out, scanAt);
  const testRun = mask !== 0 && (read & READ.tests) !== 0 ? parseTestRun(out, mask, scanAt.pytestSummary) : null;
  const error = mask !== 0 && errors ? errorKind(out, mask) : null;
  // The state's and label's fields read once each: states come in several shapes (a literal per set of optional
  // fields), so each read is a megamorphic lookup that the compiler does not merge with a later one.
  const file = label.file;
  const sourceEdit = label.sourceEdit;
  const stateKind = state.kind;
  const changed = label.changesFile && file !== undefined ? { file, role: changedRole(file, sourceEdit), lines: editLines(step) } : undefined;
  let run: StepEvidence['run'];
  if (stateKind === 'run_test' || stateKind === 'run_script' || testRun !== null) {
    const parsed = testRun !== null ? verdictOf(testRun) : null;
    run = { key: file ?? state.hash, verdict: parsed ?? (state.failed ? 'fail' : 'pass') };
  }
  // Every field set, absent ones to undefined: one object shape for every step, so the trackers' reads of it stay monomorphic.
  const e = into ?? emptyStepEvidence();
  e.sourceEdit = sourceEdit;
  e.changed = changed;
  e.read = (stateKind === 'read' || stateKind === 'search') && file !== undefined ? file : undefined;
  e.run = run;
  e.testRun = testRun;
  e.error = error;
  e.tracePaths = error !== null && (read & READ.traces) !== 0 ? tracePaths(out, error) : NONE;
  e.patch = stateKind === 'finish' && (read & READ.patch) !== 0 ? parseDiff(raw) : null;
  return e;
}

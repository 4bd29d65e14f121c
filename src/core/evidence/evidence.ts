/**
 * Content-aware evidence of a run (issue 26, item 1): what its commands' output and its
 * patch say, kept by online counters fed one step at a time (O(1) per step; online equals
 * batch at every prefix). Every value is harness-invariant by construction: a 0/1 flag,
 * a share in [0, 1], a verdict in {−1, 0, 1}, or ln(1 + a count of files or patch lines);
 * never a raw step or token count. The forecaster reads some (features.ts); the composite none.
 *
 *   const ev = createEvidenceTracker();
 *   for (const step of steps) { const { label, state } = builder.next(step); ev.add(step, state, label); }
 *   ev.values().checkAfterEdit; ev.vector(); // EVIDENCE_NAMES order
 */
import type { Label, State, Step } from '../types.js';
import { createErrorTracker } from './error-tracker.js';
import { createPatchTracker } from './patch-tracker.js';
import { emptyStepEvidence, READ, READ_ALL, stepEvidence } from './step-evidence.js';
import { createTargetTracker } from './target-tracker.js';
import { createCheckAfterEditTracker, createReproTracker, createTestResultTracker } from './test-trackers.js';

/** Names of the evidence values, in vector order, with their scale. */
export const EVIDENCE_NAMES = [
  'testSeen', // 0/1: a test summary was printed
  'testPassed', // 0/1: the last test summary passed
  'testFailed', // 0/1: the last test summary failed (failures, errors or a failed build)
  'testPassShare', // [0, 1]: passed / all tests of the last summary (0 when none)
  'checkAfterEdit', // {−1, 0, 1}: the last test or reproduction run after the last source edit failed / none / passed
  'reproFailedBeforeEdit', // 0/1: a run failed before the first source edit
  'reproFlipped', // 0/1: a run that failed before the first source edit passes on its latest run after it
  'errorSinceEdit', // 0/1: a traceback, compiler or syntax error in output since the last source edit
  'errorLast', // 0/1: the last output with a test summary or an error held an error
  'patchEmpty', // 0/1: the final patch changes no source file
  'patchTestOnly', // 0/1: it changes test files only
  'patchFiles', // ln(1 + source files changed)
  'patchLines', // ln(1 + source lines changed)
  'patchCompact', // [0, 1]: 0 for an empty patch, else 1 / (1 + patchLines): small non-empty patches highest
  'editedReadShare', // [0, 1]: edited source files read before their first edit
  'editedTraceShare', // [0, 1]: edited source files an error named before their first edit
] as const;

export type EvidenceName = (typeof EVIDENCE_NAMES)[number];
export type EvidenceValues = Record<EvidenceName, number>;

export interface EvidenceTracker {
  /** Adds the next step with the labeler's verdict on it. */
  add(step: Step, state: State, label: Label): void;
  /** The evidence of the steps added so far, by name. */
  values(): EvidenceValues;
  /** The same in {@link EVIDENCE_NAMES} order (a fresh array). */
  vector(): number[];
  /** The same written into `out` from `offset` (no allocation: the forecaster reads it every step). */
  write(out: Float64Array, offset: number): void;
  /** Whether the patch values come from a submitted diff (1) or from the edits seen (0); a harness trait, so not in the vector. */
  readonly patchSubmitted: number;
  readonly length: number;
}

/**
 * Which trackers a set of evidence values needs, and what of each step's content they read. A forecaster
 * asks only for its model's values: the rest cost a pass over the output (errors, their frames) for nothing.
 */
const GROUPS = [
  { tracker: 'tests', names: ['testSeen', 'testPassed', 'testFailed', 'testPassShare'], read: READ.tests },
  { tracker: 'check', names: ['checkAfterEdit'], read: READ.tests },
  { tracker: 'repro', names: ['reproFailedBeforeEdit', 'reproFlipped'], read: READ.tests },
  // errorLast: the last output with a test summary or an error, so it reads the summaries too.
  { tracker: 'errors', names: ['errorSinceEdit', 'errorLast'], read: READ.tests | READ.errors },
  { tracker: 'patch', names: ['patchEmpty', 'patchTestOnly', 'patchFiles', 'patchLines', 'patchCompact'], read: READ.patch },
  { tracker: 'target', names: ['editedReadShare', 'editedTraceShare'], read: READ.traces },
] as const satisfies ReadonlyArray<{ tracker: string; names: readonly EvidenceName[]; read: number }>;

type TrackerName = (typeof GROUPS)[number]['tracker'];

type Needs = { trackers: ReadonlySet<TrackerName>; read: number };
const ALL_NEEDS: Needs = { trackers: new Set(GROUPS.map((g) => g.tracker)), read: READ_ALL };
/** Per list of names (a model's `features`, the same array for every session of the model): worked out once. */
const needsOf = new WeakMap<readonly string[], Needs>();

/** The trackers and the content mask that `names` need (all of them when absent). */
export function evidenceNeeds(names?: readonly string[]): Needs {
  if (names === undefined) return ALL_NEEDS;
  let needs = needsOf.get(names);
  if (needs === undefined) needsOf.set(names, (needs = computeNeeds(names)));
  return needs;
}

function computeNeeds(names: readonly string[]): Needs {
  const wanted = new Set(names);
  const groups = GROUPS.filter((g) => g.names.some((n) => wanted.has(n)));
  return { trackers: new Set(groups.map((g) => g.tracker)), read: groups.reduce((m, g) => m | g.read, 0) };
}

/**
 * A tracker of every evidence value, or with `only` of those it names (and the others in the same group): a value
 * not tracked reads NaN, so a model that reads one by mistake scores NaN rather than a silent 0.
 */
export function createEvidenceTracker(only?: readonly string[]): EvidenceTracker {
  return new Evidence(evidenceNeeds(only));
}

const NO_TESTS = { seen: NaN, passed: NaN, failed: NaN, passShare: NaN };
const NO_REPRO = { failedBeforeEdit: NaN, flipped: NaN };
const NO_ERRORS = { sinceEdit: NaN, last: NaN };
const NO_PATCH = { empty: NaN, testOnly: NaN, files: NaN, lines: NaN, submitted: NaN };
const NO_TARGET = { readShare: NaN, traceShare: NaN };

/** A class: an object literal with getters is built by the runtime (~1 µs a session); methods are shared. */
class Evidence implements EvidenceTracker {
  private readonly tests;
  private readonly check;
  private readonly repro;
  private readonly errors;
  private readonly patch;
  private readonly target;
  private readonly read: number;
  /** Each step's evidence is written here: the trackers read it within `add` and keep none of it. */
  private readonly scratch = emptyStepEvidence();
  private n = 0;

  constructor(needs: Needs) {
    const t = needs.trackers;
    this.read = needs.read;
    this.tests = t.has('tests') ? createTestResultTracker() : undefined;
    this.check = t.has('check') ? createCheckAfterEditTracker() : undefined;
    this.repro = t.has('repro') ? createReproTracker() : undefined;
    this.errors = t.has('errors') ? createErrorTracker() : undefined;
    this.patch = t.has('patch') ? createPatchTracker() : undefined;
    this.target = t.has('target') ? createTargetTracker() : undefined;
  }

  add(step: Step, state: State, label: Label): void {
    const e = stepEvidence(step, state, label, this.read, this.scratch);
    this.tests?.add(e);
    this.check?.add(e);
    this.repro?.add(e);
    this.errors?.add(e);
    this.patch?.add(e);
    this.target?.add(e);
    this.n += 1;
  }

  values(): EvidenceValues {
    const t = this.tests?.value() ?? NO_TESTS;
    const r = this.repro?.value() ?? NO_REPRO;
    const e = this.errors?.value() ?? NO_ERRORS;
    const p = this.patch?.value() ?? NO_PATCH;
    const g = this.target?.value() ?? NO_TARGET;
    return {
      testSeen: t.seen,
      testPassed: t.passed,
      testFailed: t.failed,
      testPassShare: t.passShare,
      checkAfterEdit: this.check?.value() ?? NaN,
      reproFailedBeforeEdit: r.failedBeforeEdit,
      reproFlipped: r.flipped,
      errorSinceEdit: e.sinceEdit,
      errorLast: e.last,
      patchEmpty: p.empty,
      patchTestOnly: p.testOnly,
      patchFiles: p.files,
      patchLines: p.lines,
      patchCompact: patchCompact(p),
      editedReadShare: g.readShare,
      editedTraceShare: g.traceShare,
    };
  }

  vector(): number[] {
    const v = this.values();
    return EVIDENCE_NAMES.map((k) => v[k]);
  }

  write(out: Float64Array, offset: number): void {
    // No destructured object: the forecaster calls this every step.
    const t = this.tests?.value() ?? NO_TESTS;
    const r = this.repro?.value() ?? NO_REPRO;
    const e = this.errors?.value() ?? NO_ERRORS;
    const p = this.patch?.value() ?? NO_PATCH;
    const g = this.target?.value() ?? NO_TARGET;
    // EVIDENCE_NAMES order (test/evidence/conformance.test.ts checks it against vector()).
    out[offset] = t.seen;
    out[offset + 1] = t.passed;
    out[offset + 2] = t.failed;
    out[offset + 3] = t.passShare;
    out[offset + 4] = this.check?.value() ?? NaN;
    out[offset + 5] = r.failedBeforeEdit;
    out[offset + 6] = r.flipped;
    out[offset + 7] = e.sinceEdit;
    out[offset + 8] = e.last;
    out[offset + 9] = p.empty;
    out[offset + 10] = p.testOnly;
    out[offset + 11] = p.files;
    out[offset + 12] = p.lines;
    out[offset + 13] = patchCompact(p);
    out[offset + 14] = g.readShare;
    out[offset + 15] = g.traceShare;
  }

  get patchSubmitted(): number {
    return this.patch?.value().submitted ?? NaN;
  }

  get length(): number {
    return this.n;
  }
}

const patchCompact = (p: { empty: number; lines: number }): number => (p.empty === 1 ? 0 : 1 / (1 + p.lines));

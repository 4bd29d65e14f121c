/**
 * Content-aware evidence of a run (issue 26, item 1): what its commands' output and its
 * patch say, kept by online counters fed one step at a time (O(1) per step; online equals
 * batch at every prefix). Every value is harness-invariant by construction: a 0/1 flag,
 * a share in [0, 1], a verdict in {−1, 0, 1}, or ln(1 + a count of files or patch lines);
 * never a raw step or token count. Not yet a forecaster feature nor in the composite.
 *
 *   const ev = createEvidenceTracker();
 *   for (const step of steps) { const { label, state } = builder.next(step); ev.add(step, state, label); }
 *   ev.values().checkAfterEdit; ev.vector(); // EVIDENCE_NAMES order
 */
import type { Label, State, Step } from '../types.js';
import { createErrorTracker } from './error-tracker.js';
import { createPatchTracker } from './patch-tracker.js';
import { stepEvidence } from './step-evidence.js';
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

export function createEvidenceTracker(): EvidenceTracker {
  return new Evidence();
}

/** A class: an object literal with getters is built by the runtime (~1 µs a session); methods are shared. */
class Evidence implements EvidenceTracker {
  private readonly tests = createTestResultTracker();
  private readonly check = createCheckAfterEditTracker();
  private readonly repro = createReproTracker();
  private readonly errors = createErrorTracker();
  private readonly patch = createPatchTracker();
  private readonly target = createTargetTracker();
  private n = 0;

  add(step: Step, state: State, label: Label): void {
    const e = stepEvidence(step, state, label);
    this.tests.add(e);
    this.check.add(e);
    this.repro.add(e);
    this.errors.add(e);
    this.patch.add(e);
    this.target.add(e);
    this.n += 1;
  }

  values(): EvidenceValues {
    const t = this.tests.value();
    const r = this.repro.value();
    const e = this.errors.value();
    const p = this.patch.value();
    const g = this.target.value();
    return {
      testSeen: t.seen,
      testPassed: t.passed,
      testFailed: t.failed,
      testPassShare: t.passShare,
      checkAfterEdit: this.check.value(),
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
    const t = this.tests.value();
    const r = this.repro.value();
    const e = this.errors.value();
    const p = this.patch.value();
    const g = this.target.value();
    // EVIDENCE_NAMES order (test/evidence/conformance.test.ts checks it against vector()).
    out[offset] = t.seen;
    out[offset + 1] = t.passed;
    out[offset + 2] = t.failed;
    out[offset + 3] = t.passShare;
    out[offset + 4] = this.check.value();
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
    return this.patch.value().submitted;
  }

  get length(): number {
    return this.n;
  }
}

const patchCompact = (p: { empty: number; lines: number }): number => (p.empty === 1 ? 0 : 1 / (1 + p.lines));

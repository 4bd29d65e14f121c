/**
 * Prefix features of the outcome forecaster: running counters fed one step at
 * a time, so a feature vector after step t costs O(1) whatever t is. Every
 * feature is harness-invariant in scale (issue 26): a 0/1 flag, a share of
 * the steps so far, or ln(1 + a count of steps or files); never tokens or
 * characters (mini-swe-agent logs ~10k tokens a step, SWE-agent 0.x a few
 * hundred, so a token feature mostly names the harness). Step counts keep a
 * per-source level through the model's per-source intercept (fit.ts), so
 * only their slope is shared. The content-aware evidence of core/evidence
 * (test results, errors, the patch; docs/evidence.md) follows the process
 * counters; it is computed only for a model that uses some of it. No feature
 * reads a task's PTA, so a model trained reference-free applies unchanged to
 * sessions scored against one.
 */
import { createEvidenceTracker, EVIDENCE_NAMES, type EvidenceName, type EvidenceTracker } from '../evidence/evidence.js';
import { createRetryDetector, type RetryDetector } from '../signals/repeats.js';
import type { Label, State, Step } from '../types.js';

/** The process counters, in vector order. */
export const PROCESS_FEATURES = [
  'logSteps', // ln(1 + t)
  'shareE', // E steps / t
  'shareI',
  'shareV',
  'trailingExplore', // ln(1 + current E streak); O steps neither extend nor end it
  'settle', // 3 / (3 + current E streak)
  'edited', // any file-changing step yet
  'sourceEdited', // a non-test, non-scratch source file changed (the labeler's sourceEdit)
  'verifiedAfterEdit', // a V step after the last file-changing step
  'logSinceEdit', // ln(1 + steps since the last file-changing step), 0 before any edit
  'sinceEditShare', // steps since the last file-changing step / t, 0 before any edit
  'firstEditShare', // step of the first source edit / t, 1 before any
  'editShare', // file-changing steps / t
  'logEditedFiles', // ln(1 + distinct files changed)
  'failShare', // failed steps / t
  'failAfterEditShare', // failed steps / steps after the first file change (0 before)
  'lastFailed', // the last step failed
  'lastVerifyFailed', // the last V step failed
  'retryShare', // blind retries / t
  'backtrackShare', // stage backtracks (I→E, V→E, V→I) / t
  'finished', // a finish (submit) action was seen
] as const;

/** The catalogue, in vector order: the process counters, then the evidence values. A model uses a subset by name (its `features`). */
export const FEATURE_NAMES = [...PROCESS_FEATURES, ...EVIDENCE_NAMES] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURE_COUNT = FEATURE_NAMES.length;
const EVIDENCE_SET = new Set<string>(EVIDENCE_NAMES);

/** True for a feature of core/evidence (read from the steps' content). */
export const isEvidence = (name: string): name is EvidenceName => EVIDENCE_SET.has(name);

/** The incremental feature tracker. */
export interface FeatureTracker {
  /** Adds the next step with the state and label the scorer made of it. */
  add(step: Step, state: State, label: Label): void;
  /** Writes the vector of the states added so far into `out` (FEATURE_COUNT long) and returns it. */
  write(out: Float64Array): Float64Array;
  readonly length: number;
}

/** A stage's place in E → I → V (O never reaches it); a switch, not a keyed read of an object, on every step. */
function order(stage: 'E' | 'I' | 'V'): number {
  return stage === 'E' ? 0 : stage === 'I' ? 1 : 2;
}
/**
 * ln(1 + k) of the counts below this, read from a table filled once with `Math.log1p` itself (so the same doubles):
 * the vector takes four a step, and a call to `Math.log1p` costs about ten times a read.
 */
const LOG1P_TABLE = 1024;
const LOG1P = Float64Array.from({ length: LOG1P_TABLE }, (_, k) => Math.log1p(k));
/** ln(1 + k) of a count k ≥ 0 (an integer). */
const log1pCount = (k: number): number => (k >= 0 && k < LOG1P_TABLE ? LOG1P[k]! : Math.log1p(k));
/** The exploration streak at which `settle` is ½ (as Φsettle, signals/prior-signals.ts). */
const SETTLE_STEPS = 3;

/**
 * A tracker. `evidence`: which evidence values to compute. true: all; false: none (they stay 0 and no step content
 * is read); a list of feature names: those among them, the others NaN (core/evidence `createEvidenceTracker`).
 * `retry`: the blind-retry detector to ask, when the caller already feeds one the same states in the same order (the
 * scorer's shared one, whose answer for a state is computed once); by default a detector of its own.
 */
export function createFeatureTracker(evidence: boolean | readonly string[] = true, retry?: RetryDetector): FeatureTracker {
  const ev = evidence === true ? createEvidenceTracker() : evidence === false ? undefined : evidence.some(isEvidence) ? createEvidenceTracker(evidence) : undefined;
  return new Features(ev, retry ?? createRetryDetector());
}

/** A class, not an object of closures: one per scored session with a model, its methods shared. */
class Features implements FeatureTracker {
  private readonly editedFiles = new Set<string>();
  private n = 0;
  private e = 0;
  private i = 0;
  private v = 0;
  private streak = 0;
  private lastEdit = -1;
  private firstSourceEdit = -1;
  private edits = 0;
  private verifiedAfterEdit = false;
  private failed = 0;
  private failedAfterEdit = 0;
  private afterEdit = 0;
  private lastFailed = false;
  private lastVerifyFailed = false;
  private retries = 0;
  private backtracks = 0;
  private lastNonO: 'E' | 'I' | 'V' | undefined;
  private finished = false;

  constructor(
    private readonly ev: EvidenceTracker | undefined,
    private readonly retry: RetryDetector,
  ) {}

  add(step: Step, s: State, label: Label): void {
    this.ev?.add(step, s, label);
    if (this.retry.add(s) !== undefined) this.retries += 1;
    // Each field of the state read once: states come in several shapes (a literal per set of optional fields), so a
    // read of one is a megamorphic lookup, which the compiler does not merge with the next read of the same field.
    const stage = s.stage;
    const failed = s.failed;
    if (stage === 'E') {
      this.e += 1;
      this.streak += 1;
    } else if (stage !== 'O') this.streak = 0;
    if (stage === 'I') this.i += 1;
    if (stage === 'V') this.v += 1;
    if (stage !== 'O') {
      if (this.lastNonO !== undefined && order(stage) < order(this.lastNonO)) this.backtracks += 1;
      this.lastNonO = stage;
    }
    // Failures after the first file change: the steps that follow it (the change itself not counted).
    if (this.lastEdit >= 0) {
      this.afterEdit += 1;
      if (failed) this.failedAfterEdit += 1;
    }
    if (s.changesFile) {
      this.lastEdit = this.n;
      this.edits += 1;
      this.verifiedAfterEdit = false;
      const file = s.file;
      if (file !== undefined && this.editedFiles.size < 1024) this.editedFiles.add(file);
    }
    if (label.sourceEdit && this.firstSourceEdit < 0) this.firstSourceEdit = this.n;
    if (stage === 'V') {
      if (this.lastEdit >= 0) this.verifiedAfterEdit = true;
      this.lastVerifyFailed = failed;
    }
    if (failed) this.failed += 1;
    this.lastFailed = failed;
    if (s.kind === 'finish') this.finished = true;
    this.n += 1;
  }

  write(out: Float64Array): Float64Array {
    const { n, lastEdit, firstSourceEdit, streak, afterEdit } = this;
    const t = Math.max(1, n);
    const since = lastEdit >= 0 ? n - 1 - lastEdit : 0;
    out[0] = log1pCount(n);
    out[1] = this.e / t;
    out[2] = this.i / t;
    out[3] = this.v / t;
    out[4] = log1pCount(streak);
    out[5] = SETTLE_STEPS / (SETTLE_STEPS + streak);
    out[6] = lastEdit >= 0 ? 1 : 0;
    out[7] = firstSourceEdit >= 0 ? 1 : 0;
    out[8] = this.verifiedAfterEdit ? 1 : 0;
    out[9] = log1pCount(since);
    out[10] = since / t;
    out[11] = firstSourceEdit >= 0 ? firstSourceEdit / t : 1;
    out[12] = this.edits / t;
    out[13] = log1pCount(this.editedFiles.size);
    out[14] = this.failed / t;
    out[15] = afterEdit > 0 ? this.failedAfterEdit / afterEdit : 0;
    out[16] = this.lastFailed ? 1 : 0;
    out[17] = this.lastVerifyFailed ? 1 : 0;
    out[18] = this.retries / t;
    out[19] = this.backtracks / t;
    out[20] = this.finished ? 1 : 0;
    if (this.ev !== undefined) this.ev.write(out, PROCESS_FEATURES.length);
    else out.fill(0, PROCESS_FEATURES.length);
    return out;
  }

  get length(): number {
    return this.n;
  }
}

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
import { createEvidenceTracker, EVIDENCE_NAMES, type EvidenceName } from '../evidence/evidence.js';
import { createRetryDetector } from '../signals/repeats.js';
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

const ORDER = { E: 0, I: 1, V: 2 } as const;
/** The exploration streak at which `settle` is ½ (as Φsettle, signals/prior-signals.ts). */
const SETTLE_STEPS = 3;

/** A tracker; with `evidence` false the evidence values stay 0 (no step content is read). */
export function createFeatureTracker(evidence = true): FeatureTracker {
  const ev = evidence ? createEvidenceTracker() : undefined;
  const retry = createRetryDetector();
  const editedFiles = new Set<string>();
  let n = 0;
  let e = 0;
  let i = 0;
  let v = 0;
  let streak = 0;
  let lastEdit = -1;
  let firstSourceEdit = -1;
  let edits = 0;
  let verifiedAfterEdit = false;
  let failed = 0;
  let failedAfterEdit = 0;
  let afterEdit = 0;
  let lastFailed = false;
  let lastVerifyFailed = false;
  let retries = 0;
  let backtracks = 0;
  let lastNonO: 'E' | 'I' | 'V' | undefined;
  let finished = false;
  return {
    add(step, s, label) {
      ev?.add(step, s, label);
      if (retry.add(s) !== undefined) retries += 1;
      if (s.stage === 'E') {
        e += 1;
        streak += 1;
      } else if (s.stage !== 'O') streak = 0;
      if (s.stage === 'I') i += 1;
      if (s.stage === 'V') v += 1;
      if (s.stage !== 'O') {
        if (lastNonO !== undefined && ORDER[s.stage] < ORDER[lastNonO]) backtracks += 1;
        lastNonO = s.stage;
      }
      // Failures after the first file change: the steps that follow it (the change itself not counted).
      if (lastEdit >= 0) {
        afterEdit += 1;
        if (s.failed) failedAfterEdit += 1;
      }
      if (s.changesFile) {
        lastEdit = n;
        edits += 1;
        verifiedAfterEdit = false;
        if (s.file !== undefined && editedFiles.size < 1024) editedFiles.add(s.file);
      }
      if (label.sourceEdit && firstSourceEdit < 0) firstSourceEdit = n;
      if (s.stage === 'V') {
        if (lastEdit >= 0) verifiedAfterEdit = true;
        lastVerifyFailed = s.failed;
      }
      if (s.failed) failed += 1;
      lastFailed = s.failed;
      if (s.kind === 'finish') finished = true;
      n += 1;
    },
    write(out) {
      const t = Math.max(1, n);
      const since = lastEdit >= 0 ? n - 1 - lastEdit : 0;
      out[0] = Math.log1p(n);
      out[1] = e / t;
      out[2] = i / t;
      out[3] = v / t;
      out[4] = Math.log1p(streak);
      out[5] = SETTLE_STEPS / (SETTLE_STEPS + streak);
      out[6] = lastEdit >= 0 ? 1 : 0;
      out[7] = firstSourceEdit >= 0 ? 1 : 0;
      out[8] = verifiedAfterEdit ? 1 : 0;
      out[9] = Math.log1p(since);
      out[10] = since / t;
      out[11] = firstSourceEdit >= 0 ? firstSourceEdit / t : 1;
      out[12] = edits / t;
      out[13] = Math.log1p(editedFiles.size);
      out[14] = failed / t;
      out[15] = afterEdit > 0 ? failedAfterEdit / afterEdit : 0;
      out[16] = lastFailed ? 1 : 0;
      out[17] = lastVerifyFailed ? 1 : 0;
      out[18] = retries / t;
      out[19] = backtracks / t;
      out[20] = finished ? 1 : 0;
      if (ev !== undefined) out.set(ev.vector(), PROCESS_FEATURES.length);
      else out.fill(0, PROCESS_FEATURES.length);
      return out;
    },
    get length() {
      return n;
    },
  };
}

/**
 * Prefix features of the outcome forecaster (issue 15): running counters fed
 * one state at a time, so a feature vector after step t costs O(1) whatever t
 * is. Every feature depends only on the states pushed so far (and the prior
 * windows the model carries), never on a task's PTA, so a model trained
 * reference-free applies unchanged to sessions scored against a PTA.
 */
import { createRetryDetector } from '../signals/repeats.js';
import { createTemporalTracker, type Windows } from '../signals/temporal.js';
import type { State } from '../types.js';

/** Names of the features, in vector order (the model file stores them to catch drift). */
export const FEATURE_NAMES = [
  'logSteps', // ln(1 + t)
  'shareE',
  'shareI',
  'shareV', // stage shares (O is the remainder)
  'trailingExplore', // ln(1 + current E streak), O neutral
  'edited', // any file-changing step yet
  'verifiedAfterEdit', // a V step after the last file-changing step
  'logSinceEdit', // ln(1 + steps since the last file-changing step), 0 before any edit
  'logEditedFiles', // ln(1 + distinct files changed)
  'failShare', // failed steps / t
  'lastVerifyFailed', // the last V step failed
  'retryShare', // blind retries / t
  'backtrackShare', // stage backtracks (I→E, V→E, V→I) / t
  'finished', // a finish (submit) action was seen
  'logTokensPerStep', // ln(1 + mean estimated tokens per step)
  'temp', // Φtemp of the prefix against the model's prior windows
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURE_COUNT = FEATURE_NAMES.length;

/** The incremental feature tracker. */
export interface FeatureTracker {
  add(state: State): void;
  /** The feature vector of the states added so far (a fresh array; all zeros but `temp` before any state). */
  vector(): number[];
  readonly length: number;
}

const ORDER = { E: 0, I: 1, V: 2 } as const;

/** Creates a tracker; `windows` is the stage profile Φtemp compares against (the model's prior). */
export function createFeatureTracker(windows: Windows, alpha: number): FeatureTracker {
  const temporal = createTemporalTracker(windows, alpha);
  const retry = createRetryDetector();
  const editedFiles = new Set<string>();
  let n = 0;
  const stages = new Float64Array(4);
  let streak = 0;
  let lastEdit = -1;
  let verifiedAfterEdit = false;
  let failed = 0;
  let lastVerifyFailed = false;
  let retries = 0;
  let backtracks = 0;
  let lastNonO: 'E' | 'I' | 'V' | undefined;
  let finished = false;
  let tokens = 0;
  return {
    add(s) {
      temporal.add(s);
      if (retry.add(s) !== undefined) retries += 1;
      const k = s.stage === 'O' ? 3 : ORDER[s.stage];
      stages[k] = stages[k]! + 1;
      if (s.stage === 'E') streak += 1;
      else if (s.stage !== 'O') streak = 0;
      if (s.stage !== 'O') {
        if (lastNonO !== undefined && ORDER[s.stage] < ORDER[lastNonO]) backtracks += 1;
        lastNonO = s.stage;
      }
      if (s.changesFile) {
        lastEdit = n;
        verifiedAfterEdit = false;
        if (s.file !== undefined) editedFiles.add(s.file);
      }
      if (s.stage === 'V') {
        if (lastEdit >= 0) verifiedAfterEdit = true;
        lastVerifyFailed = s.failed;
      }
      if (s.failed) failed += 1;
      if (s.kind === 'finish') finished = true;
      tokens += s.cost;
      n += 1;
    },
    vector() {
      const t = Math.max(1, n);
      return [
        Math.log1p(n),
        stages[0]! / t,
        stages[1]! / t,
        stages[2]! / t,
        Math.log1p(streak),
        lastEdit >= 0 ? 1 : 0,
        verifiedAfterEdit ? 1 : 0,
        lastEdit >= 0 ? Math.log1p(n - 1 - lastEdit) : 0,
        Math.log1p(editedFiles.size),
        failed / t,
        lastVerifyFailed ? 1 : 0,
        retries / t,
        backtracks / t,
        finished ? 1 : 0,
        Math.log1p(tokens / t),
        temporal.value(),
      ];
    },
    get length() {
      return n;
    },
  };
}

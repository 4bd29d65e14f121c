/**
 * Evidence from test and reproduction runs: the last test summary, the verdict of the
 * last run after the last source edit, and a reproduction that failed before the first
 * source edit and passes after it.
 */
import type { EvidenceSignal } from './tracker.js';

export interface TestResultEvidence {
  /** 1 once any command's output held a test summary. */
  seen: number;
  /** The last summary: 1 when it passed (tests passed, none failed or errored, the build did not fail). */
  passed: number;
  /** The last summary: 1 when a test failed or errored or the build failed. */
  failed: number;
  /** The last summary: passed / (passed + failed + errors); 0 when it counted no test. */
  passShare: number;
}

export function createTestResultTracker(): EvidenceSignal<TestResultEvidence> {
  let v: TestResultEvidence = { seen: 0, passed: 0, failed: 0, passShare: 0 };
  return {
    add(e) {
      const r = e.testRun;
      if (r === null) return;
      const total = r.passed + r.failed + r.errors;
      const failed = r.failed + r.errors > 0 || r.build === 'failure';
      v = { seen: 1, passed: !failed && (r.passed > 0 || r.build === 'success') ? 1 : 0, failed: failed ? 1 : 0, passShare: total > 0 ? r.passed / total : 0 };
    },
    value: () => v,
  };
}

/** The verdict of the last test or reproduction run after the last source edit: 1 passed, −1 failed, 0 none (no run since that edit, or no source edit yet). */
export function createCheckAfterEditTracker(): EvidenceSignal<number> {
  let edited = false;
  let v = 0;
  return {
    add(e) {
      if (e.sourceEdit) {
        edited = true;
        v = 0;
      }
      if (edited && e.run !== undefined) v = e.run.verdict === 'pass' ? 1 : -1;
    },
    value: () => v,
  };
}

/** At most this many distinct run keys (scripts, test files, commands) are followed **(choice)**; later keys are ignored. */
export const MAX_RUN_KEYS = 64;

export interface ReproEvidence {
  /** 1 when a run failed before the first source edit (the failure was reproduced). */
  failedBeforeEdit: number;
  /** 1 when a run that failed before the first source edit passed on its latest run after it. */
  flipped: number;
}

export function createReproTracker(): EvidenceSignal<ReproEvidence> {
  const keys = new Map<string, { failedBefore: boolean; lastAfter: 'pass' | 'fail' | null }>();
  let edited = false;
  let failedBefore = 0;
  let flipped = 0;
  let value: ReproEvidence = { failedBeforeEdit: 0, flipped: 0 };
  return {
    add(e) {
      if (e.sourceEdit) edited = true;
      const run = e.run;
      if (run === undefined) return;
      let k = keys.get(run.key);
      if (k === undefined) {
        if (keys.size >= MAX_RUN_KEYS) return;
        k = { failedBefore: false, lastAfter: null };
        keys.set(run.key, k);
      }
      if (!edited) {
        if (run.verdict === 'fail' && !k.failedBefore) {
          k.failedBefore = true;
          failedBefore += 1;
        }
        return;
      }
      if (k.failedBefore) flipped += (run.verdict === 'pass' ? 1 : 0) - (k.lastAfter === 'pass' ? 1 : 0);
      k.lastAfter = run.verdict;
    },
    value() {
      const f = failedBefore > 0 ? 1 : 0;
      const x = flipped > 0 ? 1 : 0;
      // The same object until a flag changes (the forecaster reads it after every step).
      if (f !== value.failedBeforeEdit || x !== value.flipped) value = { failedBeforeEdit: f, flipped: x };
      return value;
    },
  };
}

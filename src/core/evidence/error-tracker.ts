/** Tracebacks, compiler and syntax errors in command output, relative to the last source edit. */
import type { EvidenceSignal } from './tracker.js';

export interface ErrorEvidence {
  /** 1 when a command's output after the last source edit (from the start before any) held an error. */
  sinceEdit: number;
  /** 1 when the last command output that held a test summary or an error held an error. */
  last: number;
}

export function createErrorTracker(): EvidenceSignal<ErrorEvidence> {
  let since = false;
  let last = false;
  let value: ErrorEvidence = { sinceEdit: 0, last: 0 };
  return {
    add(e) {
      if (e.sourceEdit) since = false;
      if (e.error !== null) since = true;
      if (e.error !== null || e.testRun !== null) last = e.error !== null;
    },
    value() {
      const a = since ? 1 : 0;
      const b = last ? 1 : 0;
      // The same object until a flag changes (the forecaster reads it after every step).
      if (a !== value.sinceEdit || b !== value.last) value = { sinceEdit: a, last: b };
      return value;
    },
  };
}

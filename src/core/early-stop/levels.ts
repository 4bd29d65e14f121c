/** Threshold crossing shared by the count-based early-stop detectors. */
import type { Levels } from '../policy.js';
import type { Severity, Signal, SignalKind } from '../types.js';

/** The severities whose threshold lies in (before, after]: each fires once per episode. */
export function crossed(levels: Levels, before: number, after: number): Severity[] {
  const out: Severity[] = [];
  if (levels.warn !== null && before < levels.warn && after >= levels.warn) out.push('warn');
  if (levels.stop !== null && before < levels.stop && after >= levels.stop) out.push('stop');
  return out;
}

/** Builds one signal per crossed severity. */
export function signalsFor(kind: SignalKind, levels: Levels, before: number, after: number, t: number, steps: readonly number[], message: (severity: Severity) => string): Signal[] {
  return crossed(levels, before, after).map((severity) => ({ kind, severity, t, steps: [...steps], message: message(severity) }));
}

/** Threshold crossing shared by the count-based early-stop detectors. */
import type { Levels } from '../policy.js';
import type { Severity, Signal, SignalKind } from '../types.js';

/** True when a severity's threshold lies in (before, after]: what {@link crossed} answers, without its list. */
export function anyCrossed(levels: Levels, before: number, after: number): boolean {
  return (levels.warn !== null && before < levels.warn && after >= levels.warn) || (levels.stop !== null && before < levels.stop && after >= levels.stop);
}

/** The severities whose threshold lies in (before, after]: each fires once per episode. */
export function crossed(levels: Levels, before: number, after: number): Severity[] {
  const out: Severity[] = [];
  if (levels.warn !== null && before < levels.warn && after >= levels.warn) out.push('warn');
  if (levels.stop !== null && before < levels.stop && after >= levels.stop) out.push('stop');
  return out;
}

/**
 * Builds one signal per crossed severity. `steps` is read only when one is crossed: an episode's step list grows with
 * it (a regression loop's cycles are flattened), and reading it at every count made a 10,000-step loop quadratic.
 */
export function signalsFor(kind: SignalKind, levels: Levels, before: number, after: number, t: number, steps: () => readonly number[], message: (severity: Severity) => string): Signal[] {
  const severities = crossed(levels, before, after);
  return severities.length === 0 ? [] : severities.map((severity) => ({ kind, severity, t, steps: [...steps()], message: message(severity) }));
}

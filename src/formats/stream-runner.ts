/** Runs a streaming parser over a list of events: the one path by which every `parse` builds its steps. */
import type { Step } from '../core/types.js';
import type { Diagnostic, StreamParser } from './types.js';

/** Feeds `events` one by one into `sp`, then ends it; returns every step and diagnostic in order. */
export function runStream(sp: StreamParser, events: readonly unknown[]): { steps: Step[]; diagnostics: Diagnostic[] } {
  const steps: Step[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const e of events) {
    const r = sp.push(e);
    steps.push(...r.steps);
    diagnostics.push(...r.diagnostics);
  }
  const r = sp.end();
  steps.push(...r.steps);
  diagnostics.push(...r.diagnostics);
  return { steps, diagnostics };
}

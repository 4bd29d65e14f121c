/** The `final` frame of a session: its report, then what only some sessions carry, then why it ended. */
import type { PatchClass } from '../core/rank/patch-class.js';
import type { TrajectoryReport } from '../core/scorer-api.js';
import type { FinalMessage, FinalReason } from '../protocol/server-messages.js';

export interface FinalExtras {
  passed: boolean | undefined;
  learned: FinalMessage['learned'] | undefined;
  forecastVersion: FinalMessage['forecastVersion'] | undefined;
  patch: PatchClass | undefined;
}

/**
 * Keys in the protocol's order; an extra left undefined is absent, not `undefined`. Built key by key, not by spreads:
 * this runs once a session with its code cold, where each spread went to the runtime (bench/README.md, "life18").
 * The report's own keys are copied in their order, as a spread would.
 */
export function finalMessage(session: string, report: TrajectoryReport, extras: FinalExtras, why: FinalReason): FinalMessage {
  const { passed, learned, forecastVersion, patch } = extras;
  const out: Record<string, unknown> = { type: 'final', session };
  const from = report as unknown as Record<string, unknown>;
  for (const k of Object.keys(from)) out[k] = from[k];
  if (passed !== undefined) out.passed = passed;
  if (learned) out.learned = learned;
  if (forecastVersion !== undefined) out.forecastVersion = forecastVersion;
  if (patch !== undefined) out.patch = patch;
  out.reason = why;
  return out as FinalMessage;
}

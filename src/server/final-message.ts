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

/** Keys in the protocol's order; an extra left undefined is absent, not `undefined`. */
export function finalMessage(session: string, report: TrajectoryReport, extras: FinalExtras, why: FinalReason): FinalMessage {
  const { passed, learned, forecastVersion, patch } = extras;
  return {
    type: 'final',
    session,
    ...report,
    ...(passed !== undefined ? { passed } : {}),
    ...(learned ? { learned } : {}),
    ...(forecastVersion !== undefined ? { forecastVersion } : {}),
    ...(patch !== undefined ? { patch } : {}),
    reason: why,
  };
}

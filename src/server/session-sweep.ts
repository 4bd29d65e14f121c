/**
 * The sweep's one pass: ended sessions past the resume window are freed, idle and expired-detached ones ended (then
 * freed), open ones idle between steps compacted.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FinalReason } from '../protocol/server-messages.js';
import { compactIdle } from './idle-compact.js';
import type { Session } from './session.js';

export interface SweepTarget {
  /** A copy of every session held (the pass ends and frees some). */
  all(): Session[];
  open(): Iterable<Session>;
  end(session: Session, why: FinalReason): Promise<unknown>;
  free(session: Session, why: string): void;
}

export async function sweepOnce(target: SweepTarget, timing: { idleTimeoutMs: number; resumeWindowMs: number }, now: number): Promise<void> {
  const { idleTimeoutMs, resumeWindowMs } = timing;
  for (const s of target.all()) {
    if (s.ended) {
      if (now - (s.endedAt ?? now) >= resumeWindowMs) target.free(s, 'expired');
      continue;
    }
    const why = now - s.lastActivity >= idleTimeoutMs ? 'idle' : s.detachedAt !== undefined && now - s.detachedAt >= resumeWindowMs ? 'not_resumed' : undefined;
    if (why === undefined) continue;
    await target.end(s, why);
    target.free(s, why === 'idle' ? 'idle' : 'not resumed');
    // One session's end at a time, each from a turn of its own (its report is built in slices, T34): the four
    // sessions a burst left detached ended in one turn and held every client 0.9-1.2 s (0.15 s once the
    // redundant-step detector was linear).
    await nextTurn();
  }
  // Open sessions only: the thousands of ended ones kept for resume have nothing to compact.
  await compactIdle(target.open(), now);
}

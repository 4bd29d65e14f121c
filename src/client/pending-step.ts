/** A session's step waiting for its answer (apart from pending.ts, which names the session: no import circle). */
import type { StepMessage } from '../protocol/client-messages.js';
import type { SteplensClientError } from './errors.js';
import type { ScoreFrame } from './types.js';

/** A `step` sent (or queued) but not yet settled. */
export interface PendingStep {
  seq: number;
  payload: StepMessage['step'];
  /** Bytes of its frame (a `too_large` naming no step is matched by size). */
  bytes: number;
  frames: ScoreFrame[];
  /** Barrier id that covers it once sent; undefined while unsent. */
  barrier: number | undefined;
  resolve(frames: ScoreFrame[]): void;
  reject(error: SteplensClientError): void;
}

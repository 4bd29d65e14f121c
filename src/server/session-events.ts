/**
 * What a session registry tells its observer (the web view's live feed): a
 * session opened, scored steps (the very frames its client got), ended, was
 * attached or detached, was freed. Observers must be cheap and never throw:
 * they run on the scoring path.
 */
import type { FinalMessage } from '../protocol/server-messages.js';
import type { Session, StepFrame } from './session.js';

export interface SessionObserver {
  started(session: Session): void;
  scored(session: Session, frames: readonly StepFrame[]): void;
  ended(session: Session, final: FinalMessage): void;
  /** Attached to or detached from a connection, or its outcome reported. */
  changed(session: Session): void;
  freed(session: Session): void;
}

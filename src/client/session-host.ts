/** What a {@link ClientSession} needs from its client's transport (internal). */
import type { ClientMessage } from '../protocol/client-messages.js';
import type { SteplensClientError } from './errors.js';

export interface SessionHost {
  /** Set when the client can no longer carry the session (closed, or the socket dropped for good). */
  readonly failure: SteplensClientError | undefined;
  /** Sends one message; false when it was not sent (reconnecting: unanswered work is re-sent once resumed). */
  send(message: ClientMessage): boolean;
  /** The id of the ping barrier that will cover a message sent now. */
  readonly nextBarrier: number;
  /** Asks for a ping barrier after everything sent so far (coalesced per tick). */
  requestBarrier(): void;
  /** Sends a requested barrier now (before `end`, so flushed frames are not taken for a step's). */
  flushBarrier(): void;
  /** The byte length of a message's frame. */
  frameBytes(message: ClientMessage): number;
  /** Frames larger are refused locally (`maxFrameBytes` of `connect`). */
  readonly maxFrameBytes: number;
  /** How long a call waits for its answer (`timeoutMs` of `connect`; 0: no deadline). */
  readonly timeoutMs: number;
  /** True when the client reconnects after a dropped socket (so a session can outlive a server restart). */
  readonly reconnects: boolean;
  /** Reports a listener's exception or an unattributed error. */
  report(error: unknown): void;
}

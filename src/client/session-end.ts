/**
 * A session's end as the client asks for it: the `end` sent (again after a reconnect, until the server refuses it),
 * the calls waiting for the final, and a shutting-down server's final, kept aside while the client may reconnect.
 */
import type { EndMessage } from '../protocol/client-messages.js';
import type { SteplensClientError } from './errors.js';
import { refusesEnd } from './end-message.js';
import type { FinalFrame } from './types.js';

export class SessionEnd {
  /** The `end` asked for (with its patch, if any), until the server refuses it: sent again as it was after a reconnect. */
  message: EndMessage | undefined;
  /** The final a shutting-down server sent: `end` resolves with it if the client cannot reconnect. */
  shutdownFinal: FinalFrame | undefined;
  private readonly waiters: Array<{ resolve(f: FinalFrame): void; reject(e: SteplensClientError): void }> = [];

  /** True while a call waits for the final. */
  get waiting(): boolean {
    return this.waiters.length > 0;
  }

  /**
   * A call of `end` with `message` waits for the final; true when the message is to be sent. An end already in flight
   * (an earlier call timed out) answers this one too: not sent twice.
   */
  wait(message: EndMessage, waiter: { resolve(f: FinalFrame): void; reject(e: SteplensClientError): void }): boolean {
    const inFlight = this.waiters.length > 0;
    this.waiters.push(waiter);
    this.message = message;
    return !inFlight;
  }

  /** The final: every waiting call resolves with it. */
  resolve(final: FinalFrame): void {
    for (const w of this.waiters.splice(0)) w.resolve(final);
  }

  /**
   * An error frame of `code` naming the session and no seq: a refused `end` (end-message.ts) when a call waits, which
   * rejects with `error`; a later `end()` sends it again. False when it is no such refusal.
   */
  refused(code: string, error: SteplensClientError): boolean {
    if (this.waiters.length === 0 || !refusesEnd(this.message, code)) return false;
    this.message = undefined;
    for (const w of this.waiters.splice(0)) w.reject(error);
    return true;
  }

  /** The session failed: each waiting call resolves with the shutdown final if one came, else rejects with `error`. */
  fail(error: SteplensClientError): void {
    const last = this.shutdownFinal;
    for (const w of this.waiters.splice(0)) {
      if (last) w.resolve(last);
      else w.reject(error);
    }
  }
}

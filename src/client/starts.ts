/**
 * The sessions a client is starting: each `start` frame kept until `started` or an error answers it, sent again
 * after a reconnect (a start may have been lost with the socket), given up after the call's deadline.
 */
import type WebSocket from 'ws';
import type { ClientMessage, StartMessage } from '../protocol/client-messages.js';
import type { ErrorMessage } from '../protocol/server-messages.js';
import { withDeadline } from './deadline.js';
import { SteplensClientError } from './errors.js';
import { notJson } from './frames.js';
import type { Starting } from './pending.js';
import type { ClientSession } from './session.js';

const encoder = new TextEncoder();

export class Starts {
  /** The starts not yet answered, by session id (read by `refuseOversized` after a 1009 close). */
  readonly entries = new Map<string, Starting>();

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /**
   * Keeps `message` (the start of session `id`) and sends it with `send`; resolves on its `started`, rejects with its refusal or after `ms`
   * (0: no deadline). A message that cannot be sent as JSON is refused before it is kept: it would hold its id,
   * and throw when a reconnect re-sends it.
   */
  open(id: string, message: StartMessage, ms: number, send: (entry: Starting) => void): Promise<ClientSession> {
    let bytes: number;
    try {
      bytes = encoder.encode(JSON.stringify(message)).length;
    } catch (error) {
      return Promise.reject(notJson(message, error));
    }
    const started = new Promise<ClientSession>((resolve, reject) => {
      const entry: Starting = { message, bytes, sentOn: undefined, resolve, reject };
      this.entries.set(id, entry);
      send(entry);
    });
    return withDeadline(started, ms, () => {
      this.entries.delete(id); // a late `started` is ignored; the id is free again on this client
      return new SteplensClientError('timeout', `no started within ${ms} ms for session ${id}: given up here (the server may still open it; then a start with this id is refused duplicate_session)`, {
        session: id,
      });
    });
  }

  /** The start `started` answers (no longer kept), undefined when none waits (given up). */
  take(id: string): Starting | undefined {
    const entry = this.entries.get(id);
    if (entry) this.entries.delete(id);
    return entry;
  }

  /** An error frame refusing a start: its call rejects. False when the frame names no start. `ws`: the current socket. */
  refuse(m: ErrorMessage, ws: WebSocket, where: { session?: string; seq?: number }): boolean {
    const entry = m.session === undefined ? undefined : this.entries.get(m.session);
    if (!entry || m.session === undefined) return false;
    this.entries.delete(m.session);
    const message =
      m.code === 'duplicate_session' && entry.sentOn !== undefined && entry.sentOn !== ws
        ? `the connection dropped while starting session ${m.session}, and the server already holds it: ${m.message}`
        : m.message;
    entry.reject(new SteplensClientError(m.code, message, where));
    return true;
  }

  /** Every start rejects with `error` (a malformed frame may have been its answer, or the client is closed). */
  rejectAll(error: SteplensClientError): void {
    for (const s of this.entries.values()) s.reject(error);
    this.entries.clear();
  }

  /** Recovery on the new socket `ws`: every start is sent again with `raw` (which sends while the client recovers). */
  resend(ws: WebSocket, raw: (m: ClientMessage) => void): void {
    for (const s of this.entries.values()) {
      raw(s.message);
      s.sentOn = ws;
    }
  }

  /** Recovery ended: the starts not sent on `ws` (asked for during it) are sent now. */
  sendUnsent(ws: WebSocket, send: (entry: Starting) => void): void {
    for (const s of this.entries.values()) if (s.sentOn !== ws) send(s);
  }
}

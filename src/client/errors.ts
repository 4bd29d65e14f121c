/** The one error type the client rejects with: a stable code, a message, and where it happened. */
import type { WireErrorCode } from '../protocol/server-messages.js';

/**
 * Why a client call failed:
 * - a wire code (`bad_message`, `unknown_session`, `out_of_order`, ...): the server refused the message with an `error` frame;
 * - `unauthorized`: the upgrade was refused with HTTP 401;
 * - `bad_url`: the server address is not an http(s):// or ws(s):// URL;
 * - `unreachable`: the socket could not be opened; `refused`: the upgrade was answered with another HTTP status;
 * - `disconnected`: the socket dropped and was not (or could not be) reconnected;
 * - `closed`: `client.close()` was called; `bad_frame`: the server sent a frame that is not valid protocol v1;
 * - `timeout`: no answer within `timeoutMs` of `connect` (the message stays in flight; deadline.ts);
 * - `too_large`, besides the server's refusal: the server sent a frame over `maxServerFrameBytes` (server-frame-limit.ts).
 */
export type ClientErrorCode = WireErrorCode | 'bad_url' | 'unreachable' | 'refused' | 'disconnected' | 'closed' | 'bad_frame' | 'timeout';

/** A failed client call: `code` says why (see {@link ClientErrorCode}); `session`/`seq` say which message, when known. */
export class SteplensClientError extends Error {
  readonly code: ClientErrorCode;
  readonly session: string | undefined;
  readonly seq: number | undefined;

  constructor(code: ClientErrorCode, message: string, where: { session?: string; seq?: number } = {}) {
    super(message);
    this.name = 'SteplensClientError';
    this.code = code;
    this.session = where.session;
    this.seq = where.seq;
  }
}

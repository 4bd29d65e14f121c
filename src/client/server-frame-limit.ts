/**
 * The largest frame the client takes from the server (`maxServerFrameBytes` of `connect`, `ws`' `maxPayload`), and
 * the one error a frame over it gives. `ws` refuses such a frame unread and drops the connection: the caller saw only
 * `closed (1006)`, and a client that reconnects resumed its sessions, which had the server send the frame again, and
 * again (T64).
 */
import { SteplensClientError } from './errors.js';

/** The default: `ws`' own `maxPayload` (100 MiB), far above the server's largest frame (a long session's `final`). */
export const DEFAULT_MAX_SERVER_FRAME_BYTES = 100 * 1024 * 1024;

/** What `ws` names the error of a frame over `maxPayload` (it then closes the connection 1009 and sees 1006). */
const OVER_MAX_PAYLOAD = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

/** `maxServerFrameBytes` as given to `connect`, checked: a whole number of bytes, 1 or more. */
export function serverFrameLimit(bytes: number | undefined): number {
  if (bytes === undefined) return DEFAULT_MAX_SERVER_FRAME_BYTES;
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 1) {
    throw new RangeError(`connect: maxServerFrameBytes must be a whole number of bytes, 1 or more, got ${String(bytes)}`);
  }
  return bytes;
}

/** The error of a socket `error` event when it is `ws` refusing a frame over `limit`, else undefined. */
export function serverFrameTooBig(error: Error & { code?: string }, limit: number, url: string): SteplensClientError | undefined {
  if (error.code !== OVER_MAX_PAYLOAD) return undefined;
  return new SteplensClientError(
    'too_large',
    `${url} sent a frame over the client's limit of ${limit} bytes (maxServerFrameBytes of connect): it was not read, the connection was closed (1009) and is not reopened (a resume would have the server send it again); connect with a larger maxServerFrameBytes to receive it`,
  );
}

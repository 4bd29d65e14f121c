/**
 * The `step` a session sends with its frame's size, checked before anything is sent (as end-message.ts checks an
 * `end`): a payload there, that JSON can carry, within the client's frame limit.
 */
import type { StepMessage } from '../protocol/client-messages.js';
import { SteplensClientError } from './errors.js';
import { notJson } from './frames.js';
import type { SessionHost } from './session-host.js';

/** The `step` of `session` and `seq` carrying `payload` and its frame's bytes, or the error it is refused with. */
export function stepMessage(session: string, seq: number, payload: unknown, frame: Pick<SessionHost, 'frameBytes' | 'maxFrameBytes'>): { message: StepMessage; bytes: number } | SteplensClientError {
  if (payload === undefined) {
    return new SteplensClientError('bad_message', 'step: expected a payload', { session, seq });
  }
  const message: StepMessage = { type: 'step', session, seq, step: payload };
  let bytes: number;
  try {
    bytes = frame.frameBytes(message);
  } catch (error) {
    // A payload JSON cannot carry (a cycle, a BigInt) rejects like any refused step; it threw past the promise.
    return notJson(message, error);
  }
  if (bytes > frame.maxFrameBytes) {
    return new SteplensClientError('too_large', `step of ${bytes} bytes exceeds the frame limit`, { session, seq });
  }
  return { message, bytes };
}

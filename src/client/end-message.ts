/**
 * The `end` a session sends, with the run's final patch when given (issue 26 item 3: the server keeps its class for
 * `POST /v1/rank`'s vote), and which error frames refuse it: no `seq` names an `end`, so the code says.
 */
import { MAX_END_PATCH_CHARS, type EndMessage } from '../protocol/client-messages.js';
import { SteplensClientError } from './errors.js';
import type { SessionHost } from './session-host.js';

/** Codes the server refuses any `end` with (stream-durable.ts `storeDown`, stream-handler.ts `fault`). */
const END_REFUSALS: ReadonlySet<string> = new Set(['unavailable', 'internal']);
/** And an `end` that carries a patch (server/end-patch.ts): not a diff, over the frame limit, or past the step bytes. */
const END_PATCH_REFUSALS: ReadonlySet<string> = new Set(['bad_message', 'too_large', 'quota_exceeded', 'overloaded']);

/**
 * The `end` of `session` with `patch`, or the error of a patch the server would refuse for its length (nothing sent):
 * over its characters, or making the end's frame larger than the frame limit (the patch's UTF-8 bytes count there).
 */
export function endMessage(session: string, patch: string | undefined, frame: Pick<SessionHost, 'frameBytes' | 'maxFrameBytes'>): EndMessage | SteplensClientError {
  if (patch === undefined) return { type: 'end', session };
  if (patch.length > MAX_END_PATCH_CHARS) {
    return new SteplensClientError('bad_message', `end: patch of ${patch.length} characters is over the server's limit of ${MAX_END_PATCH_CHARS}; the session stays open`, { session });
  }
  const message: EndMessage = { type: 'end', session, patch };
  const bytes = frame.frameBytes(message);
  if (bytes > frame.maxFrameBytes) {
    const utf8 = new TextEncoder().encode(patch).length;
    return new SteplensClientError(
      'too_large',
      `end.patch: ${utf8} bytes in UTF-8 (${patch.length} characters) make the end's frame ${bytes} bytes, over the frame limit of ${frame.maxFrameBytes}; the session stays open: end again with a shorter patch, or none`,
      { session },
    );
  }
  return message;
}

/** True when an error frame of `code` (naming the session, no seq) is the refusal of the `end` sent (`sent`). */
export function refusesEnd(sent: EndMessage | undefined, code: string): boolean {
  return END_REFUSALS.has(code) || (sent?.patch !== undefined && END_PATCH_REFUSALS.has(code));
}

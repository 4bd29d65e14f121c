/**
 * The patch a client's `end` carries (issue 26 item 3; docs/rank.md, "A vote over live sessions"): the diff of the
 * run's final work, which the server does not see (a session keeps no step text). Its bytes are counted as a step's
 * are (tenant-step-bytes.ts: refused past the tenant's or the server's bound, given back when the session ends a
 * moment later), and it is read at once into its class (core/rank/patch-class.ts): the text is dropped, the final
 * keeps the class, so memory per session stays flat and the journal, resume and replicas carry it with the final.
 */
import { diffClass, type PatchClass } from '../core/rank/patch-class.js';
import { err, ok, type Result } from '../errors.js';
import type { MessageError } from '../protocol/parse.js';
import type { Session } from './session.js';
import type { TenantStepBytes } from './tenant-step-bytes.js';

/**
 * The class of `patch` (undefined when the end carries none), or the refusal of the end: the session stays open and
 * keeps every step, so the client may send end again (with a patch that fits, or none).
 */
export function endPatch(stepBytes: TenantStepBytes, session: Session, patch: string | undefined): Result<PatchClass | undefined, MessageError> {
  if (patch === undefined) return ok(undefined);
  const bytes = Buffer.byteLength(patch);
  const over = stepBytes.refusal(session, bytes);
  if (over !== undefined) return err({ ...over, message: `end.patch: ${over.message}`, session: session.id });
  const read = diffClass(patch);
  if (!read.ok) return err({ code: 'bad_message', message: `end.patch: ${read.error}; the session stays open: send end again`, session: session.id });
  stepBytes.add(session, bytes);
  return ok(read.value);
}

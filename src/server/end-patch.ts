/**
 * The patch a client's `end` carries (issue 26 item 3; docs/rank.md, "A vote over live sessions"): the diff of the
 * run's final work, which the server does not see (a session keeps no step text). Its bytes are counted as a step's
 * are (tenant-step-bytes.ts: refused past the tenant's or the server's bound, given back when the session ends a
 * moment later), and it is read into its class (core/rank/patch-class.ts): the text is dropped, the final keeps the
 * class, so memory per session stays flat and the journal, resume and replicas carry it with the final.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { readPatch, type PatchClass } from '../core/rank/patch-class.js';
import { err, ok, type Result } from '../errors.js';
import type { MessageError } from '../protocol/parse.js';
import type { Session } from './session.js';
import type { TenantStepBytes } from './tenant-step-bytes.js';

/**
 * Characters of a patch read in a turn of the event loop (T55): a patch at the limit read in one go held the loop
 * 90-140 ms (a short line repeated) and, with a long file path on each line, for seconds; a slice of this many is
 * 3-12 ms at load 2-5, and several tenants' ends take turns.
 */
export const PATCH_CHARS_PER_TURN = 32 * 1024;

/**
 * The class of `patch` (undefined when the end carries none), or the refusal of the end: the session stays open and
 * keeps every step, so the client may send end again (with a patch that fits, or none). A promise when the patch
 * takes more than one turn to read.
 */
export function endPatch(
  stepBytes: TenantStepBytes,
  session: Session,
  patch: string | undefined,
): Result<PatchClass | undefined, MessageError> | Promise<Result<PatchClass | undefined, MessageError>> {
  if (patch === undefined) return ok(undefined);
  const bytes = Buffer.byteLength(patch);
  const over = stepBytes.refusal(session, bytes);
  if (over !== undefined) return err({ ...over, message: `end.patch: ${over.message}`, session: session.id });
  const reading = readPatch(patch);
  if (reading.step(PATCH_CHARS_PER_TURN)) return classOf(stepBytes, session, bytes, reading.result());
  return (async () => {
    while (!reading.step(PATCH_CHARS_PER_TURN)) await nextTurn();
    // Ended meanwhile (idle, shutdown): that end is the session's, and this patch is not read (nor its bytes held).
    if (session.finishing) return ok(undefined);
    // The bytes are taken once read: what other sessions took meanwhile may have left no room.
    const late = stepBytes.refusal(session, bytes);
    if (late !== undefined) return err({ ...late, message: `end.patch: ${late.message}`, session: session.id });
    return classOf(stepBytes, session, bytes, reading.result());
  })();
}

function classOf(stepBytes: TenantStepBytes, session: Session, bytes: number, read: Result<PatchClass, string>): Result<PatchClass | undefined, MessageError> {
  if (!read.ok) return err({ code: 'bad_message', message: `end.patch: ${read.error}; the session stays open: send end again`, session: session.id });
  stepBytes.add(session, bytes);
  return ok(read.value);
}

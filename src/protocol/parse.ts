/** Turning raw frames and bodies into typed messages: every failure names the offending field. */
import type { z } from 'zod';
import { err, ok, type Result } from '../errors.js';
import { clipped, formatIssues } from '../core/config.js';
import { isRecord } from '../core/json-value.js';
import { CLIENT_MESSAGE_SCHEMAS, SESSION_ID_MAX, type ClientMessage } from './client-messages.js';
import type { WireErrorCode } from './server-messages.js';
import { stepRecordSchema } from '../formats/step-schema.js';
import { fastStepMessage, fastStepRecord, markChecked, takeChecked } from './fast-step.js';
import { fastSessionMessage } from './fast-session.js';
import type { Step } from '../core/types.js';
import { MAX_JSON_DEPTH, nestedDeeperThan, tooDeepMessage } from '../formats/json-helpers.js';

/** A refused message, ready to become an `error` frame. */
export interface MessageError {
  code: WireErrorCode;
  message: string;
  session?: string;
  seq?: number;
}

/** Parses one client frame (JSON text) into a typed message or a `bad_message` error naming the field. */
export function parseClientMessage(raw: string | Buffer): Result<ClientMessage, MessageError> {
  let doc: unknown;
  try {
    doc = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch (error) {
    return err({ code: 'bad_message', message: `invalid JSON: ${(error as Error).message}` });
  }
  if (!isRecord(doc)) return err({ code: 'bad_message', message: 'message: expected a JSON object' });
  const envelope = doc.type === 'step' ? fastStepMessage(doc) : undefined;
  if (envelope !== undefined && shallowStep(envelope.step)) return ok(envelope);
  // What an error names (the fast path above has none to write): built only past it.
  const context: Pick<MessageError, 'session' | 'seq'> = {};
  // A longer one names no session (sessionIdSchema): it is not sent back (T54).
  if (typeof doc.session === 'string' && doc.session.length <= SESSION_ID_MAX) context.session = doc.session;
  // Only a seq the error frame's schema takes is echoed (an integer past 2^53 is not one).
  if (typeof doc.seq === 'number' && Number.isSafeInteger(doc.seq)) context.seq = doc.seq;
  if (nestedDeeperThan(doc)) return err({ code: 'bad_message', message: tooDeepMessage('message'), ...context });
  if (envelope !== undefined) return ok(envelope);
  const type = doc.type;
  if (typeof type !== 'string' || !Object.hasOwn(CLIENT_MESSAGE_SCHEMAS, type)) {
    const known = Object.keys(CLIENT_MESSAGE_SCHEMAS).join(', ');
    return err({
      code: 'bad_message',
      message: `type: expected one of ${known} (got ${typeof type === 'string' ? JSON.stringify(clipped(type, 64)) : (JSON.stringify(type)?.slice(0, 64) ?? 'nothing')})`,
      ...context,
    });
  }
  // A session's `start` and `end` in their usual shapes: zod's answer without zod (fast-session.ts).
  const fast = fastSessionMessage(doc);
  if (fast !== undefined) return ok(fast);
  const schema = CLIENT_MESSAGE_SCHEMAS[type as keyof typeof CLIENT_MESSAGE_SCHEMAS];
  const parsed = schema.safeParse(doc);
  if (!parsed.success) return err({ code: 'bad_message', message: formatIssues(parsed.error, type), ...context });
  return ok(parsed.data);
}

/**
 * True when `step` is a `steplens` step record the fast path takes and the frame around it nests no deeper than
 * the limit: then only its `args` can nest (its action's deepest value is a range, at the frame's fourth level), and
 * `args` sits two levels under the frame, so the walk of the whole frame is a walk of `args` alone. The record is
 * marked, so that the session's {@link parseStepPayload} of it takes it without a second check.
 */
function shallowStep(step: unknown): boolean {
  const record = fastStepRecord(step);
  if (record === undefined || (record.args !== undefined && nestedDeeperThan(record.args, MAX_JSON_DEPTH - 2))) return false;
  markChecked(record);
  return true;
}

/** Validates a `steplens`-format step payload; the error names the field (`step.action.kind: ...`). */
export function parseStepPayload(payload: unknown): Result<Step, string> {
  const fast = takeChecked(payload) ? (payload as Omit<Step, 't'> & { t?: number }) : fastStepRecord(payload);
  if (fast !== undefined) {
    fast.t ??= 0;
    return ok(fast as Step);
  }
  const parsed = stepRecordSchema.safeParse(payload);
  if (!parsed.success) return err(formatIssues(parsed.error, 'step'));
  // `t` may be omitted: the session numbers its steps itself. zod's output is a fresh object, so it is completed in place.
  const step = parsed.data;
  step.t ??= 0;
  return ok(step as Step);
}

/** What every route answers to a request without a body (zod's own words were "expected object, received undefined"). */
export const EMPTY_BODY = 'body: empty (send a JSON object)';

/** Validates an HTTP body; the error names the field (`body.trajectory: required`). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): Result<z.infer<S>, string> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return ok(parsed.data);
  return err(body === undefined ? EMPTY_BODY : formatIssues(parsed.error, 'body'));
}

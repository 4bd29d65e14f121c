/** Raw socket data → a validated server message, or an error naming what is wrong. */
import type WebSocket from 'ws';
import { formatIssues } from '../core/config.js';
import { isRecord } from '../core/json-value.js';
import { SERVER_MESSAGE_SCHEMAS, type ServerMessage } from '../protocol/server-messages.js';
import { SteplensClientError } from './errors.js';

/** The text of one received WebSocket message. */
export function dataText(data: WebSocket.RawData | string): string {
  if (typeof data === 'string') return data;
  const decoder = new TextDecoder();
  if (Array.isArray(data)) return data.map((d) => decoder.decode(d, { stream: true })).join('') + decoder.decode();
  return decoder.decode(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
}

/**
 * Parses one server frame with the protocol's schema of its type. Additions are part of the protocol: a frame of a
 * type this client does not know gives `message: undefined` (ignored), and a value of an enum it does not know yet
 * (a new signal kind, error code, tier...) is taken as is; fields it does not know are dropped. Anything else that
 * does not match (a missing or mistyped field) is an error.
 */
export function parseServerFrame(text: string): { ok: true; message: ServerMessage | undefined } | { ok: false; error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `invalid JSON (${(error as Error).message})` };
  }
  if (!isRecord(doc) || typeof doc.type !== 'string') return { ok: false, error: 'type none: a frame is a JSON object with a string `type`' };
  if (!Object.hasOwn(SERVER_MESSAGE_SCHEMAS, doc.type)) return { ok: true, message: undefined };
  const parsed = SERVER_MESSAGE_SCHEMAS[doc.type as ServerMessage['type']].safeParse(doc);
  if (parsed.success) return { ok: true, message: parsed.data };
  const added = (issue: (typeof parsed.error.issues)[number]): boolean => issue.code === 'invalid_value' && typeof valueAt(doc, issue.path) === 'string';
  if (parsed.error.issues.every(added)) return { ok: true, message: doc as ServerMessage };
  return { ok: false, error: `type ${JSON.stringify(doc.type)}: ${formatIssues(parsed.error, 'frame')}` };
}

/** The value at `path` in a parsed JSON document. */
function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let v = doc;
  for (const key of path) v = isRecord(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/** The `bad_message` error of a message JSON.stringify threw on (`error`: a cycle, a BigInt in it). */
export function notJson(message: { type: string; session?: string; seq?: number }, error: unknown): SteplensClientError {
  const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  const where = { ...(message.session !== undefined ? { session: message.session } : {}), ...(message.seq !== undefined ? { seq: message.seq } : {}) };
  return new SteplensClientError('bad_message', `${message.type}: cannot be sent as JSON (${why})`, where);
}

/**
 * The WebSocket messages of a replica sharing sessions through Redis, before
 * the usual handling: a `resume` takes the session over (rebuilt from the
 * journal when this replica's copy is not the durable one); a message for a
 * session whose copy was dropped after a failed write rebuilds it first; an
 * `end` waits for the session's writes in flight. Errors of the shared store
 * reach the client as `unavailable`, never as a hang.
 */
import type { ClientMessage, ResumeMessage } from '../protocol/client-messages.js';
import type { MessageError } from '../protocol/parse.js';
import { SteplensError } from '../errors.js';
import { WIRE_ERROR_CODES, type WireErrorCode } from '../protocol/server-messages.js';
import type { Connection } from './connection.js';
import type { DurableSessions } from './durable-sessions.js';
import type { Session } from './session.js';
import { sessionKey } from './principal.js';

/** The usual handling, given by the stream handler (no import back into it). */
export interface LocalHandling {
  local(msg: ClientMessage): void | Promise<void>;
  resumeOn(session: Session, msg: ResumeMessage): void | Promise<void>;
  refuse(error: MessageError): void;
}

/** The refusal of a message that needs the shared store while it is unreachable. */
export function storeDown(durable: DurableSessions, session: string, seq?: number): MessageError {
  const what = seq !== undefined ? `seq ${seq} not accepted` : 'not accepted';
  return { code: 'unavailable', message: `${what}: the shared store is unreachable (${durable.endpoint}); send it again later`, session, ...(seq !== undefined ? { seq } : {}) };
}

function isWireCode(code: string): code is WireErrorCode {
  return (WIRE_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * Takes the session over; refuses (and resolves with the code) when it is
 * unknown or the store fails (`unavailable` while Redis is unreachable).
 */
async function claimed(durable: DurableSessions, conn: Connection, id: string, seq: number | undefined, h: LocalHandling): Promise<Session | WireErrorCode> {
  const where = { session: id, ...(seq !== undefined ? { seq } : {}) };
  try {
    const s = await durable.claim(id, conn.principal);
    if (s) return s;
    h.refuse({ code: 'unknown_session', message: `no session ${id} (never started, or expired)`, ...where });
    return 'unknown_session';
  } catch (error) {
    if (error instanceof SteplensError && isWireCode(error.code)) {
      h.refuse({ code: error.code, message: error.message, ...where });
      return error.code;
    }
    throw error;
  }
}

/** Rebuilds a session whose copy was dropped, on the connection that holds it, then handles `msg`. */
async function restoreThen(durable: DurableSessions, conn: Connection, msg: ClientMessage & { session: string }, h: LocalHandling): Promise<void> {
  const s = await claimed(durable, conn, msg.session, msg.type === 'step' ? msg.seq : undefined, h);
  if (typeof s === 'string') {
    // Still unreachable: the connection keeps the session, to rebuild it on a later message.
    if (s !== 'unavailable') conn.drop(sessionKey(conn.principal.tenant, msg.session));
    return;
  }
  durable.attach(s, conn);
  await h.local(msg);
}

async function endWhenSettled(durable: DurableSessions, conn: Connection, msg: ClientMessage & { type: 'end' }, h: LocalHandling): Promise<void> {
  const s = durable.local(conn.principal.tenant, msg.session);
  if (s) await durable.settled(s);
  if (durable.needsRestore(conn, msg.session)) return restoreThen(durable, conn, msg, h);
  if (s && !s.ended && !durable.available()) return h.refuse(storeDown(durable, msg.session));
  await h.local(msg);
}

export function dispatchDurable(durable: DurableSessions, conn: Connection, msg: ClientMessage, h: LocalHandling): void | Promise<void> {
  switch (msg.type) {
    case 'resume':
      return claimed(durable, conn, msg.session, undefined, h).then((s) => (typeof s === 'string' ? undefined : h.resumeOn(s, msg)));
    case 'end':
      return endWhenSettled(durable, conn, msg, h);
    case 'step':
    case 'outcome':
      if (durable.needsRestore(conn, msg.session)) return restoreThen(durable, conn, msg, h);
      return h.local(msg);
    default:
      return h.local(msg);
  }
}

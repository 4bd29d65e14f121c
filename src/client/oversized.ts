/** Which frame a frame-size refusal that names none is about. */
import type WebSocket from 'ws';
import type { ErrorMessage } from '../protocol/server-messages.js';
import { SteplensClientError } from './errors.js';
import type { Starting } from './pending.js';
import type { ClientSession } from './session.js';

/** The close code ws sends for a frame over its `maxPayload` (the server's is 8x its `maxFrameBytes`). */
export const MESSAGE_TOO_BIG = 1009;

const encoder = new TextEncoder();

/**
 * The largest step sent and not yet answered (frames over a limit are the largest), with `nextOnly` among those
 * the next pong covers: a `too_large` error frame comes before that pong, a 1009 close may follow any of them.
 */
export function largestInFlight(sessions: Iterable<ClientSession>, nextOnly: boolean): { session: ClientSession; seq: number; bytes: number } | undefined {
  const sent = [...sessions].flatMap((session) => session.inFlight().map((p) => ({ session, ...p })));
  const next = Math.min(...sent.map((p) => p.barrier));
  const candidates = nextOnly ? sent.filter((p) => p.barrier === next) : sent;
  return candidates.reduce<(typeof sent)[number] | undefined>((a, b) => (a === undefined || b.bytes > a.bytes ? b : a), undefined);
}

/**
 * A `too_large` naming no step (a server that does not read the head of a frame over its limit): the step it
 * refused is the largest of those the next pong covers. False when no step is in flight.
 */
export function refuseUnnamed(sessions: Iterable<ClientSession>, m: ErrorMessage): boolean {
  const refused = largestInFlight(sessions, true);
  if (refused === undefined) return false;
  refused.session.onErrorFrame({ ...m, session: refused.session.id, seq: refused.seq });
  return true;
}

/** A frame sent on a socket and not yet answered: what it is, its size, and how it is refused. */
interface Unanswered {
  what: string;
  bytes: number;
  refuse(message: string): void;
}

/** What the client holds that a 1009 close may be about. */
export interface SentFrames {
  ws: WebSocket;
  sessions: Map<string, ClientSession>;
  starting: Map<string, Starting>;
  resuming: ReadonlySet<string>;
}

/**
 * The server closed `ws` with 1009 (a frame over 8x its limit, too large to even refuse): the largest frame sent on
 * it and not answered is refused `too_large`, else a reconnect would send it again, and again, for good. Steps
 * reject as the server's refusal would; a start is dropped (the server never read it); a session whose resume, or
 * whose start and steps sent again to a restarted server, were over the limit is lost. False when nothing was sent.
 */
export function refuseOversized(sent: SentFrames, close: string): boolean {
  const frames: Unanswered[] = [];
  for (const session of sent.sessions.values()) {
    for (const p of session.inFlight()) {
      const refuse = (message: string): void => session.onErrorFrame({ type: 'error', code: 'too_large', message, session: session.id, seq: p.seq });
      frames.push({ what: `step ${p.seq} of session ${session.id}`, bytes: p.bytes, refuse });
    }
    const lose = (message: string): void => session.fail(new SteplensClientError('too_large', message, { session: session.id }));
    if (session.replay) frames.push({ ...session.replay, refuse: lose });
    if (sent.resuming.has(session.id)) {
      const bytes = encoder.encode(JSON.stringify({ type: 'resume', session: session.id, after: session.resumeAfter })).length;
      frames.push({ what: `resume of session ${session.id}`, bytes, refuse: lose });
    }
  }
  for (const [id, entry] of sent.starting) {
    if (entry.sentOn !== sent.ws) continue;
    const refuse = (message: string): void => {
      sent.starting.delete(id);
      entry.reject(new SteplensClientError('too_large', message, { session: id }));
    };
    frames.push({ what: `start of session ${id}`, bytes: entry.bytes, refuse });
  }
  const big = frames.reduce<Unanswered | undefined>((a, b) => (a === undefined || b.bytes > a.bytes ? b : a), undefined);
  big?.refuse(`${big.what}: its frame of ${big.bytes} bytes is over the server's limit (it closed the connection: ${close}); not accepted`);
  return big !== undefined;
}

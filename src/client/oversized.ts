/** Which step a frame-size refusal that names none is about. */
import type { ClientSession } from './session.js';

/** The close code ws sends for a frame over its `maxPayload` (the server's is 8x its `maxFrameBytes`). */
export const MESSAGE_TOO_BIG = 1009;

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

/**
 * Streams that send nothing but frames refused for the client's own fault (not JSON, an unknown `type`, a session
 * that is not there): such a stream is closed 1008 once every frame it sent for {@link JUNK_WINDOWS_TO_CLOSE} seconds
 * in a row was refused, more than {@link JUNK_REFUSALS_PER_WINDOW} of them each second. T70 bounded the answers to
 * frames naming no session, but each frame was still read and parsed (an invalid one ~7 µs, more than a ping), and
 * a refusal naming a session was sent in full (~80-130 bytes for a ~30-byte frame) for as long as the client kept
 * on (T75). A client whose frames are also taken (a step, a ping) is never closed by this: one wrong frame a step
 * costs it its answers' words, not its stream. The stream's sessions stay resumable, as after any cut.
 */
import type { WireErrorCode } from '../protocol/server-messages.js';

export const JUNK_WINDOW_MS = 1000;
/** More refusals than this in a window, and no frame taken, make the window a junk one. */
export const JUNK_REFUSALS_PER_WINDOW = 16;
export const JUNK_WINDOWS_TO_CLOSE = 5;
/** WebSocket's close code for a policy violation (the code the server's other stream bounds use). */
const POLICY = 1008;

/** Refusals a client brings on itself with what it sends; not those of the server's state (overloaded, unavailable, quotas). */
const CLIENT_FAULTS: ReadonlySet<WireErrorCode> = new Set<WireErrorCode>(['bad_message', 'unknown_session', 'duplicate_session']);

/** What the rule needs of a connection: closing it. */
export interface Closable {
  close(code: number, reason: string): void;
}

interface Tally {
  /** When the current window began (ms, performance.now()). */
  start: number;
  frames: number;
  refused: number;
  /** Junk windows in a row before the current one. */
  streak: number;
}

const tallies = new WeakMap<Closable, Tally>();

export const junkCloseReason = (): string => `bad_message: every frame refused for ${JUNK_WINDOWS_TO_CLOSE} s, over ${JUNK_REFUSALS_PER_WINDOW} a second: closed (send valid frames)`;

/** A frame arrived on `conn`. Counted only on a connection that had a refusal (a WeakMap miss otherwise). */
export function noteFrame(conn: Closable): void {
  const t = tallies.get(conn);
  if (t !== undefined) t.frames++;
}

/**
 * `conn` refused a frame with `code` (after {@link noteFrame} of that frame). Returns true when this closed the
 * stream: the refusal is then not answered.
 */
export function noteRefusal(conn: Closable, code: WireErrorCode, now = performance.now()): boolean {
  if (!CLIENT_FAULTS.has(code)) return false;
  const t = tallies.get(conn);
  if (t === undefined) {
    // The frame refused was counted before the tally existed.
    tallies.set(conn, { start: now, frames: 1, refused: 1, streak: 0 });
    return false;
  }
  const elapsed = now - t.start;
  if (elapsed >= JUNK_WINDOW_MS) {
    // This frame was counted in the window it closes (noteFrame): it belongs to the next one.
    const junk = t.refused > JUNK_REFUSALS_PER_WINDOW && t.refused >= t.frames - 1;
    // A window with no refusal in it (a pause) breaks the run as a window with frames taken does.
    t.streak = junk && elapsed < 2 * JUNK_WINDOW_MS ? t.streak + 1 : 0;
    t.start = now;
    t.frames = 1;
    t.refused = 0;
  }
  t.refused++;
  if (t.streak < JUNK_WINDOWS_TO_CLOSE) return false;
  tallies.delete(conn);
  conn.close(POLICY, junkCloseReason());
  return true;
}

/**
 * False when `raw` cannot be a JSON object (its first character past JSON's whitespace is not `{`): such a frame is
 * refused anyway, and when its answer would not be sent it need not be parsed (a thrown parse error costs ~7 µs).
 */
export function mayBeObject(raw: Buffer | string): boolean {
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const c = typeof raw === 'string' ? raw.charCodeAt(i) : raw[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c === 0x7b;
  }
  return false;
}

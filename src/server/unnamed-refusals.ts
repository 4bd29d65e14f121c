/**
 * The answers to a stream's frames that are refused naming no session (not JSON, not an object, an unknown `type`,
 * binary): a connection gets at most {@link UNNAMED_ANSWERS_PER_WINDOW} of them a window, and when the window ends
 * one more that counts those left unanswered. Without it a client writing 1-byte junk frames made the server write
 * ~107 bytes for each (T70). An error that names a session or a seq is always sent: a client waits on those.
 */
import type { ServerMessage } from '../protocol/server-messages.js';

export const UNNAMED_ANSWERS_PER_WINDOW = 16;
export const UNNAMED_WINDOW_MS = 1000;

/** What the pacing needs of a connection: sending a frame. */
export interface AnswerSink {
  send(message: ServerMessage): boolean;
}

interface Window {
  answered: number;
  unanswered: number;
}

const windows = new WeakMap<AnswerSink, Window>();

/**
 * True when this refusal may be answered; false when the connection's window is full (the refusal is counted and
 * named in the window's closing error instead).
 */
export function mayAnswerUnnamed(conn: AnswerSink): boolean {
  let w = windows.get(conn);
  if (w === undefined) {
    w = { answered: 0, unanswered: 0 };
    windows.set(conn, w);
    const timer = setTimeout(() => closeWindow(conn), UNNAMED_WINDOW_MS);
    timer.unref();
  }
  if (w.answered < UNNAMED_ANSWERS_PER_WINDOW) {
    w.answered++;
    return true;
  }
  w.unanswered++;
  return false;
}

/** True when the connection's window has no answer left: a frame refused naming no session now is only counted. */
export function unnamedAnswersSpent(conn: AnswerSink): boolean {
  const w = windows.get(conn);
  return w !== undefined && w.answered >= UNNAMED_ANSWERS_PER_WINDOW;
}

/** The window's end: one error says how many were left unanswered (a closed connection's send does nothing). */
function closeWindow(conn: AnswerSink): void {
  const w = windows.get(conn);
  windows.delete(conn);
  if (w === undefined || w.unanswered === 0) return;
  conn.send({ type: 'error', code: 'bad_message', message: unansweredMessage(w.unanswered) });
}

export function unansweredMessage(n: number): string {
  return `${n} more frame${n === 1 ? '' : 's'} naming no session could not be read and got no answer ` + `(a stream gets at most ${UNNAMED_ANSWERS_PER_WINDOW} such answers a second)`;
}

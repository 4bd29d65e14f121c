/**
 * A client's sessions carried over a new socket: each open session's `resume` (and the starts not answered) sent
 * on it, the server's refusals of a resume read (forgotten: started again; `unavailable`: asked again with the
 * reconnect backoff), and each session carried on once its resume is answered.
 */
import type WebSocket from 'ws';
import type { ClientMessage } from '../protocol/client-messages.js';
import type { ErrorMessage } from '../protocol/server-messages.js';
import { SteplensClientError } from './errors.js';
import type { PongQueue } from './pongs.js';
import { Backoff } from './reconnect.js';
import type { ClientSession } from './session.js';
import type { Starts } from './starts.js';
import type { ReconnectOptions } from './types.js';

/** What recovery reads of its client when it acts: the current socket, whether it may send, its reconnect options. */
export interface RecoveryLink {
  socket(): WebSocket;
  ready(): boolean;
  reconnect(): ReconnectOptions | undefined;
}

export class Recovery {
  /** Sessions whose `resume` is sent and not yet answered (a refusal of theirs is a refused resume). */
  private readonly pending = new Set<string>();
  /** Waits before asking again for a refused resume; cleared on close. */
  private readonly retries = new Backoff();

  constructor(
    private readonly link: RecoveryLink,
    private readonly pongs: PongQueue,
  ) {}

  /** The sessions whose resume is not answered yet (a 1009 close may be about one). */
  get resuming(): ReadonlySet<string> {
    return this.pending;
  }

  /** Resumes every open session on the new socket `ws`, re-sends unanswered starts, then waits for a pong before re-sending steps. */
  begin(ws: WebSocket, sessions: Iterable<ClientSession>, starts: Starts): void {
    const raw = (m: ClientMessage): void => ws.send(JSON.stringify(m));
    this.pending.clear();
    for (const s of sessions) {
      if (s.lost) continue;
      s.resumeRefused = undefined;
      this.pending.add(s.id);
      raw({ type: 'resume', session: s.id, after: s.resumeAfter });
    }
    starts.resend(ws, raw);
    this.pongs.send({ kind: 'recovery' });
  }

  /** The server answered session `id`'s resume (`resumed`, or an error without a seq); false when none was asked. */
  answered(id: string): boolean {
    return this.pending.delete(id);
  }

  /**
   * An error frame naming `session`, read as a refused resume: true when it was one and is handled here. `recovering`:
   * the client is between a new socket and recovery's pong.
   */
  refused(session: ClientSession, m: ErrorMessage, recovering: boolean, where: { session?: string; seq?: number }): boolean {
    const resume = m.seq === undefined && this.answered(session.id);
    if (m.code === 'unknown_session' && (recovering || resume) && session.restartable) {
      // The server forgot the session (it restarted): it is started again and replayed once recovery ends.
      session.needsRestart = true;
      return true;
    }
    if (resume && m.code === 'unavailable') {
      // Its shared store is unreachable: the resume is asked again with backoff, the session's work held meanwhile.
      session.resumeRefused = new SteplensClientError(m.code, m.message, where);
      return true;
    }
    return false;
  }

  /** A session's resume is answered (its frames and `resumed` arrived before this pong): carry on, or ask again. */
  afterResume(s: ClientSession, attempt: number): void {
    if (s.needsRestart) s.restart();
    else if (s.resumeRefused) this.retryResume(s, s.resumeRefused, attempt);
    else if (!s.lost && s.resumedLast !== undefined) s.recover();
  }

  /** Asks again for a resume the server refused (`unavailable`), after the reconnect backoff; gives up after `retries`. */
  private retryResume(s: ClientSession, refusal: SteplensClientError, attempt: number): void {
    s.resumeRefused = undefined;
    const { retries, delayMs } = this.link.reconnect() ?? { retries: 0, delayMs: 0 };
    if (attempt >= retries) {
      s.held = false;
      const why = `session ${s.id} could not be resumed after ${retries} attempts: ${refusal.message}`;
      return s.fail(new SteplensClientError('unavailable', why, { session: s.id }));
    }
    s.held = true;
    const ws = this.link.socket();
    this.retries.schedule(attempt, delayMs, () => {
      // A socket dropped meanwhile is reopened, and its recovery resumes the session anyway.
      if (ws !== this.link.socket() || !this.link.ready() || s.done) return;
      this.pending.add(s.id);
      ws.send(JSON.stringify({ type: 'resume', session: s.id, after: s.resumeAfter }));
      this.pongs.send({ kind: 'resume', session: s, attempt: attempt + 1 });
    });
  }

  /** The client closed: no resume is asked again. */
  cancel(): void {
    this.retries.cancel();
  }
}

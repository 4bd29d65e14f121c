/**
 * One scoring session as the client sees it: seq numbering, the steps not yet
 * acknowledged, every score and signal frame (deduplicated by step index),
 * and the final.
 */
import type { ReferenceInfo } from '../core/types.js';
import type { ClientMessage, StartMessage } from '../protocol/client-messages.js';
import type { ErrorMessage } from '../protocol/server-messages.js';
import { SteplensClientError } from './errors.js';
import { endMessage } from './end-message.js';
import type { SessionHost } from './session-host.js';
import type { FinalFrame, ScoreFrame, SignalFrame, StartedFrame } from './types.js';
import { Listeners } from './listeners.js';
import { SessionEnd } from './session-end.js';
import { SessionFrames } from './session-frames.js';
import { SessionSteps } from './session-steps.js';
import { withDeadline } from './deadline.js';

/**
 * A session opened with `SteplensClient.start`.
 *
 * `step(payload)` resolves with the `score` frames of its seq. A message that
 * completes no step (an OpenHands action waiting for its observation) gets no
 * frame from the server, so the client follows every tick's `step` messages
 * with a `ping`: the server handles a connection's messages strictly in
 * order, so once that `pong` arrives every frame of those seqs has arrived,
 * and each step resolves with its frames, possibly `[]`. Steps may be
 * pipelined (several `step` calls without awaiting); an `error` frame for a
 * seq rejects that step with a {@link SteplensClientError}, and the next
 * `step` reuses the refused seq, as the protocol asks.
 *
 * With `reconnect` on, a dropped socket does not reject anything: the client
 * reconnects, sends `resume {after}` (after = the seq before the last one it
 * saw, so a seq whose frames were cut in half comes back whole; frames already
 * seen are dropped by step index `t`, so listeners and `scores` see each step
 * once), waits for a `pong`, then resolves the pending steps the server had
 * accepted (`resumed.last`) from the frames it holds and sends the others, and
 * any outcome and `end`, again. When the server no longer knows the session
 * (it restarted: its shutdown `final` is not taken as the end, and `resume`
 * answers `unknown_session`), the session is started again under the same id
 * and every step is sent again from seq 0 (the session keeps its step
 * payloads for this while `reconnect` is on); frames already seen are dropped
 * by `t` as above, so no step is lost or counted twice. A resume refused
 * `unavailable` (the server's Redis unreachable) is asked again with the
 * reconnect backoff, the session's steps held unsent meanwhile; after
 * `retries` refusals the session is lost and its calls reject `unavailable`.
 */
export class ClientSession {
  /** The session id. */
  readonly id: string;
  readonly task: string;
  /** The log format of `step` payloads. */
  readonly format: string;
  /** What the session is scored against (from `started`). */
  readonly reference: ReferenceInfo;
  /** The `started` frame. */
  readonly started: StartedFrame;
  /** Every score frame so far, in step order, each once (also those flushed at `end`). */
  readonly scores: ScoreFrame[];
  /** Every signal frame so far, each once. */
  readonly signals: SignalFrame[];
  /** The final, once the session has ended. */
  final: FinalFrame | undefined;
  /** @internal The server's last seq from `resumed`, during a reconnect. */
  resumedLast: number | undefined;
  /** @internal Set when the session can no longer be used (the server forgot it). */
  lost: SteplensClientError | undefined;
  /** @internal Set during recovery when the server answered the resume with `unknown_session`. */
  needsRestart = false;
  /** @internal The server refused the resume with `unavailable` (its shared store unreachable): it is asked again. */
  resumeRefused: SteplensClientError | undefined;
  /**
   * @internal True while a refused resume is asked again: steps, outcome and `end` wait (unsent) and go out once
   * the server resumes the session, as during a reconnect.
   */
  held = false;
  /** @internal The largest frame of a restart (its start, a step sent again) until the barrier after them: a 1009 may be over it. */
  replay: { what: string; bytes: number; barrier: number } | undefined;
  private passed: boolean | undefined;
  private readonly steps: SessionSteps;
  private readonly ending = new SessionEnd();
  private readonly frames: SessionFrames;
  private readonly errorListeners: Listeners<SteplensClientError>;

  /** @internal Made by `SteplensClient.start`. */
  constructor(
    started: StartedFrame,
    private readonly host: SessionHost,
    private readonly startMessage: StartMessage,
  ) {
    this.started = started;
    this.id = started.session;
    this.task = started.task;
    this.format = started.format;
    this.reference = started.reference;
    const report = (e: unknown): void => host.report(e);
    this.frames = new SessionFrames(report);
    this.scores = this.frames.scores;
    this.signals = this.frames.signals;
    this.errorListeners = new Listeners(report);
    this.steps = new SessionSteps(this.id, host, (m) => this.send(m));
  }

  /** The last score frame (the trajectory's score so far), if any step was scored. */
  get score(): ScoreFrame | undefined {
    return this.scores.at(-1);
  }

  /** True once the session is ended or lost: no more steps. */
  get done(): boolean {
    return this.final !== undefined || this.lost !== undefined;
  }

  /**
   * Sends one step payload (a steplens step, or one raw event of the
   * session's format) with the next seq. Resolves with the score frames of
   * that seq (`[]` when it completes no step); rejects when the server
   * refuses it, or the connection is lost for good.
   *
   * A refused step is not sent again by the client, and its seq goes to the
   * next `step` call. A frame over the server's `maxFrameBytes` (which may be
   * below the client's) rejects with `too_large`: the caller may send a
   * smaller payload (an observation cut short) or go on without it; steps
   * pipelined after a refused one reject `out_of_order` and must be sent
   * again, in order. A frame over 8x the server's limit is not refused but closed
   * (1009): the step rejects `too_large` all the same, and is not sent again when
   * the client reconnects.
   */
  step(payload: unknown): Promise<ScoreFrame[]> {
    const refused = this.unusable();
    if (refused) return Promise.reject(refused);
    return this.steps.step(payload);
  }

  /**
   * Records the test outcome (before `end`). Throws a {@link SteplensClientError} when the session can no longer take
   * it: `bad_message` once `end` was called or the session ended, or the error that lost the session or the client.
   */
  outcome(passed: boolean): void {
    if (this.ending.message || this.final) {
      throw new SteplensClientError('bad_message', `session ${this.id} ${this.final ? 'has ended' : 'is ending'}: send outcome before end`, { session: this.id });
    }
    const refused = this.unusable();
    if (refused) throw refused;
    this.passed = passed;
    this.send({ type: 'outcome', session: this.id, passed });
  }

  /** Ends the session; resolves with the final (at once when ended already). Idempotent. `patch`: the run's diff, for `POST /v1/rank`'s vote (end-message.ts). */
  end(options: { patch?: string } = {}): Promise<FinalFrame> {
    if (this.final) return Promise.resolve(this.final);
    const refused = this.unusable();
    if (refused) return Promise.reject(refused);
    const message = this.ending.message ?? endMessage(this.id, options.patch, this.host);
    if (message instanceof SteplensClientError) return Promise.reject(message);
    const final = new Promise<FinalFrame>((resolve, reject) => {
      if (!this.ending.wait(message, { resolve, reject })) return;
      this.host.flushBarrier();
      this.send(message);
    });
    const ms = this.host.timeoutMs;
    const late = `no final within ${ms} ms for session ${this.id}: the end stays in flight; end() again waits for its final`;
    return withDeadline(final, ms, () => new SteplensClientError('timeout', late, { session: this.id }));
  }

  /** Calls `cb` for every new score frame (each step once); returns an unsubscribe function. */
  onScore(cb: (frame: ScoreFrame) => void): () => void {
    return this.frames.scoreListeners.add(cb);
  }

  /** Calls `cb` for every new signal frame; returns an unsubscribe function. */
  onSignal(cb: (frame: SignalFrame) => void): () => void {
    return this.frames.signalListeners.add(cb);
  }

  /** Calls `cb` for server errors about this session that no pending call is waiting for (e.g. an outcome after end). */
  onError(cb: (error: SteplensClientError) => void): () => void {
    return this.errorListeners.add(cb);
  }

  private unusable(): SteplensClientError | undefined {
    if (this.lost) return this.lost;
    if (this.host.failure) return this.host.failure;
    if (this.final) return new SteplensClientError('bad_message', `session ${this.id} has ended`, { session: this.id });
    return undefined;
  }

  /** Sends one message of this session; false while it is held or the client reconnects (sent again later). */
  private send(message: ClientMessage): boolean {
    return !this.held && this.host.send(message);
  }

  /** @internal A score frame; new ones (by `t`) are recorded, given to the pending step of its seq, and announced. */
  onScoreFrame(frame: ScoreFrame): void {
    if (!this.frames.addScore(frame)) return;
    this.steps.pending.of(frame.seq)?.frames.push(frame);
    this.frames.scoreListeners.emit(frame);
  }

  /** @internal A signal frame; new ones (by kind, `t`, severity and message) are recorded and announced. */
  onSignalFrame(frame: SignalFrame): void {
    this.frames.addSignal(frame);
  }

  /** @internal The final: resolves `end`. A shutdown final the client did not ask for is not the end when it reconnects. */
  onFinal(frame: FinalFrame): void {
    if (frame.reason === 'shutdown' && !this.ending.message && this.host.reconnects) {
      this.ending.shutdownFinal = frame;
      return;
    }
    this.final ??= frame;
    this.ending.resolve(this.final);
  }

  /** @internal A barrier's pong: every step sent before it is answered. */
  onBarrier(id: number): void {
    if (this.replay && this.replay.barrier <= id) this.replay = undefined;
    this.steps.pending.answeredBy(id);
  }

  /** @internal An `error` frame naming this session. */
  onErrorFrame(frame: ErrorMessage): void {
    const error = new SteplensClientError(frame.code, frame.message, { session: this.id, ...(frame.seq !== undefined ? { seq: frame.seq } : {}) });
    if (frame.code === 'unknown_session') return this.fail(error);
    if (frame.seq !== undefined && this.steps.refused(frame.seq, error)) return;
    // A refused `end` comes back without a seq (end-message.ts): its waiters get the error; a later `end()` sends it again.
    if (this.ending.refused(frame.code, error)) return;
    if (!this.errorListeners.emit(error)) this.host.report(error);
  }

  /** @internal Rejects every pending call; with `lose`, the session is unusable from now on. */
  fail(error: SteplensClientError, lose = true): void {
    if (lose) this.lost ??= error;
    this.steps.pending.rejectAll(error);
    const last = this.ending.shutdownFinal;
    if (last) this.final ??= last;
    this.ending.fail(error);
  }

  /** @internal The socket dropped: nothing sent on it is covered by a barrier any more. */
  onDisconnect(): void {
    this.steps.pending.disconnected();
    this.replay = undefined;
    this.resumedLast = undefined;
  }

  /** @internal The steps sent and not yet answered: seq, frame bytes and the barrier that covers each. */
  inFlight(): Array<{ seq: number; bytes: number; barrier: number }> {
    return this.steps.pending.inFlight();
  }

  /** @internal True when no step or `end` waits for an answer. */
  get idle(): boolean {
    return this.steps.pending.length === 0 && !this.ending.waiting;
  }

  /** @internal The `after` of a resume: the seq before the last one seen, so a seq cut in half comes back whole. */
  get resumeAfter(): number {
    return this.frames.resumeAfter;
  }

  /** @internal True when the session can be started again on a server that forgot it. */
  get restartable(): boolean {
    return this.host.reconnects && this.final === undefined && this.lost === undefined && this.steps.replayable;
  }

  /** @internal The server forgot the session: `start` it again and send every step from seq 0, then outcome and end. */
  restart(): void {
    this.needsRestart = false;
    this.held = false;
    this.ending.shutdownFinal = undefined;
    const again = `of session ${this.id} (sent again to a restarted server)`;
    const start = { what: `start ${again}`, bytes: this.host.frameBytes(this.startMessage), barrier: this.host.nextBarrier };
    this.host.send(this.startMessage);
    // A known outcome goes before the steps, so their tiers follow it as they did (or would have) the first time.
    if (this.passed !== undefined) this.host.send({ type: 'outcome', session: this.id, passed: this.passed });
    // Answered once the barrier after them is (a restarted server with a lower limit may close the socket over one).
    this.replay = this.steps.replay(again, start);
    this.host.requestBarrier();
    this.sendClosing();
  }

  /**
   * @internal After `resume` and its re-sent frames: steps the server had
   * accepted resolve, the others (and outcome, end) are sent again.
   */
  recover(): void {
    this.held = false;
    this.steps.recover(this.resumedLast ?? -1);
    this.sendClosing();
  }

  /** Sends the outcome and `end` again, if they were asked for. */
  private sendClosing(): void {
    if (this.final) return;
    if (this.passed !== undefined) this.send({ type: 'outcome', session: this.id, passed: this.passed });
    if (this.ending.message) {
      this.host.flushBarrier();
      this.send(this.ending.message);
    }
  }
}

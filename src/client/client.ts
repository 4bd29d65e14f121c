/**
 * A connection to a steplens server carrying any number of sessions: frame
 * validation and routing, ping barriers (how a `step` knows it is answered),
 * and reconnect-and-resume when the socket drops.
 */
import type WebSocket from 'ws';
import type { ClientMessage } from '../protocol/client-messages.js';
import type { ErrorMessage, ServerMessage } from '../protocol/server-messages.js';
import { SteplensClientError } from './errors.js';
import { dataText, parseServerFrame, notJson } from './frames.js';
import { Listeners } from './listeners.js';
import { ClientSession } from './session.js';
import type { SessionHost } from './session-host.js';
import { Backoff, Reconnector } from './reconnect.js';
import { closeSocket, openSocket } from './socket.js';
import { heartbeat } from './heartbeat.js';
import { MESSAGE_TOO_BIG, refuseOversized, refuseUnnamed } from './oversized.js';
import type { Starting } from './pending.js';
import { PongQueue } from './pongs.js';
import type { ClientConfig, ReconnectOptions, StartOptions } from './types.js';
import { withDeadline } from './deadline.js';
import { serverFrameTooBig } from './server-frame-limit.js';

const encoder = new TextEncoder();
const newId = (): string => `c-${typeof globalThis.crypto?.randomUUID === 'function' ? globalThis.crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`;

/** A connected client: open sessions with `start`; see {@link ClientSession} for steps. Made by `connect`. */
export class SteplensClient {
  private ws: WebSocket;
  private state: 'ready' | 'recovering' | 'reconnecting' | 'closed' = 'ready';
  private failure: SteplensClientError | undefined;
  /** Set when `ws` refused a frame over `maxServerFrameBytes`: the close that follows fails the client with it. */
  private tooBig: SteplensClientError | undefined;
  private readonly sessions = new Map<string, ClientSession>();
  private readonly starting = new Map<string, Starting>();
  private readonly pongs = new PongQueue({ ready: () => this.state === 'ready', sendPing: () => this.ws.send(JSON.stringify({ type: 'ping' })) });
  private reconnector: Reconnector | undefined;
  /** Sessions whose `resume` is sent and not yet answered (a refusal of theirs is a refused resume). */
  private readonly resuming = new Set<string>();
  /** Waits before asking again for a refused resume; cleared on close. */
  private readonly resumeRetries = new Backoff();
  private readonly errorListeners = new Listeners<unknown>(() => undefined);
  private readonly reconnectListeners = new Listeners<void>((e) => this.report(e));
  private readonly host: SessionHost;

  /** @internal Use `connect`. */
  constructor(
    ws: WebSocket,
    private readonly config: ClientConfig,
  ) {
    this.ws = ws;
    this.attach(ws);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the host's getters must read the client's live fields
    const self = this;
    this.host = {
      get failure() {
        return self.failure;
      },
      get nextBarrier() {
        return self.pongs.nextBarrier;
      },
      send: (m) => this.send(m),
      requestBarrier: () => this.pongs.requestBarrier(),
      flushBarrier: () => this.pongs.flushBarrier(),
      frameBytes: (m) => encoder.encode(JSON.stringify(m)).length,
      get maxFrameBytes() {
        return self.config.maxFrameBytes;
      },
      timeoutMs: config.timeoutMs,
      get reconnects() {
        return self.config.reconnect !== undefined;
      },
      report: (e) => this.report(e),
    };
  }

  /** The current underlying socket (replaced on reconnect). */
  get socket(): WebSocket {
    return this.ws;
  }

  /** True once the client is closed, or lost its connection for good. */
  get closed(): boolean {
    return this.state === 'closed';
  }

  /**
   * Opens a session; resolves on `started`, rejects with the server's error
   * code (`bad_message` for a bad policy, `duplicate_session`, `overloaded`, ...),
   * or `too_large` naming the session when its frame was over the server's limit
   * (also when the server closed the socket over it, 1009: it is not sent again).
   * The session id is made by the client when `opts.session` is absent, so a
   * session can always be resumed.
   */
  start(opts: StartOptions): Promise<ClientSession> {
    if (this.failure) return Promise.reject(this.failure);
    const id = opts.session ?? newId();
    if (this.sessions.has(id) || this.starting.has(id)) {
      return Promise.reject(new SteplensClientError('duplicate_session', `session ${id} is already open on this client`, { session: id }));
    }
    const message = { ...opts, type: 'start' as const, session: id };
    // Refused before it is kept: a start that cannot be sent would hold its id, and throw when a reconnect re-sends it.
    let bytes: number;
    try {
      bytes = encoder.encode(JSON.stringify(message)).length;
    } catch (error) {
      return Promise.reject(notJson(message, error));
    }
    const ms = this.config.timeoutMs;
    const started = new Promise<ClientSession>((resolve, reject) => {
      const entry: Starting = { message, bytes, sentOn: undefined, resolve, reject };
      this.starting.set(id, entry);
      this.sendStart(entry);
    });
    return withDeadline(started, ms, () => {
      this.starting.delete(id); // a late `started` is ignored; the id is free again on this client
      return new SteplensClientError('timeout', `no started within ${ms} ms for session ${id}: given up here (the server may still open it; then a start with this id is refused duplicate_session)`, {
        session: id,
      });
    });
  }

  /** Round trip to the server: resolves on its `pong` (every message sent before has been handled). */
  ping(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const pong = new Promise<void>((resolve, reject) => this.pongs.ping({ resolve, reject }));
    return withDeadline(pong, this.config.timeoutMs, () => new SteplensClientError('timeout', `no pong within ${this.config.timeoutMs} ms`));
  }

  /** Calls `cb` with errors no pending call waits for (errors without a session, listener exceptions). */
  onError(cb: (error: unknown) => void): () => void {
    return this.errorListeners.add(cb);
  }

  /** Calls `cb` each time the client has reconnected and resumed its sessions. */
  onReconnect(cb: () => void): () => void {
    return this.reconnectListeners.add(cb);
  }

  /** Closes the socket; pending calls reject with `closed`. Open sessions stay resumable on the server for its resume window. */
  async close(): Promise<void> {
    if (this.state !== 'closed') this.shutdown(new SteplensClientError('closed', 'the client was closed'));
    await closeSocket(this.ws);
  }

  private report(error: unknown): void {
    this.errorListeners.emit(error);
  }

  private attach(ws: WebSocket): void {
    heartbeat(ws, this.config.heartbeatMs);
    ws.on('message', (data: WebSocket.RawData) => {
      if (ws === this.ws) this.onFrame(dataText(data));
    });
    ws.on('error', (error: Error & { code?: string }) => {
      if (ws === this.ws) this.tooBig ??= serverFrameTooBig(error, this.config.maxServerFrameBytes, this.config.url);
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (ws === this.ws) this.onClose(code, String(reason));
    });
  }

  private send(message: ClientMessage): boolean {
    if (this.state !== 'ready') return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  private sendStart(entry: Starting): void {
    if (this.send(entry.message)) entry.sentOn = this.ws;
  }

  private onFrame(text: string): void {
    const parsed = parseServerFrame(text);
    if (!parsed.ok) return this.badFrame(parsed.error);
    // A frame type added after this client was written: ignored, as the protocol asks.
    if (parsed.message !== undefined) this.route(parsed.message);
  }

  private route(m: ServerMessage): void {
    switch (m.type) {
      case 'started': {
        const entry = this.starting.get(m.session);
        if (!entry) return;
        this.starting.delete(m.session);
        const session = new ClientSession(m, this.host, entry.message);
        this.sessions.set(m.session, session);
        return entry.resolve(session);
      }
      case 'score':
        return this.sessions.get(m.session)?.onScoreFrame(m);
      case 'signal':
        return this.sessions.get(m.session)?.onSignalFrame(m);
      case 'final':
        this.sessions.get(m.session)?.onFinal(m);
        return this.forgetFinished();
      case 'resumed': {
        const session = this.sessions.get(m.session);
        this.resuming.delete(m.session);
        if (session) session.resumedLast = m.last;
        return;
      }
      case 'error':
        this.onErrorFrame(m);
        return this.forgetFinished();
      case 'pong':
        this.onPong();
        return this.forgetFinished();
    }
  }

  /** Drops ended or lost sessions nothing waits on (their objects keep working for `end`, `scores`, ...). */
  private forgetFinished(): void {
    for (const [id, s] of this.sessions) if (s.done && s.idle) this.sessions.delete(id);
  }

  private onErrorFrame(m: ErrorMessage): void {
    const where = { ...(m.session !== undefined ? { session: m.session } : {}), ...(m.seq !== undefined ? { seq: m.seq } : {}) };
    const entry = m.session === undefined ? undefined : this.starting.get(m.session);
    if (entry && m.session !== undefined) {
      this.starting.delete(m.session);
      const message =
        m.code === 'duplicate_session' && entry.sentOn !== undefined && entry.sentOn !== this.ws
          ? `the connection dropped while starting session ${m.session}, and the server already holds it: ${m.message}`
          : m.message;
      return entry.reject(new SteplensClientError(m.code, message, where));
    }
    const session = m.session === undefined ? undefined : this.sessions.get(m.session);
    const resume = session !== undefined && m.seq === undefined && this.resuming.delete(session.id);
    if (session && m.code === 'unknown_session' && (this.state === 'recovering' || resume) && session.restartable) {
      // The server forgot the session (it restarted): it is started again and replayed once recovery ends.
      session.needsRestart = true;
      return;
    }
    if (session && resume && m.code === 'unavailable') {
      // Its shared store is unreachable: the resume is asked again with backoff, the session's work held meanwhile.
      session.resumeRefused = new SteplensClientError(m.code, m.message, where);
      return;
    }
    if (session) return session.onErrorFrame(m);
    if (m.session === undefined && m.code === 'too_large' && refuseUnnamed(this.sessions.values(), m)) return;
    this.report(new SteplensClientError(m.code, m.message, where));
  }

  private onPong(): void {
    const waiter = this.pongs.next();
    if (!waiter) return;
    if (waiter.kind === 'ping') return waiter.resolve();
    if (waiter.kind === 'recovery') return this.finishRecovery();
    if (waiter.kind === 'resume') return this.afterResume(waiter.session, waiter.attempt);
    for (const s of this.sessions.values()) s.onBarrier(waiter.id);
  }

  /** A malformed frame: every pending call rejects (its answer may have been that frame); the connection goes on. */
  private badFrame(detail: string): void {
    const error = new SteplensClientError('bad_frame', `the server sent a malformed frame: ${detail}`);
    for (const s of this.starting.values()) s.reject(error);
    this.starting.clear();
    for (const s of this.sessions.values()) s.fail(error, false);
    this.pongs.rejectPings(error);
    this.report(error);
  }

  private onClose(code: number, reason: string): void {
    if (this.state === 'closed') return;
    if (code === MESSAGE_TOO_BIG) {
      const sent = { ws: this.ws, sessions: this.sessions, starting: this.starting, resuming: this.resuming };
      refuseOversized(sent, `${code}${reason ? ` ${reason}` : ''}`);
    }
    for (const s of this.sessions.values()) s.onDisconnect();
    this.pongs.disconnected();
    const why = `connection to ${this.config.url} closed (${code}${reason ? ` ${reason}` : ''})`;
    if (!this.config.reconnect || this.tooBig) return this.shutdown(this.tooBig ?? new SteplensClientError('disconnected', why));
    this.state = 'reconnecting';
    void this.reconnect(this.config.reconnect, why);
  }

  private async reconnect(options: ReconnectOptions, why: string): Promise<void> {
    const reconnector = new Reconnector(options);
    this.reconnector = reconnector;
    try {
      const ws = await reconnector.run(() => openSocket(this.config.WebSocket, this.config.url, this.config.token, undefined, this.config.maxServerFrameBytes), why);
      if (!ws || this.closed) return;
      this.ws = ws;
      this.attach(ws);
      this.beginRecovery();
    } catch (error) {
      if (!this.closed) this.shutdown(error as SteplensClientError);
    }
  }

  /** Resumes every open session, re-sends unanswered starts, then waits for a pong before re-sending steps. */
  private beginRecovery(): void {
    this.state = 'recovering';
    const raw = (m: ClientMessage): void => this.ws.send(JSON.stringify(m));
    this.resuming.clear();
    for (const s of this.sessions.values()) {
      if (s.lost) continue;
      s.resumeRefused = undefined;
      this.resuming.add(s.id);
      raw({ type: 'resume', session: s.id, after: s.resumeAfter });
    }
    for (const s of this.starting.values()) {
      raw(s.message);
      s.sentOn = this.ws;
    }
    this.pongs.send({ kind: 'recovery' });
  }

  private finishRecovery(): void {
    this.state = 'ready';
    for (const s of this.starting.values()) if (s.sentOn !== this.ws) this.sendStart(s);
    for (const s of this.sessions.values()) this.afterResume(s, 0);
    this.forgetFinished();
    this.pongs.sendDeferred();
    this.reconnectListeners.emit();
  }

  /** A session's resume is answered (its frames and `resumed` arrived before this pong): carry on, or ask again. */
  private afterResume(s: ClientSession, attempt: number): void {
    if (s.needsRestart) s.restart();
    else if (s.resumeRefused) this.retryResume(s, s.resumeRefused, attempt);
    else if (!s.lost && s.resumedLast !== undefined) s.recover();
  }

  /** Asks again for a resume the server refused (`unavailable`), after the reconnect backoff; gives up after `retries`. */
  private retryResume(s: ClientSession, refusal: SteplensClientError, attempt: number): void {
    s.resumeRefused = undefined;
    const { retries, delayMs } = this.config.reconnect ?? { retries: 0, delayMs: 0 };
    if (attempt >= retries) {
      s.held = false;
      const why = `session ${s.id} could not be resumed after ${retries} attempts: ${refusal.message}`;
      return s.fail(new SteplensClientError('unavailable', why, { session: s.id }));
    }
    s.held = true;
    const ws = this.ws;
    this.resumeRetries.schedule(attempt, delayMs, () => {
      // A socket dropped meanwhile is reopened, and its recovery resumes the session anyway.
      if (ws !== this.ws || this.state !== 'ready' || s.done) return;
      this.resuming.add(s.id);
      ws.send(JSON.stringify({ type: 'resume', session: s.id, after: s.resumeAfter }));
      this.pongs.send({ kind: 'resume', session: s, attempt: attempt + 1 });
    });
  }

  private shutdown(error: SteplensClientError): void {
    this.state = 'closed';
    this.resumeRetries.cancel();
    this.failure = error;
    this.reconnector?.cancel();
    for (const s of this.starting.values()) s.reject(error);
    this.starting.clear();
    for (const s of this.sessions.values()) s.fail(error, false);
    this.pongs.fail(error);
  }
}

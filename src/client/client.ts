/**
 * A connection to a steplens server carrying any number of sessions: frame
 * validation and routing, ping barriers (how a `step` knows it is answered),
 * and reconnect-and-resume when the socket drops.
 */
import type WebSocket from 'ws';
import type { ClientMessage } from '../protocol/client-messages.js';
import type { ErrorMessage, ServerMessage } from '../protocol/server-messages.js';
import { SteplensClientError } from './errors.js';
import { dataText, parseServerFrame } from './frames.js';
import { Listeners } from './listeners.js';
import { ClientSession } from './session.js';
import type { SessionHost } from './session-host.js';
import { Reconnector } from './reconnect.js';
import { Recovery } from './recovery.js';
import { closeSocket, openSocket } from './socket.js';
import { heartbeat } from './heartbeat.js';
import { MESSAGE_TOO_BIG, refuseOversized, refuseUnnamed } from './oversized.js';
import type { Starting } from './pending.js';
import { Starts } from './starts.js';
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
  private readonly starts = new Starts();
  private readonly pongs = new PongQueue({ ready: () => this.state === 'ready', sendPing: () => this.ws.send(JSON.stringify({ type: 'ping' })) });
  private reconnector: Reconnector | undefined;
  private readonly recovery: Recovery;
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
    const link = { socket: () => this.ws, ready: () => this.state === 'ready', reconnect: () => this.config.reconnect };
    this.recovery = new Recovery(link, this.pongs);
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
    if (this.sessions.has(id) || this.starts.has(id)) {
      return Promise.reject(new SteplensClientError('duplicate_session', `session ${id} is already open on this client`, { session: id }));
    }
    const message = { ...opts, type: 'start' as const, session: id };
    return this.starts.open(id, message, this.config.timeoutMs, (entry) => this.sendStart(entry));
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
        const entry = this.starts.take(m.session);
        if (!entry) return;
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
        this.recovery.answered(m.session);
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
    if (this.starts.refuse(m, this.ws, where)) return;
    const session = m.session === undefined ? undefined : this.sessions.get(m.session);
    if (session && this.recovery.refused(session, m, this.state === 'recovering', where)) return;
    if (session) return session.onErrorFrame(m);
    if (m.session === undefined && m.code === 'too_large' && refuseUnnamed(this.sessions.values(), m)) return;
    this.report(new SteplensClientError(m.code, m.message, where));
  }

  private onPong(): void {
    const waiter = this.pongs.next();
    if (!waiter) return;
    if (waiter.kind === 'ping') return waiter.resolve();
    if (waiter.kind === 'recovery') return this.finishRecovery();
    if (waiter.kind === 'resume') return this.recovery.afterResume(waiter.session, waiter.attempt);
    for (const s of this.sessions.values()) s.onBarrier(waiter.id);
  }

  /** A malformed frame: every pending call rejects (its answer may have been that frame); the connection goes on. */
  private badFrame(detail: string): void {
    const error = new SteplensClientError('bad_frame', `the server sent a malformed frame: ${detail}`);
    this.starts.rejectAll(error);
    for (const s of this.sessions.values()) s.fail(error, false);
    this.pongs.rejectPings(error);
    this.report(error);
  }

  private onClose(code: number, reason: string): void {
    if (this.state === 'closed') return;
    if (code === MESSAGE_TOO_BIG) {
      const sent = { ws: this.ws, sessions: this.sessions, starting: this.starts.entries, resuming: this.recovery.resuming };
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
      this.state = 'recovering';
      this.recovery.begin(ws, this.sessions.values(), this.starts);
    } catch (error) {
      if (!this.closed) this.shutdown(error as SteplensClientError);
    }
  }

  private finishRecovery(): void {
    this.state = 'ready';
    this.starts.sendUnsent(this.ws, (entry) => this.sendStart(entry));
    for (const s of this.sessions.values()) this.recovery.afterResume(s, 0);
    this.forgetFinished();
    this.pongs.sendDeferred();
    this.reconnectListeners.emit();
  }

  private shutdown(error: SteplensClientError): void {
    this.state = 'closed';
    this.recovery.cancel();
    this.failure = error;
    this.reconnector?.cancel();
    this.starts.rejectAll(error);
    for (const s of this.sessions.values()) s.fail(error, false);
    this.pongs.fail(error);
  }
}

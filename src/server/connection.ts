/**
 * One WebSocket connection: its sessions, and a bounded outgoing queue. Frames
 * go out through `send`; when the bytes waiting to be written (the socket's
 * `bufferedAmount`) would pass the bound, the client is not reading and the
 * connection is closed with code 1008 and a reason rather than buffering more.
 */
import type { WebSocket } from 'ws';
import type { ServerMessage } from '../protocol/server-messages.js';
import { frameBytes } from './frame-text.js';
import { terminateUnread } from './cut-unread.js';
import type { OutgoingTotal } from './outgoing-total.js';
import { LOCAL_PRINCIPAL, type Principal } from './principal.js';
import type { Session } from './session.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';

/** Close codes the server uses. */
export const CLOSE = {
  /** The client stopped reading (outgoing queue full). */
  tooSlow: 1008,
  /** Server shutting down. */
  goingAway: 1001,
} as const;

/**
 * Messages that waited behind an asynchronous one (a start) run at most this many a turn of the event loop once
 * it settles: all at once, a burst sent behind a start (20,000 steps) held every other client 1.3 s.
 */
export const QUEUED_PER_TURN = 64;

/** Messages waiting behind an asynchronous one past which the socket is not read until half of them ran. */
export const MAX_QUEUED_MESSAGES = 4096;

/** ws's send options for a text frame (one object for every frame). */
const TEXT = { binary: false } as const;

/** Bytes of a heartbeat ping's random payload: a pong that does not echo them is not an answer (T114). */
const PING_BYTES = 8;

/** Time (ms) a connection's queued messages may take before the rest waits for the next turn of the loop. */
const RUN_MS_PER_TURN = 10;

export class Connection {
  readonly id: number;
  /** The keys (tenant-qualified ids, see `sessionKey`) of the sessions it holds, ended ones kept for resume included. */
  readonly sessions = new Set<string>();
  /**
   * The keys of {@link sessions} that were open when they came (a start, a resume), less those that ended since:
   * counting the connection's open sessions walks these, not the thousands of ended ones a long-lived
   * connection may hold within the resume window. May hold stale keys (callers check the session).
   */
  readonly openSessions = new Set<string>();
  /** Whom the connection speaks for (its token's tenant and role; the local operator while auth is off). */
  principal: Principal = LOCAL_PRINCIPAL;
  /**
   * The session its last frame named (stream-handler.ts's `owned`), which its next frame most often names again:
   * checked against the registry by the session's own key instead of a key built from the frame's id. Let go when
   * the connection drops it.
   */
  lastNamed: Session | undefined = undefined;
  private readonly socket: WebSocket;
  private readonly maxQueued: number;
  private closing = false;
  /** Set while an asynchronous message (start, end) is being handled: later messages wait in `queue`. */
  private busy: Promise<void> | undefined;
  private readonly queue: Array<() => void | Promise<void>> = [];
  /** Who holds the socket unread: the frame batch (past its frames of a turn), the queue (past MAX_QUEUED_MESSAGES). */
  private batchPaused = false;
  private queuePaused = false;
  /** Never read again (a stream closed for what it sent, {@link stopReads}). */
  private stopped = false;
  /** {@link busy} is only the wait for the next turn ({@link QUEUED_PER_TURN} messages ran), not an asynchronous message. */
  private yielding = false;
  /** Frames waiting for a durable write to settle, and frames sent after them, in order. */
  private readonly held: Array<{ frames: readonly ServerMessage[] | undefined }> = [];

  private readonly onTooSlow: (queued: number) => void;
  /** Whether the peer answered the last ping (or none was sent yet). */
  private alive = true;
  /** The payload of its last ping, which the peer's pong must echo (RFC 6455, 5.5.3). */
  private pinged: Buffer | undefined;
  /** The TCP socket under the WebSocket (ws keeps it as `_socket`), corked while a burst of frames is written. */
  private readonly raw: { cork(): void; uncork(): void } | undefined;
  private corked = false;
  /** This connection's queued bytes as last counted in {@link outgoing} (T66). */
  private counted = 0;

  /** Holds session `key` (`open`: it has not ended). */
  hold(key: string, open: boolean): void {
    this.sessions.add(key);
    if (open) this.openSessions.add(key);
  }

  /** Session `key` ended: still held (for resume), no longer counted open. */
  ended(key: string): void {
    this.openSessions.delete(key);
  }

  /** No longer holds session `key`. */
  drop(key: string): void {
    this.sessions.delete(key);
    this.openSessions.delete(key);
    if (this.lastNamed?.key === key) this.lastNamed = undefined;
  }

  /**
   * `runMsPerTurn`: time queued messages may take a turn (default {@link RUN_MS_PER_TURN}); tests that count the
   * messages of a slice pass Infinity, so that a slow moment of the machine does not end a slice early.
   */
  constructor(
    id: number,
    socket: WebSocket,
    maxQueued: number,
    onTooSlow: (queued: number) => void = () => undefined,
    private readonly runMsPerTurn = RUN_MS_PER_TURN,
    /** Every connection's queued bytes together (outgoing-total.ts); none: only `maxQueued` bounds this one. */
    private readonly outgoing?: OutgoingTotal,
  ) {
    this.id = id;
    this.socket = socket;
    this.maxQueued = maxQueued;
    this.onTooSlow = onTooSlow;
    const raw = (socket as unknown as { _socket?: { cork?: unknown; uncork?: unknown } })._socket;
    this.raw = typeof raw?.cork === 'function' && typeof raw.uncork === 'function' ? (raw as { cork(): void; uncork(): void }) : undefined;
    // Only the echo of its last ping: a client that never reads cannot keep itself alive with pongs of its own (T114).
    socket.on('pong', (data: Buffer) => {
      if (this.pinged?.equals(data) === true) this.alive = true;
    });
    if (outgoing !== undefined) {
      // Counted once a burst (uncork), when the socket drains and when it closes: not a callback a frame.
      (raw as { on?: (e: string, f: () => void) => void } | undefined)?.on?.('drain', this.count);
      socket.once('close', this.count);
    }
  }

  /** Brings this connection's bytes in {@link outgoing} up to date (0 once closed). */
  private readonly count = (): void => {
    const now = this.open ? this.socket.bufferedAmount : 0;
    if (now === this.counted || this.outgoing === undefined) return;
    this.outgoing.add(now - this.counted);
    this.counted = now;
  };

  /**
   * One heartbeat: pings the peer, unless it has not answered the previous ping (a half-open connection:
   * the peer is gone without a close), in which case the socket is terminated and false returned.
   */
  beat(): boolean {
    if (!this.alive) {
      terminateUnread(this.socket, 'no answer to the heartbeat: connection cut');
      return false;
    }
    this.alive = false;
    this.pinged = randomBytes(PING_BYTES);
    try {
      this.socket.ping(this.pinged);
    } catch {
      // Not open (closing): its close handler runs anyway.
    }
    return true;
  }

  /** Holds writes until the current burst of work is done, so its frames leave in one write. */
  private batch(): void {
    if (this.corked || this.raw === undefined) return;
    this.corked = true;
    this.raw.cork();
    process.nextTick(this.uncork);
  }

  /** Ends a burst ({@link batch}); one function per connection, not a closure per burst. */
  private readonly uncork = (): void => {
    this.corked = false;
    this.raw?.uncork();
    if (this.outgoing !== undefined) this.count();
  };

  /**
   * Handles messages strictly in order: a message runs at once (synchronously)
   * unless an earlier one is still being handled asynchronously, in which
   * case it waits its turn. Most messages (step, ping, outcome) are handled
   * synchronously, so they cost no promise.
   */
  handle(work: () => void | Promise<void>): void {
    if (this.busy !== undefined) {
      this.queue.push(work);
      if (this.queue.length >= MAX_QUEUED_MESSAGES && !this.queuePaused) {
        this.queuePaused = true;
        this.applyPause();
      }
      return;
    }
    this.run(work);
  }

  /** `paced`: at most QUEUED_PER_TURN queued messages or RUN_MS_PER_TURN a turn (a close runs the rest at once). */
  private run(work: () => void | Promise<void>, paced = true): void {
    // The clock is read only when messages wait (most calls run one message with none queued: a step's frame).
    let started = this.queue.length > 0 ? performance.now() : -1;
    let budget = QUEUED_PER_TURN;
    for (let next: (() => void | Promise<void>) | undefined = work; next !== undefined; next = this.queue.shift()) {
      const result = next();
      if (result instanceof Promise) return this.after(result, false);
      // Messages queued behind a slow one (a start, a resume rebuilt over many turns) run a slice a turn, not all at once.
      if (paced && this.queue.length > 0) {
        if (started < 0) started = performance.now();
        if (--budget <= 0 || performance.now() - started >= this.runMsPerTurn) return this.after(nextTurn(), true);
      }
    }
    if (this.queuePaused) {
      this.queuePaused = false;
      this.applyPause();
    }
  }

  /** Later messages wait until `pending` settles (an asynchronous message, or the next turn), then run in order. */
  private after(pending: Promise<void>, turn: boolean): void {
    if (this.queuePaused && this.queue.length < MAX_QUEUED_MESSAGES / 2) {
      this.queuePaused = false;
      this.applyPause();
    }
    this.yielding = turn;
    const busy: Promise<void> = pending.finally(() => {
      // drainQueued may have run the queue meanwhile (and be waiting on something else now).
      if (this.busy !== busy) return;
      this.busy = undefined;
      this.yielding = false;
      const next = this.queue.shift();
      if (next !== undefined) this.run(next);
    });
    this.busy = busy;
  }

  /**
   * The socket closed: `detach` runs once every message it sent has run, in order, those still queued at their
   * pace. Run at once on a close (as drainQueued does), the 3,000 steps a tenant queued behind a slow start (its
   * own 10,000-node PTA read cold, 10-20 ms a step) held every client over 8 s.
   */
  closed(detach: () => void): void {
    this.handle(detach);
  }

  /**
   * The server is closing: messages waiting only for the next turn (not for an asynchronous one) run now, so every
   * message received before it is handled before the sessions are ended or handed back.
   */
  drainQueued(): void {
    if (!this.yielding) return;
    this.busy = undefined;
    this.yielding = false;
    const next = this.queue.shift();
    if (next !== undefined) this.run(next, false);
  }

  /** Stops reading the socket until {@link resumeReads} (frame-batch.ts: a connection past its frames of a turn). */
  pauseReads(): void {
    this.batchPaused = true;
    this.applyPause();
  }

  /** Reads the socket again (a no-op on a closed one), unless its queue of waiting messages is full. */
  resumeReads(): void {
    this.batchPaused = false;
    this.applyPause();
  }

  /** Stops reading the socket for good: what the client sends from now on is not read (it is being closed). */
  stopReads(): void {
    this.stopped = true;
    this.applyPause();
  }

  /** The socket is read unless stopped, or the frame batch or the queue of waiting messages holds it. */
  private applyPause(): void {
    if (this.stopped || this.batchPaused || this.queuePaused) this.socket.pause();
    else this.socket.resume();
  }

  get open(): boolean {
    return !this.closing && this.socket.readyState === this.socket.OPEN;
  }

  /**
   * Sends one frame; false when the connection is closed or was just closed
   * for being too slow. While frames wait for a durable write (`sendWhen`),
   * it queues behind them, so frames leave in the order they were sent.
   */
  send(message: ServerMessage): boolean {
    if (this.held.length > 0) {
      if (!this.open) return false;
      this.held.push({ frames: [message] });
      return true;
    }
    return this.sendNow(message);
  }

  /**
   * Sends the frames `ready` resolves to once it settles (a durable write),
   * keeping their place: frames sent after this call wait behind them.
   */
  sendWhen(ready: Promise<readonly ServerMessage[]>): void {
    const slot: { frames: readonly ServerMessage[] | undefined } = { frames: undefined };
    this.held.push(slot);
    const release = (frames: readonly ServerMessage[]): void => {
      slot.frames = frames;
      while (this.held[0]?.frames !== undefined) for (const f of (this.held.shift() as { frames: readonly ServerMessage[] }).frames) this.sendNow(f);
    };
    ready.then(release, () => release([]));
  }

  /**
   * The frame goes to ws as a Buffer: handing ws the string instead (no Buffer per frame) costs more, not less, once
   * the socket writes it (a string chunk takes the generic writev path: +0.4 µs a frame measured end to end).
   */
  private sendNow(message: ServerMessage): boolean {
    if (!this.open) return false;
    const data = frameBytes(message);
    const queued = this.socket.bufferedAmount;
    const own = queued + data.length > this.maxQueued;
    if (own || this.outgoing?.over(this.counted, data.length) === true) {
      this.onTooSlow(queued);
      this.close(
        CLOSE.tooSlow,
        own
          ? `outgoing queue over ${this.maxQueued} bytes: client is not reading`
          : `all connections' outgoing queues over ${this.outgoing!.max} bytes, ${this.counted} of them this one's: client is not reading`,
      );
      return false;
    }
    this.batch();
    this.socket.send(data, TEXT);
    if (this.outgoing !== undefined && this.raw === undefined) this.count();
    return true;
  }

  /** Closes with a code and a reason (at most 123 bytes, as WebSocket allows). */
  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    try {
      this.socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
    } catch {
      terminateUnread(this.socket, reason);
    }
    // A client that does not read gets no close frame either: its frames queued so far go with one error (cut-unread.ts).
    const timer = setTimeout(() => terminateUnread(this.socket, reason), 2000);
    timer.unref();
    this.socket.once('close', () => clearTimeout(timer));
  }
}

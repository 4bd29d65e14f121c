/**
 * The pings a client has sent and the pongs it waits for, in order (the server answers a connection's messages
 * strictly in order): ping barriers (how a `step` knows it is answered), `ping()` calls, and the pings of recovery
 * and of a resume asked again. A `ping()` asked while the socket is down waits here until recovery ends.
 */
import type { SteplensClientError } from './errors.js';
import type { PongWaiter, Waiter } from './pending.js';

/** What the queue needs of its client: whether it may send now, and sending one `ping` frame on the current socket. */
export interface PingWire {
  ready(): boolean;
  sendPing(): void;
}

export class PongQueue {
  private waiting: PongWaiter[] = [];
  private deferred: Array<Waiter<void>> = [];
  private barrierCounter = 0;
  private barrierRequested = false;

  constructor(private readonly wire: PingWire) {}

  /** The id of the ping barrier that will cover a message sent now. */
  get nextBarrier(): number {
    return this.barrierCounter;
  }

  /** Sends a ping; its pong goes to `waiter`. */
  send(waiter: PongWaiter): void {
    this.waiting.push(waiter);
    this.wire.sendPing();
  }

  /** A `ping()` call: sent now, or once recovery ends. */
  ping(waiter: Waiter<void>): void {
    if (this.wire.ready()) this.send({ kind: 'ping', ...waiter });
    else this.deferred.push(waiter);
  }

  requestBarrier(): void {
    if (this.barrierRequested) return;
    this.barrierRequested = true;
    queueMicrotask(() => this.flushBarrier());
  }

  flushBarrier(): void {
    if (!this.barrierRequested) return;
    this.barrierRequested = false;
    if (this.wire.ready()) this.send({ kind: 'barrier', id: this.barrierCounter++ });
  }

  /** What the pong that just came answers, if anything waits for one. */
  next(): PongWaiter | undefined {
    return this.waiting.shift();
  }

  /** A malformed frame: `ping()` calls reject (their pong may have been that frame); barriers and recovery go on. */
  rejectPings(error: SteplensClientError): void {
    for (const w of this.waiting) if (w.kind === 'ping') w.reject(error);
    this.waiting = this.waiting.filter((w) => w.kind !== 'ping');
    for (const w of this.deferred.splice(0)) w.reject(error);
  }

  /** The socket dropped: no pong will come on it; `ping()` calls are asked again once recovery ends. */
  disconnected(): void {
    for (const w of this.waiting) if (w.kind === 'ping') this.deferred.push(w);
    this.waiting = [];
    this.barrierRequested = false;
  }

  /** Recovery ended: the `ping()` calls asked meanwhile are sent. */
  sendDeferred(): void {
    for (const w of this.deferred.splice(0)) this.send({ kind: 'ping', ...w });
  }

  /** The client is closed: every `ping()` call rejects with `error`. */
  fail(error: SteplensClientError): void {
    for (const w of this.waiting) if (w.kind === 'ping') w.reject(error);
    this.waiting = [];
    for (const w of this.deferred.splice(0)) w.reject(error);
  }
}

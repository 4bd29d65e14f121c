/**
 * Large bytes written to many HTTP responses a piece at a time: at most {@link TURN_BYTES} handed to the sockets
 * per turn of the event loop (whichever responses they go to, in turn), and a response's next piece only once it
 * took the last one (`write` returned true, or its `drain` came). The live feed's first event (a 5,000-step
 * session's view is 1.6 MB) written whole to 32 viewers at once handed 51 MB to the kernel in one turn: `writev`
 * held the loop 23-28 ms (a CPU profile of the stall bench's `live-32` at load 5, docs/reliability.md T35). The
 * pieces are views of the same bytes (`subarray`), never copies: viewers of one event share one buffer.
 */
import { setImmediate } from 'node:timers';

/**
 * Bytes handed to one response at a time: the most of an event a response holds unread (see the live feed's queue
 * bound). Each write costs a chunk header, a `writev` and a `drain`: 1.6 MB to 32 loopback readers in pieces of
 * 64 KiB, 2 MiB a turn, took 4-6 ms of CPU in its longest turn, in pieces of 256 KiB 3-4 ms (the others ~1 ms),
 * the whole write in one turn 9-10 ms (a /tmp scratch bench, not kept, load 2.7). In the stall bench's `live-32`,
 * 64 KiB pieces at 1 MiB a turn lengthened the server's loop delay (more writes and wake-ups on 2 shared cores).
 */
export const PIECE_BYTES = 256 * 1024;
/** Bytes handed to all responses in one turn: 8 pieces. */
export const TURN_BYTES = 2 * 1024 * 1024;

/** What a paced write needs of an HTTP response (a `ServerResponse`). */
export interface PacedTarget {
  write(chunk: Buffer): boolean;
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
}

/** One write under way: `next` is the offset of its next piece; `drain` set while its response has not taken the last. */
export interface PacedWrite {
  readonly target: PacedTarget;
  readonly bytes: Buffer;
  next: number;
  drain: (() => void) | undefined;
  readonly done: () => void;
}

export class PacedWrites {
  /** In the order they get their next piece (served ones move to the end: each response in turn). */
  private readonly writes = new Set<PacedWrite>();
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    /** Bytes handed to one response at a time. */
    readonly piece = PIECE_BYTES,
    private readonly perTurn = TURN_BYTES,
  ) {}

  /** Writes under way. */
  get size(): number {
    return this.writes.size;
  }

  /**
   * Writes `bytes` to `target` from the next turn on; `done` is called once the last piece is handed to it (not when
   * cancelled, nor when the target ended or was destroyed meanwhile: its owner hears that from the response).
   */
  start(target: PacedTarget, bytes: Buffer, done: () => void): PacedWrite {
    const w: PacedWrite = { target, bytes, next: 0, drain: undefined, done };
    this.writes.add(w);
    this.schedule();
    return w;
  }

  /** Stops a write (its client left); idempotent. */
  cancel(w: PacedWrite): void {
    if (!this.writes.delete(w)) return;
    if (w.drain !== undefined) w.target.off('drain', w.drain);
    w.drain = undefined;
  }

  /** Stops every write (shutdown). */
  close(): void {
    for (const w of [...this.writes]) this.cancel(w);
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
  }

  /** A turn is queued while some write can go on (not every response is waiting for `drain`). */
  private schedule(): void {
    if (this.scheduled !== undefined) return;
    for (const w of this.writes) {
      if (w.drain !== undefined) continue;
      this.scheduled = setImmediate(() => this.pump());
      return;
    }
  }

  private pump(): void {
    this.scheduled = undefined;
    let budget = this.perTurn;
    const served: PacedWrite[] = [];
    const finished: PacedWrite[] = [];
    for (const w of this.writes) {
      if (budget <= 0) break;
      if (w.drain !== undefined) continue;
      if (w.target.destroyed || w.target.writableEnded) {
        this.cancel(w);
        continue;
      }
      const end = Math.min(w.next + this.piece, w.bytes.length);
      const took = w.target.write(w.bytes.subarray(w.next, end));
      budget -= end - w.next;
      w.next = end;
      if (end === w.bytes.length) {
        this.writes.delete(w);
        finished.push(w);
        continue;
      }
      served.push(w);
      if (!took) {
        const drain = (): void => {
          w.drain = undefined;
          this.schedule();
        };
        w.drain = drain;
        w.target.once('drain', drain);
      }
    }
    for (const w of served) if (this.writes.delete(w)) this.writes.add(w);
    // After the loop: a `done` may write more to its response, or cancel other writes.
    for (const w of finished) w.done();
    this.schedule();
  }
}

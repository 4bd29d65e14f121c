/**
 * The frames that arrive in one turn of the event loop, handled together once the turn's socket reads are done
 * (`setImmediate` runs after the poll phase). With one step in flight per connection, handling each frame inside
 * its socket's read callback interleaved the scoring code with the network path for every step, and a step cost
 * about 80 µs of server CPU; handled a few at a time after the reads, about 62 (bench/README.md, "Frames handled
 * after the turn's reads"). Frames are handled in the order they arrived, so each connection's order holds; a
 * connection's `close` hands over its frames first, so every frame received before it is handled before its
 * sessions are detached, as when frames were handled at once.
 *
 * The same turn paces the readers: a connection handles at most FRAMES_PER_TURN frames a turn. Past them its
 * socket is paused, and the rest of the read in hand (ws hands over every frame of a read at once) is held for
 * the next turns, FRAMES_PER_TURN a turn after that turn's arrivals, the socket paused until none is left. So the
 * other connections are read in between, and their frames do not wait behind the backlog. Unpaused, one read callback handled every frame of up to 32 socket reads (2 MB): a tenant sending
 * 20,000 tiny steps at once held the loop 1.5 s; paused but with the read in hand handled at once, 0.2-0.5 s.
 */
import type { Connection } from './connection.js';

export type FrameHandler = (conn: Connection, raw: Buffer, isBinary: boolean) => void;

/**
 * Frames handled in one batch at most: a turn that reads a backlog (the server fell behind for a moment) answers
 * in batches of this many instead of holding every answer until the whole backlog is handled (unbounded, the p99
 * at half the maximum rate read 175 ms against 34-77 before batching).
 */
export const MAX_BATCH = 16;

/** Frames one connection may have handled in one turn of the loop; the rest wait for the next turns. */
export const FRAMES_PER_TURN = 64;

export class FrameBatch {
  /** Pending frames as (connection, bytes, binary) triples: one array for the batch, not an object a frame. */
  private pending: unknown[] = [];
  private scheduled = false;
  /** Frames each connection handed over in this turn. */
  private readonly inTurn = new Map<Connection, number>();
  /**
   * Frames past a connection's share of a turn, as (bytes, binary) pairs in arrival order, and the next one to hand
   * over; its socket is paused while it has any.
   */
  private readonly held = new Map<Connection, { frames: unknown[]; next: number }>();

  constructor(
    private readonly handle: FrameHandler,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Frames waiting for the end of the turn or for a later one. */
  get size(): number {
    let n = this.pending.length / 3;
    for (const held of this.held.values()) n += (held.frames.length - held.next) / 2;
    return n;
  }

  add(conn: Connection, raw: Buffer, isBinary: boolean): void {
    const n = (this.inTurn.get(conn) ?? 0) + 1;
    this.inTurn.set(conn, n);
    const held = this.held.get(conn);
    if (held !== undefined) held.frames.push(raw, isBinary);
    else if (n > FRAMES_PER_TURN) {
      // Paused at its FRAMES_PER_TURN-th frame already; again in case it was resumed in the middle of a read.
      conn.pauseReads();
      this.held.set(conn, { frames: [raw, isBinary], next: 0 });
    } else {
      if (n === FRAMES_PER_TURN) conn.pauseReads();
      this.pending.push(conn, raw, isBinary);
    }
    this.schedule();
    if (this.pending.length >= 3 * MAX_BATCH) this.flush();
  }

  /** Hands over every frame of `conn` now, held ones included (its socket closed: nothing comes after them). */
  drain(conn: Connection): void {
    const held = this.held.get(conn);
    this.flush();
    if (held === undefined) return;
    this.held.delete(conn);
    for (let i = held.next; i < held.frames.length; i += 2) this.pending.push(conn, held.frames[i], held.frames[i + 1]);
    this.flush();
  }

  /** Hands over every frame of every connection now (the server is closing). */
  drainAll(): void {
    for (const conn of [...this.held.keys()]) this.drain(conn);
    this.flush();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turnEnd);
  }

  private readonly turnEnd = (): void => {
    this.scheduled = false;
    // This turn's arrivals first: a quiet connection's frame does not wait behind another's backlog.
    this.flush();
    for (const [conn, held] of this.held) {
      // A connection whose frames came this turn already had its share of it (they fill FRAMES_PER_TURN first).
      const share = Math.max(0, FRAMES_PER_TURN - (this.inTurn.get(conn) ?? 0));
      const end = Math.min(held.frames.length, held.next + 2 * share);
      for (let i = held.next; i < end; i += 2) {
        this.pending.push(conn, held.frames[i], held.frames[i + 1]);
        if (this.pending.length >= 3 * MAX_BATCH) this.flush();
      }
      held.next = end;
      if (end < held.frames.length) continue;
      this.held.delete(conn);
      conn.resumeReads();
    }
    this.flush();
    for (const [conn, n] of this.inTurn) if (n >= FRAMES_PER_TURN && !this.held.has(conn)) conn.resumeReads();
    this.inTurn.clear();
    if (this.held.size > 0) this.schedule();
  };

  /** Handles every pending frame now, in arrival order (a frame that throws does not stop the others). */
  flush(): void {
    const items = this.pending;
    if (items.length === 0) return;
    // A frame handled here cannot add to this batch (frames come from socket reads), but a flush from a close
    // handler could start while this one runs: it then sees only frames that arrived after the swap.
    this.pending = [];
    for (let i = 0; i < items.length; i += 3) {
      try {
        this.handle(items[i] as Connection, items[i + 1] as Buffer, items[i + 2] as boolean);
      } catch (error) {
        // handleFrame answers bad input itself: anything thrown past it is a bug, reported and kept from the other frames.
        this.onError(error);
      }
    }
  }
}

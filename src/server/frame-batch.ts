/**
 * The frames that arrive in one turn of the event loop, handled together once the turn's socket reads are done
 * (`setImmediate` runs after the poll phase). With one step in flight per connection, handling each frame inside
 * its socket's read callback interleaved the scoring code with the network path for every step, and a step cost
 * about 80 µs of server CPU; handled a few at a time after the reads, about 62 (bench/README.md, "Frames handled
 * after the turn's reads"). Frames are handled in the order they arrived, so each connection's order holds; a
 * connection's `close` flushes first, so every frame received before it is handled before its sessions are
 * detached, as when frames were handled at once.
 *
 * The same turn paces the readers: a connection that hands over FRAMES_PER_TURN frames in one turn has its socket
 * paused until the turn ends, so the other connections are read in between. Unpaused, one read callback handled
 * every frame of up to 32 socket reads (2 MB): a tenant sending 20,000 tiny steps at once held the loop 1.5 s.
 */
import type { Connection } from './connection.js';

export type FrameHandler = (conn: Connection, raw: Buffer, isBinary: boolean) => void;

/**
 * Frames handled in one batch at most: a turn that reads a backlog (the server fell behind for a moment) answers
 * in batches of this many instead of holding every answer until the whole backlog is handled (unbounded, the p99
 * at half the maximum rate read 175 ms against 34-77 before batching).
 */
export const MAX_BATCH = 16;

/** Frames one connection may hand over in one turn of the loop before its socket is paused until the turn ends. */
export const FRAMES_PER_TURN = 64;

export class FrameBatch {
  /** Pending frames as (connection, bytes, binary) triples: one array for the batch, not an object a frame. */
  private pending: unknown[] = [];
  private scheduled = false;
  /** Frames each connection handed over in this turn. */
  private readonly inTurn = new Map<Connection, number>();

  constructor(
    private readonly handle: FrameHandler,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Frames waiting for the end of the turn. */
  get size(): number {
    return this.pending.length / 3;
  }

  add(conn: Connection, raw: Buffer, isBinary: boolean): void {
    this.pending.push(conn, raw, isBinary);
    const n = (this.inTurn.get(conn) ?? 0) + 1;
    this.inTurn.set(conn, n);
    if (n === FRAMES_PER_TURN) conn.pauseReads();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.turnEnd);
    }
    if (this.pending.length >= 3 * MAX_BATCH) this.flush();
  }

  private readonly turnEnd = (): void => {
    this.scheduled = false;
    this.flush();
    for (const [conn, n] of this.inTurn) if (n >= FRAMES_PER_TURN) conn.resumeReads();
    this.inTurn.clear();
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

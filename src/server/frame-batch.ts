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
 *
 * Frames are also paced by time: once one tenant's frames took TENANT_MS_PER_TURN in a turn, its further frames
 * wait for the next turns (held, their sockets paused, as above). A count alone let a step's cost decide: 64 steps
 * scored against a tenant's own 10,000-node PTA (10-20 ms each) held everyone's loop 1.3-1.8 s. A closing
 * connection's held frames are handled at the same pace, and its close goes on once they are.
 * A frame is not cut, so a tenant whose frames took more than TENANT_MS_PER_TURN in a turn owes the excess: its
 * frames then wait (held, on a timer, not a spinning loop) until as much wall-clock time has passed. Per turn alone,
 * a tenant whose every step cost ~200 ms (a bash parse at its CPU backstop) had one handled every turn and so held
 * the loop ~95% of the time: other tenants' pings and steps waited behind one of its steps each (T96). Only while
 * another tenant's frames were handled in the last OWED_WITNESS_MS: a tenant alone (a server of one tenant) has no one
 * to wait for, and would leave the CPU idle for the excess (a 15 ms step against a big PTA: a third of its rate).
 *
 * Held frames are bounded together (T67): each weighs its bytes and HELD_FRAME_OVERHEAD (the Buffer and its slots
 * on the heap), and past `maxHeld` the connection holding the most is refused: its held frames dropped, its later
 * ones ignored, `onRefused` closes it (its sessions detach, resumable). One read is at most one connection's hold,
 * but a 64 KiB read of 7-byte frames is 9,362 of them (~1.2 MB on the heap): 2,000 such streams held over a GB.
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

/** Time (ms) one tenant's frames may take in a turn of the loop before its further frames wait for the next turn. */
export const TENANT_MS_PER_TURN = 10;

/** A tenant owes time only while another tenant's frames were handled this recently (ms). */
export const OWED_WITNESS_MS = 10_000;

/**
 * Heap bytes a held frame costs besides its own: its Buffer (a view on the read) and two array slots, 120 measured
 * with 1-byte frames (`process.memoryUsage().heapUsed` over 936,200 of them).
 */
export const HELD_FRAME_OVERHEAD = 128;

/** Held frames of one connection, as (bytes, binary) pairs in arrival order, the next one to hand over, their weight. */
interface Held {
  frames: unknown[];
  next: number;
  /** Bytes and HELD_FRAME_OVERHEAD of each frame from `next` on. */
  weight: number;
}

/** What a held frame weighs against `maxHeld`. */
const weigh = (raw: unknown): number => (raw as Buffer).length + HELD_FRAME_OVERHEAD;

export class FrameBatch {
  /** Pending frames as (connection, bytes, binary) triples: one array for the batch, not an object a frame. */
  private pending: unknown[] = [];
  private scheduled = false;
  /** Frames each connection handed over in this turn. */
  private readonly inTurn = new Map<Connection, number>();
  /** Frames past a connection's share of a turn (or its tenant's time); its socket is paused while it has any. */
  private readonly held = new Map<Connection, Held>();
  /** Connections this batch paused (resumed once they hold nothing). */
  private readonly paused = new Set<Connection>();
  /** Milliseconds each tenant's frames took in this turn. */
  private readonly spent = new Map<unknown, number>();
  /** Tenants whose frames took more than their time of a turn, and until when (performance.now()) their frames wait. */
  private readonly owedUntil = new Map<unknown, number>();
  /** The last tenant whose frame was handled, and when; and when the last frame of any other tenant was. */
  private lastWho: unknown = undefined;
  private lastAt = -Infinity;
  private otherAt = -Infinity;
  /** The timer that wakes the batch when only owing tenants' frames are held. */
  private wake: NodeJS.Timeout | undefined;
  /** Closed connections whose held frames are still to be handled, and what to run once they are. */
  private readonly closing = new Map<Connection, () => void>();
  /** Set while the server closes: every frame is handled at once. */
  private unpaced = false;
  /** Every held frame's weight together. */
  private heldWeight = 0;
  /** Connections refused past `maxHeld`: their later frames (the rest of the read) are ignored. */
  private readonly refused = new WeakSet<Connection>();

  constructor(
    private readonly handle: FrameHandler,
    private readonly onError: (error: unknown) => void,
    /** Whose time a connection's frames take (its tenant). */
    private readonly owner: (conn: Connection) => unknown = (conn) => conn.principal.tenant,
    /** Held frames' weight all connections together may reach (0: no bound); past it the biggest holder is refused. */
    private readonly maxHeld = 0,
    /** Closes a refused connection (`weight`: what it held). */
    private readonly onRefused: (conn: Connection, weight: number) => void = () => undefined,
  ) {}

  /** Every held frame's weight together (bytes and HELD_FRAME_OVERHEAD each). */
  get heldBytes(): number {
    return this.heldWeight;
  }

  /** Frames waiting for the end of the turn or for a later one. */
  get size(): number {
    let n = this.pending.length / 3;
    for (const held of this.held.values()) n += (held.frames.length - held.next) / 2;
    return n;
  }

  add(conn: Connection, raw: Buffer, isBinary: boolean): void {
    if (this.refused.has(conn)) return;
    const n = (this.inTurn.get(conn) ?? 0) + 1;
    this.inTurn.set(conn, n);
    const held = this.held.get(conn);
    if (held !== undefined || n > FRAMES_PER_TURN) {
      const w = weigh(raw);
      if (held !== undefined) {
        held.frames.push(raw, isBinary);
        held.weight += w;
      } else {
        // Paused at its FRAMES_PER_TURN-th frame already; again in case it was resumed in the middle of a read.
        this.pause(conn);
        this.held.set(conn, { frames: [raw, isBinary], next: 0, weight: w });
      }
      this.heldWeight += w;
      if (this.maxHeld > 0 && this.heldWeight > this.maxHeld) this.refuseBiggest();
    } else {
      if (n === FRAMES_PER_TURN) this.pause(conn);
      this.pending.push(conn, raw, isBinary);
    }
    this.schedule();
    if (this.pending.length >= 3 * MAX_BATCH) this.flush();
  }

  /**
   * `conn`'s socket closed: its frames still held are handled in the next turns, at the usual pace (nothing comes
   * after them), then `done` runs (at once when none is held).
   */
  drain(conn: Connection, done: () => void = () => undefined): void {
    this.flush();
    if (!this.held.has(conn)) return done();
    this.closing.set(conn, done);
    this.schedule();
  }

  /** Hands over every frame of every connection now (the server is closing). */
  drainAll(): void {
    this.unpaced = true;
    try {
      this.flush();
      for (const [conn, held] of [...this.held]) {
        this.held.delete(conn);
        this.heldWeight -= held.weight;
        for (let i = held.next; i < held.frames.length; i += 2) this.pending.push(conn, held.frames[i], held.frames[i + 1]);
        this.flush();
      }
    } finally {
      this.unpaced = false;
    }
    this.settle();
  }

  private pause(conn: Connection): void {
    this.paused.add(conn);
    conn.pauseReads();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turnEnd);
  }

  private readonly turnEnd = (): void => {
    this.scheduled = false;
    if (this.wake !== undefined) clearTimeout(this.wake);
    this.wake = undefined;
    // This turn's arrivals first: a quiet connection's frame does not wait behind another's backlog.
    this.flush();
    // Moved before any is handled (one flush after the loop): a connection whose frames its tenant's time then
    // holds again has only later frames held, so they go back ahead of them.
    for (const [conn, held] of this.held) {
      if (this.owes(this.owner(conn))) continue;
      // A connection whose frames came this turn already had its share of it (they fill FRAMES_PER_TURN first).
      const share = Math.max(0, FRAMES_PER_TURN - (this.inTurn.get(conn) ?? 0));
      const from = held.next;
      held.next = Math.min(held.frames.length, from + 2 * share);
      for (let i = from; i < held.next; i += 2) {
        this.pending.push(conn, held.frames[i], held.frames[i + 1]);
        const w = weigh(held.frames[i]);
        held.weight -= w;
        this.heldWeight -= w;
      }
      if (held.next === held.frames.length) this.held.delete(conn);
    }
    this.flush();
    this.inTurn.clear();
    this.noteOwed();
    this.settle();
    this.scheduleHeld();
  };

  /** True while `who`'s frames wait for the time it owes (never while the server closes). */
  private owes(who: unknown): boolean {
    return !this.unpaced && this.owedUntil.size > 0 && (this.owedUntil.get(who) ?? 0) > performance.now();
  }

  /** Ends the turn's time: a tenant that took more than TENANT_MS_PER_TURN owes the excess; debts paid are dropped. */
  private noteOwed(): void {
    const now = performance.now();
    for (const [who, until] of this.owedUntil) if (until <= now) this.owedUntil.delete(who);
    for (const [who, ms] of this.spent) {
      if (ms > TENANT_MS_PER_TURN && this.othersSeen(who, now)) this.owedUntil.set(who, Math.max(this.owedUntil.get(who) ?? 0, now + ms - TENANT_MS_PER_TURN));
    }
    this.spent.clear();
  }

  /** True when a tenant other than `who` had a frame handled in the last OWED_WITNESS_MS. */
  private othersSeen(who: unknown, now: number): boolean {
    const at = this.lastWho !== who ? this.lastAt : this.otherAt;
    return now - at <= OWED_WITNESS_MS;
  }

  /** Notes that `who`'s frame was handled at `at` (O(1): the last tenant and the last time of any other). */
  private seen(who: unknown, at: number): void {
    if (who !== this.lastWho) {
      this.otherAt = this.lastAt;
      this.lastWho = who;
    }
    this.lastAt = at;
  }

  /** The next turn for held frames: at once if a connection's tenant owes nothing, else when the first debt is paid. */
  private scheduleHeld(): void {
    if (this.held.size === 0) return;
    let first = Infinity;
    for (const conn of this.held.keys()) {
      const who = this.owner(conn);
      if (!this.owes(who)) return this.schedule();
      first = Math.min(first, this.owedUntil.get(who)!);
    }
    if (this.scheduled || this.wake !== undefined) return;
    this.wake = setTimeout(
      () => {
        this.wake = undefined;
        this.schedule();
      },
      Math.max(1, Math.ceil(first - performance.now())),
    );
    this.wake.unref();
  }

  /** Resumes the connections that hold nothing any more, and finishes the closes that waited for their frames. */
  private settle(): void {
    for (const conn of this.paused) {
      if (this.held.has(conn) || (this.inTurn.get(conn) ?? 0) >= FRAMES_PER_TURN) continue;
      this.paused.delete(conn);
      conn.resumeReads();
    }
    for (const [conn, done] of this.closing) {
      if (this.held.has(conn)) continue;
      this.closing.delete(conn);
      done();
    }
  }

  /**
   * Handles pending frames now, in arrival order (a frame that throws does not stop the others). A tenant whose
   * frames took its time of the turn has the rest held, in order, before any it has held already.
   */
  flush(): void {
    const items = this.pending;
    if (items.length === 0) return;
    // A frame handled here cannot add to this batch (frames come from socket reads), but a flush from a close
    // handler could start while this one runs: it then sees only frames that arrived after the swap.
    this.pending = [];
    let later: Map<Connection, unknown[]> | undefined;
    for (let i = 0; i < items.length; i += 3) {
      const conn = items[i] as Connection;
      const who = this.owner(conn);
      const deferred = later?.get(conn);
      // Once one frame of a connection waits, every later one does: its order holds.
      if (deferred !== undefined || (!this.unpaced && (this.spent.get(who) ?? 0) >= TENANT_MS_PER_TURN) || this.owes(who)) {
        if (deferred !== undefined) deferred.push(items[i + 1], items[i + 2]);
        else (later ??= new Map()).set(conn, [items[i + 1], items[i + 2]]);
        continue;
      }
      const started = performance.now();
      try {
        this.handle(conn, items[i + 1] as Buffer, items[i + 2] as boolean);
      } catch (error) {
        // handleFrame answers bad input itself: anything thrown past it is a bug, reported and kept from the other frames.
        this.onError(error);
      }
      const ended = performance.now();
      this.spent.set(who, (this.spent.get(who) ?? 0) + ended - started);
      this.seen(who, ended);
    }
    if (later !== undefined) for (const [conn, frames] of later) this.holdFirst(conn, frames);
  }

  /** Holds `frames` of `conn` ahead of those it holds already (they came before them); it goes last in the next turn's order. */
  private holdFirst(conn: Connection, frames: unknown[]): void {
    if (this.refused.has(conn)) return;
    const held = this.held.get(conn);
    let weight = 0;
    for (let i = 0; i < frames.length; i += 2) weight += weigh(frames[i]);
    this.held.delete(conn);
    this.held.set(conn, {
      frames: held === undefined ? frames : [...frames, ...held.frames.slice(held.next)],
      next: 0,
      weight: weight + (held?.weight ?? 0),
    });
    this.heldWeight += weight;
    this.pause(conn);
    this.schedule();
    if (this.maxHeld > 0 && this.heldWeight > this.maxHeld) this.refuseBiggest();
  }

  /**
   * Past `maxHeld`: the connections holding the most are refused until the total is back under it. A scan of the
   * holders each time, which frees at least the average hold (the attack's: ~1.2 MB, a read of 7-byte frames).
   */
  private refuseBiggest(): void {
    while (this.heldWeight > this.maxHeld) {
      let biggest: Connection | undefined;
      let most = 0;
      for (const [conn, held] of this.held) {
        if (held.weight > most) {
          most = held.weight;
          biggest = conn;
        }
      }
      if (biggest === undefined) return;
      this.held.delete(biggest);
      this.heldWeight -= most;
      this.refused.add(biggest);
      // Left paused: it is closed, and the rest of what it sent is not read.
      this.paused.delete(biggest);
      try {
        this.onRefused(biggest, most);
      } catch (error) {
        this.onError(error);
      }
      // Already closed (its held frames were draining): its close goes on now.
      const done = this.closing.get(biggest);
      if (done !== undefined) {
        this.closing.delete(biggest);
        done();
      }
    }
  }
}

/**
 * The bytes every stream connection has queued for sending, together (T66). `outgoingQueueBytes` bounds one
 * connection, so clients that send and never read the answers held up to it on each of their connections: 2,000
 * streams each sending 64 KiB of one-byte frames (9,362 `bad_message` answers of ~110 bytes, 15 times the bytes
 * in) took the server to 2.6 GB, and `maxConnections` of them could hold 77 GiB. Past `outgoingBytesTotal` a
 * connection that had more than {@link BACKLOG_FLOOR} left queued after its last burst of frames is closed as too
 * slow, as past its own bound; one with less (a client that reads) still gets its frames, whatever the others hold.
 *
 * Counted without a callback a frame: each connection adds the change of its queue (its `bufferedAmount`) once a
 * burst of frames is written, when its socket drains and when it closes (connection.ts). A queue that shrinks
 * without a `drain` (written before the socket's buffer filled) is counted until that connection's next burst.
 */

/** Bytes a connection may have queued and still always get its frames. */
export const BACKLOG_FLOOR = 64 * 1024;

export class OutgoingTotal {
  private bytes = 0;

  /** `max`: the bound (0: none). */
  constructor(readonly max: number) {}

  /**
   * Whether a connection must not queue `more`: `left` is what it still had queued after its last burst was written
   * (a client that reads has about nothing left once the kernel took the burst, whatever the burst's size).
   */
  over(left: number, more: number): boolean {
    return this.max > 0 && left > BACKLOG_FLOOR && this.bytes + more > this.max;
  }

  /** A connection's queue changed by `delta` bytes. */
  add(delta: number): void {
    this.bytes += delta;
  }

  /** Every connection's bytes as last counted. */
  get total(): number {
    return this.bytes;
  }
}

/**
 * A request body's chunks gathered into blocks before they are kept or posted (T110). With chunked transfer coding
 * each chunk is a `data` event of its own, however small: a body of 1-byte chunks (6 bytes on the wire each) was
 * posted to the scoring worker's channel a message a byte, ~450 bytes of native memory each (one agent token's one
 * connection: RSS 100 -> 505 MB for 5 MB sent in 8 s, another tenant's pings held 1.7 s; `maxBodyBytes` of them,
 * ~30 GB), or kept a Buffer view a byte on the main thread (scoringWorkers 0). Chunks of at least a block go on as
 * they are; smaller ones are copied into the current block, which goes on once full, or at the end.
 */

/** A block's bytes: a read of the socket's worth (Node reads 64 KiB at a time). */
export const BODY_BLOCK_BYTES = 64 * 1024;

export class BodyBlocks {
  private block: Uint8Array | undefined;
  private used = 0;

  /** `emit` gets each block (its own memory, never written again) and each large chunk (the caller's). */
  constructor(
    private readonly emit: (bytes: Uint8Array, owned: boolean) => void,
    private readonly size = BODY_BLOCK_BYTES,
  ) {}

  write(chunk: Uint8Array): void {
    if (chunk.length >= this.size) {
      this.flush();
      this.emit(chunk, false);
      return;
    }
    if (this.used + chunk.length > this.size) this.flush();
    this.block ??= new Uint8Array(this.size);
    this.block.set(chunk, this.used);
    this.used += chunk.length;
  }

  /** Hands on the current block, if it holds anything. */
  flush(): void {
    if (this.block === undefined || this.used === 0) return;
    const full = this.used === this.block.length;
    // A block filled part way is cut to its bytes (a copy once per body), so what is handed on owns exactly them.
    const bytes = full ? this.block : this.block.slice(0, this.used);
    this.block = undefined;
    this.used = 0;
    this.emit(bytes, true);
  }
}

/**
 * A warning anyone who can reach the server causes at the pace they connect, with no token: a connection refused
 * over the connection caps (connection-caps.ts). Written at most once every `everyMs`; those left out meanwhile are
 * counted on the next one written (the refusals metric counts every one). Written once per refusal, one address
 * connecting in a loop past its cap wrote 7,500 lines (1 MB) of log a second (T45).
 */
export class PacedLine {
  private lastAt = Number.NEGATIVE_INFINITY;
  private left = 0;

  constructor(private readonly everyMs: number) {}

  /** Whether this occurrence is written (at `now`, ms), and how many were left out before it. */
  take(now: number): { write: boolean; left: number } {
    if (now - this.lastAt < this.everyMs) {
      this.left++;
      return { write: false, left: this.left };
    }
    this.lastAt = now;
    const left = this.left;
    this.left = 0;
    return { write: true, left };
  }
}

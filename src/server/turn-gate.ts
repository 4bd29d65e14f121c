/**
 * One waiter a turn of the event loop, for HTTP reads whose work runs in one go (a session's whole step view:
 * ~45 ms at 5,000 steps, its report and serialisation included). Requests that arrive in the same socket reads
 * all ran in that turn: 32 views of one session held every other client 0.4 s. Through the gate each runs in a
 * turn of its own (`setImmediate` queued from a check phase runs in the next turn, after the next poll for I/O),
 * so the other sockets are read in between.
 */
export class TurnGate {
  private readonly waiting: Array<() => void> = [];
  private pumping = false;

  /** Resolves when it is this caller's turn; its synchronous work after the `await` runs in that turn alone. */
  turn(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.pumping) {
        this.pumping = true;
        setImmediate(this.pump);
      }
    });
  }

  /** Callers waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  private readonly pump = (): void => {
    const next = this.waiting.shift();
    if (next === undefined) {
      this.pumping = false;
      return;
    }
    next();
    // Queued from this check phase: runs in the next turn, after its poll phase.
    setImmediate(this.pump);
  };
}

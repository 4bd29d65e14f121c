import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * HTTP reads whose work is large (a session's whole step view: ~45 ms at 5,000 steps, its rows, report and a
 * 1.5 MB answer), run one after another, each starting in a turn of its own once the one before has settled. Read
 * in one poll phase, 32 views of one session all ran in that turn and held every other client 1.2-2.8 s; let
 * through one a turn but built side by side in slices, they kept 32 views alive at once and the scavenges of
 * their garbage took 20-80 ms each. One at a time, a view's rows are built a slice a turn and its answer is
 * serialised before the next view starts.
 */
export class OneAtATime {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Runs `work` once the works queued before it settled, from a turn of its own; settles as it does. */
  run<T>(work: () => Promise<T> | T): Promise<T> {
    this.waiting++;
    const start = this.tail.then(() => nextTurn());
    const done = start.then(work).finally(() => this.waiting--);
    // A work's failure is its caller's; the queue goes on.
    this.tail = done.catch(() => undefined);
    return done;
  }

  /** Works queued or running. */
  get queued(): number {
    return this.waiting;
  }
}

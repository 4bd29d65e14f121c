import { setImmediate as nextTurn } from 'node:timers/promises';
import { TenantTurns } from './tenant-turns.js';

/**
 * HTTP reads whose work is large (a session's whole step view: ~45 ms at 5,000 steps, its rows, report and a
 * 1.5 MB answer), run one after another, each starting in a turn of its own once the one before has settled. Read
 * in one poll phase, 32 views of one session all ran in that turn and held every other client 1.2-2.8 s; let
 * through one a turn but built side by side in slices, they kept 32 views alive at once and the scavenges of
 * their garbage took 20-80 ms each. One at a time, a view's rows are built a slice a turn and its answer is
 * serialised before the next view starts.
 *
 * Works wait in turns by tenant (tenant-turns.ts), not in one line (T115): one tenant keeping its 16 views of a
 * 5,000-step session queued made another tenant's one view wait behind all 16; now behind the one being built.
 */
export class OneAtATime {
  private readonly turns = new TenantTurns<() => void>();
  private running = false;
  private waiting = 0;
  /** The tenant whose work ran last: it queued its next after that one was taken, so it goes after the others. */
  private last: string | undefined;

  /** Runs `work` once it is `tenant`'s turn and the work before it settled, from a turn of its own; settles as it does. */
  run<T>(work: () => Promise<T> | T, tenant = ''): Promise<T> {
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      this.turns.push(tenant, () => {
        const done = nextTurn()
          .then(work)
          .finally(() => {
            this.waiting--;
            this.running = false;
            this.next();
          });
        // A work's failure is its caller's; the queue goes on.
        done.then(resolve, reject);
      });
      this.next();
    });
  }

  /** Starts the next tenant's oldest work, unless one is running. */
  private next(): void {
    if (this.running) return;
    const tenants = this.turns.tenants();
    const tenant = tenants.find((t) => t !== this.last) ?? tenants[0];
    if (tenant === undefined) return;
    this.running = true;
    this.last = tenant;
    this.turns.take(tenant)!();
  }

  /** Works queued or running. */
  get queued(): number {
    return this.waiting;
  }
}

/**
 * The open connections of each remote address, and which address holds the most (connection-caps.ts). Counts move
 * by one, so the most held is kept in O(1) through addresses bucketed by their count: the check runs on every
 * connection at the total, which a client connecting in a loop makes thousands a second.
 */
import type { Socket } from 'node:net';

export class AddressTable {
  /** Each address's open sockets, oldest first. */
  private readonly sockets = new Map<string, Set<Socket>>();
  /** The addresses holding each count (only counts some address holds). */
  private readonly byCount = new Map<number, Set<string>>();
  private most = 0;

  /** Connections `address` holds. */
  held(address: string): number {
    return this.sockets.get(address)?.size ?? 0;
  }

  add(address: string, socket: Socket): void {
    let set = this.sockets.get(address);
    if (set === undefined) this.sockets.set(address, (set = new Set()));
    const before = set.size;
    set.add(socket);
    if (set.size === before) return;
    this.move(address, before, set.size);
  }

  /** Forgets `socket`; false when it was not held (e.g. {@link giveWay} took it already). */
  delete(address: string, socket: Socket): boolean {
    const set = this.sockets.get(address);
    if (!set?.delete(socket)) return false;
    if (set.size === 0) this.sockets.delete(address);
    this.move(address, set.size + 1, set.size);
    return true;
  }

  /**
   * The newest socket of the address holding the most, taken out of the table, when that address holds at least
   * two more than `held` (what the newcomer's address holds): so the newcomer does not in turn become the one to
   * give way, and addresses holding as many never push one another out. Undefined when none holds that many.
   */
  giveWay(held: number): Socket | undefined {
    if (this.most < held + 2) return undefined;
    const address = this.byCount.get(this.most)!.values().next().value!;
    let newest: Socket | undefined;
    for (const s of this.sockets.get(address)!) newest = s;
    this.delete(address, newest!);
    return newest;
  }

  private move(address: string, from: number, to: number): void {
    if (from > 0) {
      const bucket = this.byCount.get(from)!;
      bucket.delete(address);
      if (bucket.size === 0) this.byCount.delete(from);
    }
    if (to > 0) {
      let bucket = this.byCount.get(to);
      if (bucket === undefined) this.byCount.set(to, (bucket = new Set()));
      bucket.add(address);
    }
    if (to > this.most) this.most = to;
    else if (from === this.most && !this.byCount.has(from)) this.most = from - 1;
  }
}

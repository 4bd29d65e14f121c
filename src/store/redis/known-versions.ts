/**
 * What one replica knows of every task's current version in Redis, from what was published (`grown`:
 * `<version>:<task>` after a growth, `-<version>:<task>` after a removal) and what it read; the pooled prior is
 * kept current from it. A version never goes back, and a task removed at version v is not brought back by a
 * message of v or before arriving late (its own growth's answer, read on another connection than the messages).
 */
/**
 * How many removals are remembered: a late message comes within moments of its removal, and every replica hears
 * every removal, so without a bound the map grew by one task per removal for as long as the replica ran (T80).
 */
export const REMEMBERED_REMOVALS = 4096;

export class KnownVersions {
  /** Current version per task, as last seen (authoritative only while subscribed and re-read since). */
  readonly current = new Map<string, number>();
  /** Per task, the latest version seen removed. */
  private readonly removedAt = new Map<string, number>();

  /** Forgets everything (Redis was emptied or reconnected: versions count again). */
  clear(): void {
    this.current.clear();
    this.removedAt.clear();
  }

  /** A message on the `grown` channel. */
  heard(message: string): void {
    const at = message.indexOf(':');
    const version = Number(message.slice(0, at));
    const task = message.slice(at + 1);
    if (at <= 0 || !Number.isInteger(version)) return;
    if (version < 0) this.removed(task, -version);
    else this.see(task, version);
  }

  /** Records a task's version (never going back). The replaced version stays cached: the next one is built from it. */
  see(task: string, version: number): void {
    if (version <= (this.removedAt.get(task) ?? 0)) return;
    if ((this.current.get(task) ?? 0) < version) this.current.set(task, version);
  }

  /** The task's PTA was removed at `version`: it leaves the known versions (so the pooled prior). */
  removed(task: string, version: number): void {
    if (version > (this.removedAt.get(task) ?? 0)) {
      // Latest last (a Map keeps insertion order): the oldest removal is the first forgotten.
      this.removedAt.delete(task);
      this.removedAt.set(task, version);
      if (this.removedAt.size > REMEMBERED_REMOVALS) this.removedAt.delete(this.removedAt.keys().next().value!);
    }
    if ((this.current.get(task) ?? 0) <= version) this.current.delete(task);
  }

  /** Every task's version as Redis holds them all (HGETALL of the tasks hash): the others are gone. */
  reread(all: Record<string, string>): void {
    for (const [task, v] of Object.entries(all)) this.see(task, Number(v));
    for (const task of [...this.current.keys()]) if (!(task in all)) this.current.delete(task);
  }
}

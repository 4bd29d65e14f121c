/**
 * What one replica knows of every task's current version in Redis, from what was published (`grown`:
 * `<version>:<task>` after a growth, `-<version>:<task>` after a removal) and what it read; the pooled prior is
 * kept current from it. A version never goes back, and a task removed at version v is not brought back by a
 * message of v or before arriving late (its own growth's answer, read on another connection than the messages).
 */
import { isOwnKey } from '../tenant-keys.js';

/**
 * How many removals are remembered: a late message comes within moments of its removal, and every replica hears
 * every removal, so without a bound the map grew by one task per removal for as long as the replica ran (T80).
 */
export const REMEMBERED_REMOVALS = 4096;

/**
 * Shared tasks only: what is known feeds the pooled prior (pooled-prior.ts), which tenants' own PTAs never enter.
 * Kept, they made every prior (each session start of a task without a PTA, on every replica) walk every tenant's
 * own PTAs: tenant B's 50,000 cost each 14-22 ms of CPU (T83), and every replica held them all.
 */
export class KnownVersions {
  /** Current version per task, as last seen (authoritative only while subscribed and re-read since). */
  readonly current = new Map<string, number>();
  /** Per task, the latest version seen removed. */
  private readonly removedAt = new Map<string, number>();
  /** Tasks seen since a re-read began: kept by it though its reads missed them (they came between them). */
  private seenDuring: Set<string> | undefined;

  /** Forgets everything (Redis was emptied or reconnected: versions count again). */
  clear(): void {
    this.current.clear();
    this.removedAt.clear();
    this.seenDuring = undefined;
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
    if (isOwnKey(task) || version <= (this.removedAt.get(task) ?? 0)) return;
    if ((this.current.get(task) ?? 0) < version) this.current.set(task, version);
    this.seenDuring?.add(task);
  }

  /** The task's PTA was removed at `version`: it leaves the known versions (so the pooled prior). */
  removed(task: string, version: number): void {
    if (isOwnKey(task)) return;
    if (version > (this.removedAt.get(task) ?? 0)) {
      // Latest last (a Map keeps insertion order): the oldest removal is the first forgotten.
      this.removedAt.delete(task);
      this.removedAt.set(task, version);
      if (this.removedAt.size > REMEMBERED_REMOVALS) this.removedAt.delete(this.removedAt.keys().next().value!);
    }
    if ((this.current.get(task) ?? 0) <= version) this.current.delete(task);
  }

  /** A re-read of every shared task's version begins (its reads may take more than one round trip). */
  startReread(): void {
    this.seenDuring = new Set();
  }

  /** Every shared task's version as Redis holds them (read since `startReread`): the others are gone, but those seen meanwhile. */
  reread(all: Record<string, string>): void {
    const seen = this.seenDuring ?? new Set<string>();
    this.seenDuring = undefined;
    for (const [task, v] of Object.entries(all)) this.see(task, Number(v));
    for (const task of [...this.current.keys()]) if (!(task in all) && !seen.has(task)) this.current.delete(task);
  }
}

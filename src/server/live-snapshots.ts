/**
 * The live feed's snapshots (live-feed.ts): the list of sessions a viewer without `?session=` gets first, built once
 * per change of its scope's sessions and shared by every viewer that connects meanwhile, from rows cached per session.
 */
import type { ScoringConfig } from '../core/config.js';
import { event } from './live-events.js';
import type { SessionRegistry } from './session-registry.js';
import { sessionSummary } from './session-view.js';
import type { Session } from './session.js';

export const ALL = '*'; // every tenant's sessions: an operator's list

export class LiveSnapshots {
  /** Per scope, a change count: a cached snapshot is good while it is unchanged. */
  private readonly changes = new Map<string, number>();
  private readonly snapshots = new Map<string, { at: number; bytes: Buffer }>();
  /**
   * Each session's list row as JSON, dropped whenever the session changes (the same notices that move
   * {@link changes}): a snapshot rebuilt after one session changed re-encodes that row only. With thousands of
   * sessions, 64 viewers connecting while sessions change otherwise rebuilt every row per viewer, in one turn of
   * the event loop (the hostile-tenant drill's viewers phase: 160-340 ms).
   */
  private readonly rows = new WeakMap<Session, string>();

  constructor(private readonly config: ScoringConfig) {}

  /** The snapshot of a scope, built once per change of its sessions. */
  of(scope: string, registry: SessionRegistry | undefined): Buffer {
    const at = this.changes.get(scope) ?? 0;
    const cached = this.snapshots.get(scope);
    if (cached?.at === at) return cached.bytes;
    const rows: string[] = [];
    for (const s of registry?.index.of(scope === ALL ? undefined : scope) ?? []) rows.push(this.row(s));
    // What JSON.stringify({ type: 'snapshot', sessions }) writes, from the rows already encoded.
    const bytes = event(`{"type":"snapshot","sessions":[${rows.join(',')}]}`);
    this.snapshots.set(scope, { at, bytes });
    return bytes;
  }

  private row(s: Session): string {
    let row = this.rows.get(s);
    if (row === undefined) this.rows.set(s, (row = JSON.stringify(sessionSummary(s, this.config))));
    return row;
  }

  /**
   * `s` changed: its cached row and the snapshots that hold it are stale. Runs on every scored step; until a
   * snapshot has been built (no viewer yet) nothing is cached that could be stale (rows are built for snapshots
   * only), so it costs nothing then.
   */
  changed(s: Session): void {
    if (this.snapshots.size === 0) return;
    this.rows.delete(s);
    this.changes.set(s.tenant, (this.changes.get(s.tenant) ?? 0) + 1);
    this.changes.set(ALL, (this.changes.get(ALL) ?? 0) + 1);
  }
}

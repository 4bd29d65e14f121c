/**
 * Rebuilding a session from the journal (with Redis): its step frames are read a page at a time and
 * replayed through a fresh scorer against the pinned reference (scoring is deterministic, so the copy
 * sends the same frames). A session's steps may hold tens of megabytes: reading them whole on every GET
 * and resume took Redis from 255 MB to 1.64 GB in issue 25's trial, and one large read stalled the event
 * loop; a page is at most a few megabytes and the event loop turns between pages.
 */
import type { Analyzers } from '../core/ports.js';
import { SteplensError } from '../errors.js';
import type { FormatName } from '../formats/types.js';
import type { FinalMessage } from '../protocol/server-messages.js';
import type { SessionHead, SessionJournal } from '../store/session-journal.js';
import type { ResolvedOptions } from './options.js';
import { DEFAULT_TENANT, ROLES, type Principal, type Role } from './principal.js';
import { buildSession, type SessionSpec } from './session-factory.js';
import type { Session } from './session.js';
import { TenantSlots } from './tenant-slots.js';
import { InFlight } from '../in-flight.js';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Frames read in the first page; later pages grow (up to {@link MAX_PAGE}) while they stay under {@link PAGE_BYTES}. */
const FIRST_PAGE = 16;
const MAX_PAGE = 512;
const PAGE_BYTES = 4 * 1024 * 1024;
/** Replay (ms) between two turns of the event loop: other clients' frames run in between. */
const REPLAY_MS_PER_TURN = 5;

export interface ReplayDeps {
  journal: SessionJournal;
  analyzers: Analyzers;
  options: ResolvedOptions;
}

/** Who started a journaled session (its key holds the tenant; the role decides what it may learn). */
export function recordedPrincipal(r: SessionHead['record']): Principal {
  const role = (ROLES as readonly string[]).includes(r.role ?? '') ? (r.role as Role) : 'agent';
  return { tenant: r.tenant ?? DEFAULT_TENANT, role };
}

/** A fresh session (no step yet) as the journal's record describes it. */
async function emptySession(deps: ReplayDeps, id: string, head: SessionHead): Promise<Session> {
  const r = head.record;
  const reference = await deps.journal.resolve(r.reference);
  if (!reference) throw new SteplensError('unknown_session', `session ${id}: its reference (task ${r.task} PTA v${r.reference.kind === 'pta' ? r.reference.version : '?'}) is no longer kept`);
  const spec: SessionSpec = {
    id,
    task: r.task,
    format: r.format as FormatName,
    learn: r.learn,
    agent: r.agent,
    model: r.model,
    policy: r.policy,
    reference,
    ...(r.forecast !== undefined ? { forecast: r.forecast } : {}),
    ...(r.assignment !== undefined ? { assignment: r.assignment } : {}),
    principal: recordedPrincipal(r),
  };
  const session = buildSession(spec, deps.analyzers, deps.options);
  session.pin = r.reference;
  return session;
}

/** Replays the journal's frames from `session.lastSeq + 1` up to `head.length - 1`, a page at a time; then its outcome and final. */
export async function catchUp(deps: ReplayDeps, session: Session, head: SessionHead): Promise<Session> {
  let count = FIRST_PAGE;
  while (session.lastSeq + 1 < head.length) {
    const from = session.lastSeq + 1;
    const frames = await deps.journal.frames(session.key, from, Math.min(count, head.length - from));
    if (frames.length === 0) throw new SteplensError('unknown_session', `session ${session.id}: its steps expired while they were read`);
    let bytes = 0;
    let since = performance.now();
    for (const [i, frame] of frames.entries()) {
      // A page of 512 steps replayed in one go held every client 1.7 s (a GET on the replica without the session).
      if (performance.now() - since >= REPLAY_MS_PER_TURN) {
        await nextTurn();
        since = performance.now();
      }
      const seq = from + i;
      const outcome = session.step(seq, (JSON.parse(frame.toString('utf8')) as { step?: unknown }).step);
      if (outcome.kind !== 'accepted') throw new SteplensError('internal', `session ${session.id}: stored seq ${seq} no longer replays (${outcome.kind})`);
      session.storedBytes += frame.length;
      bytes += frame.length;
    }
    count = bytes < PAGE_BYTES / 4 ? Math.min(MAX_PAGE, count * 2) : bytes > PAGE_BYTES ? Math.max(1, count >> 1) : count;
  }
  if (head.passed !== undefined) session.passed = head.passed;
  if (head.final !== undefined && !session.ended) {
    session.finish();
    session.final = head.final as FinalMessage;
    session.endedAt = Date.now();
  }
  return session;
}

/** The session rebuilt from the journal: a fresh one with every durable step replayed. */
export async function rebuild(deps: ReplayDeps, id: string, head: SessionHead): Promise<Session> {
  return catchUp(deps, await emptySession(deps, id, head), head);
}

/**
 * Builds (or catch-ups) of copies one tenant runs at once **(choice, T57)**: 32 `POST /v1/rank` calls at once, each
 * naming 64 sessions of 5,000 steps held on the other replica, made 32 replays at once (a turn of the loop of ~32
 * slices of 5 ms): another client's ping p50 144 ms, max 459 ms. Two keep a tenant's reads going while one waits on
 * Redis for a page.
 */
export const REPLAYS_PER_TENANT = 2;

/**
 * Read-only copies kept for GET /v1/sessions/:id (another replica's session): a later GET replays only the steps added
 * since. When full, the copy that goes is the oldest of the tenant holding the most: one tenant polling more sessions
 * than there are copies evicted every other tenant's, and each of their GETs replayed a whole session again (tenant B
 * polling 20 sessions on the replica without them: tenant A's GET of its 2,000-step session p50 2.3 -> 513 ms).
 */
export class ViewCopies {
  private readonly copies = new Map<string, { session: Session; createdAt: number; tenant: string }>();
  /** Copies being built or caught up: GETs of a session that come together share one (each was a whole replay). */
  private readonly building = new InFlight<string, Session>();
  /** Builds of one tenant at once (T57): the tenant's others wait for them, another tenant's do not. */
  private readonly slots = new TenantSlots(REPLAYS_PER_TENANT);

  constructor(
    private readonly deps: ReplayDeps,
    private readonly max = 16,
  ) {}

  /**
   * `key`: the session's journal key (tenant and id), so two tenants' sessions of one id never share a copy. A read
   * while one of the same session is under way gets that one's copy: 50 GETs at once of a 54 MB session were 50
   * replays, each reading its steps from Redis in pages of up to 16 MB (RSS 162 -> 861 MB; Redis, busy sending them,
   * answered no one for 2 s).
   */
  view(key: string, id: string, head: SessionHead): Promise<Session> {
    return this.building.run(key, () => this.slots.run(head.record.tenant ?? DEFAULT_TENANT, () => this.build(key, id, head)));
  }

  private async build(key: string, id: string, head: SessionHead): Promise<Session> {
    const kept = this.copies.get(key);
    this.copies.delete(key);
    // The same session (not one started again under its id after it expired), not ahead of the journal, not ended while the journal says open.
    const usable = kept?.createdAt === head.record.createdAt && kept.session.lastSeq < head.length && (!kept.session.ended || head.final !== undefined);
    const session = usable ? await catchUp(this.deps, kept.session, head) : await rebuild(this.deps, id, head);
    this.copies.set(key, { session, createdAt: head.record.createdAt, tenant: head.record.tenant ?? DEFAULT_TENANT });
    if (this.copies.size > this.max) this.copies.delete(this.evictable());
    return session;
  }

  /** The key of the oldest copy of the tenant holding the most copies (the oldest copy of all among equals). */
  private evictable(): string {
    const held = new Map<string, number>();
    for (const c of this.copies.values()) held.set(c.tenant, (held.get(c.tenant) ?? 0) + 1);
    const most = Math.max(...held.values());
    for (const [key, c] of this.copies) if (held.get(c.tenant) === most) return key;
    return this.copies.keys().next().value!;
  }
}

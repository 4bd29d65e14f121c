/**
 * The first event of a session's live feed (`GET /v1/live?session=`): its whole step view, `data:
 * {"type":"view",...sessionView(s)}`. Built in the app's queue of step views (step-views.ts: one at a time, shared
 * with `GET /v1/sessions/:id/steps`, bounded per tenant), its rows 500 a turn (`sessionViewInSteps`) and its JSON
 * a piece of ~64 Ki characters a turn: at 5,000 steps, built in one go it held the event loop ~30 ms, its
 * stringify and UTF-8 copy another ~20, per change of the session, and a tenant opening many feeds at once held
 * every other tenant's loop for all of them (docs/reliability.md T28).
 *
 * One build per change of the session: viewers opening meanwhile wait for the same build. A build notes when it
 * read the session (the live feed's count of session events, {@link ViewBuild.at}); events up to then are in the
 * view, so the feed writes a waiting viewer only the events it held back after that (live-feed.ts).
 */
import { objectJsonChunks } from '../store/pta-text.js';
import type { Session } from './session.js';
import type { SessionSummary } from '../protocol/view-bodies.js';
import { sessionViewInSteps } from './session-view.js';
import type { StepViews } from './step-views.js';

export interface ViewBuild {
  /** The session as the view shows it ({@link stampOf}): when it was asked for, then when the build read it. */
  stamp: string;
  /** The live feed's count of session events when the build read the session: those up to it are in the view. */
  at: number;
  /** The event, once built. */
  bytes: Buffer | undefined;
  /** Settles with the event; undefined when it failed, or was not built (nobody waited for it when its turn came, or the feed closed). */
  done: Promise<Buffer | undefined>;
  /** Viewers waiting for it: at 0 when its turn comes, it is not built. */
  waiting: number;
}

/** What a view shows of a session: it is rebuilt when this changes. */
export function stampOf(s: Session): string {
  return `${s.length}:${s.lastSeq}:${s.ended}:${s.passed}:${s.connection ?? '-'}`;
}

/** `data: {"type":"view",...sessionView(s)}\n\n`, the same bytes, built and encoded a slice a turn. */
export async function viewEvent(s: Session): Promise<Buffer> {
  const view = await sessionViewInSteps(s);
  return jsonBytes({ type: 'view', ...view }, 'data: ', '\n\n');
}

/**
 * `JSON.stringify(sessionView(s))`, the same bytes, built and encoded a slice a turn: the answer of `GET
 * /v1/sessions/:id/steps` (1.6 MB at 5,000 steps: fastify's `JSON.stringify` of it held the loop 30-110 ms).
 */
export async function viewJson(s: Session, state?: SessionSummary['state']): Promise<Buffer> {
  const view = await sessionViewInSteps(s);
  // `state`: a copy read from the journal says where the session is (another replica holds it: open), not where the copy is.
  return jsonBytes(state === undefined ? view : { ...view, state }, '', '');
}

async function jsonBytes(value: object, before: string, after: string): Promise<Buffer> {
  const parts = [Buffer.from(before)];
  for await (const piece of objectJsonChunks(value)) parts.push(Buffer.from(piece, 'utf8'));
  parts.push(Buffer.from(after));
  return Buffer.concat(parts);
}

export class SessionViews {
  private readonly builds = new WeakMap<Session, ViewBuild>();
  private closed = false;
  private count = 0;

  /** `events`: the live feed's count of session events so far. */
  constructor(
    private readonly views: StepViews,
    private readonly events: () => number,
    private readonly failed: (error: unknown, s: Session) => void,
  ) {}

  /** Views built so far (a build shared by several viewers counts once). */
  get built(): number {
    return this.count;
  }

  /** `s`'s view as it is now, when already built (no wait). */
  ready(s: Session): Buffer | undefined {
    const b = this.builds.get(s);
    return b?.stamp === stampOf(s) ? b.bytes : undefined;
  }

  /** Whether a viewer of `s` now would share a view built or being built (and queue nothing). */
  shared(s: Session): boolean {
    return this.builds.get(s)?.stamp === stampOf(s);
  }

  /** The build a viewer of `s` waits for: the one of its present state, or a new one queued for `tenant`. The caller counts itself in `waiting`. */
  build(s: Session, tenant: string): ViewBuild {
    const stamp = stampOf(s);
    const current = this.builds.get(s);
    if (current?.stamp === stamp) return current;
    const b: ViewBuild = { stamp, at: Infinity, bytes: undefined, done: Promise.resolve(undefined), waiting: 0 };
    this.builds.set(s, b);
    const forget = (): undefined => {
      if (this.builds.get(s) === b) this.builds.delete(s);
      return undefined;
    };
    const work = (): Promise<Buffer> | undefined => {
      // Every viewer left while it was queued (a client that opens and drops feeds queues nothing lasting).
      if (b.waiting === 0 || this.closed) return forget();
      this.count++;
      // Read now, in this turn (sessionViewInSteps reads the session before its first await): the view holds every event counted so far.
      b.at = this.events();
      b.stamp = stampOf(s);
      return viewEvent(s);
    };
    b.done = this.views.run(tenant, work).then(
      (bytes) => {
        b.bytes = bytes;
        return bytes;
      },
      (error: unknown) => {
        this.failed(error, s);
        return forget();
      },
    );
    return b;
  }

  /** Shutdown: builds not started are not built. */
  close(): void {
    this.closed = true;
  }
}

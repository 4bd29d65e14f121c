/**
 * `GET /v1/live?session=`: the session's whole view, its first event, is built in the app's queue of step views a
 * slice a turn (live-view.ts), no longer in one go in the turn the viewer connects. The feed and a registry over real
 * sessions (a corpus run's steps again and again, past a few slices), each viewer a response that records its writes
 * (live-fixture.ts).
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/server/auth.js';
import type { LiveFeed } from '../../src/server/live-feed.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';
import type { SessionRegistry } from '../../src/server/session-registry.js';
import { VIEW_ROWS_PER_TURN } from '../../src/server/session-view.js';
import type { StepViews } from '../../src/server/step-views.js';
import { loopTurnsDuring } from '../loop-turns.js';
import { LiveFixture, nextTurn, viewerResponse as response, viewEvent } from './live-fixture.js';
import { SseReader } from './sse.js';

let fx: LiveFixture;
let feed: LiveFeed;
let views: StepViews;
let registry: SessionRegistry;

async function setUp(maxViewers = 8, perTenantViews?: number): Promise<void> {
  fx = await LiveFixture.open({ maxViewers, perTenantViews });
  ({ feed, views, registry } = fx);
}
afterEach(() => fx.close());

const liveSession = (id: string, n: number) => fx.liveSession(id, n);

describe("a session feed's first event", () => {
  it('is sessionView’s JSON of a live session past a few slices, written once the event loop turned between its slices', async () => {
    await setUp();
    const { s } = await liveSession('big', 3 * VIEW_ROWS_PER_TURN + 7);
    const viewer = response();
    const { value: first, turns } = await loopTurnsDuring(async () => {
      feed.attach(viewer.req as never, viewer.res as never, LOCAL_PRINCIPAL, s);
      // Built in one go (before this change) it was written here, in the turn the viewer connected.
      expect(viewer.written).toHaveLength(0);
      return viewer.first;
    });
    expect(first.toString('utf8')).toBe(viewEvent(s));
    // A turn to start, one per 500 rows, one per ~64 Ki characters of JSON (steps of this run: ~300 characters each).
    expect(turns).toBeGreaterThanOrEqual(1 + 3 + 4);
    expect(feed.viewsBuilt).toBe(1);
  });

  it('is followed by the frames scored while it was built, in order: none lost, none written twice', async () => {
    await setUp();
    const { s, score } = await liveSession('busy', 2 * VIEW_ROWS_PER_TURN);
    const viewer = response();
    feed.attach(viewer.req as never, viewer.res as never, LOCAL_PRINCIPAL, s);
    // Scored before the build reads the session (it starts in a turn of its own): in the view, not after it.
    score(3);
    registry.setOutcome(s, false);
    let during = 0;
    while (viewer.pieces().length === 0) {
      await nextTurn();
      score(1);
      during++;
    }
    score(2); // and after the view, written at once
    const [view, ...after] = viewer.texts().map((t) => JSON.parse(t) as { type: string; t?: number; steps?: Array<{ t: number }>; signals?: unknown[] });
    expect(view!.type).toBe('view');
    expect(view!.steps!.length).toBeGreaterThanOrEqual(2 * VIEW_ROWS_PER_TURN + 3);
    expect(during).toBeGreaterThan(2);
    // Every step once, in order: the view's, then one score event per step scored after it.
    const scores = after.filter((e) => e.type === 'score');
    expect(scores.length).toBeGreaterThan(2 + 2); // some scored while it was built
    expect([...view!.steps!.map((r) => r.t), ...scores.map((e) => e.t)]).toEqual(Array.from({ length: s.length }, (_, t) => t));
    // The frames themselves, as the session logged them (each score with its step), signals included, in order.
    const frames = [...s.framesAfter(-1)].filter((f) => f.t >= view!.steps!.length);
    expect(after.filter((e) => e.type === 'score' || e.type === 'signal').map((e) => `${e.type} ${e.t}`)).toEqual(frames.map((f) => `${f.type} ${f.t}`));
    expect((view!.signals ?? []).length + after.filter((e) => e.type === 'signal').length).toBe(s.signals.length);
    // The outcome's row came before the view read the session: the view shows it, it is not written after it.
    expect(after.filter((e) => e.type === 'session')).toEqual([]);
  });

  it('is built once for viewers opening at once, or while it is built, and written to them all', async () => {
    await setUp();
    const { s, score } = await liveSession('shared', 2 * VIEW_ROWS_PER_TURN);
    const a = response();
    const b = response();
    feed.attach(a.req as never, a.res as never, LOCAL_PRINCIPAL, s);
    feed.attach(b.req as never, b.res as never, LOCAL_PRINCIPAL, s);
    await nextTurn();
    await nextTurn();
    const c = response(); // the build is under way
    feed.attach(c.req as never, c.res as never, LOCAL_PRINCIPAL, s);
    const [first, ...others] = await Promise.all([a.first, b.first, c.first]);
    for (const o of others) expect(o.equals(first)).toBe(true);
    expect(feed.viewsBuilt).toBe(1);
    // Built: the next viewer gets it without a build.
    const d = response();
    feed.attach(d.req as never, d.res as never, LOCAL_PRINCIPAL, s);
    expect((await d.first).equals(first)).toBe(true);
    expect(feed.viewsBuilt).toBe(1);
    // The same bytes, not copies: every piece written to any of them is a view of one buffer.
    expect(new Set([a, b, c, d].flatMap((v) => v.pieces().map((p) => p.buffer))).size).toBe(1);
    // A step later the view is another one.
    score(1);
    const e = response();
    feed.attach(e.req as never, e.res as never, LOCAL_PRINCIPAL, s);
    expect((await e.first).toString('utf8')).toBe(viewEvent(s));
    expect(feed.viewsBuilt).toBe(2);
  });

  it('a viewer whose client goes away while its view is queued or built gives its slot back at once; a view nobody waits for is not built', async () => {
    await setUp(1);
    const { s } = await liveSession('gone', 2 * VIEW_ROWS_PER_TURN);
    // Gone before the build's turn: nothing is built.
    const early = response();
    feed.attach(early.req as never, early.res as never, LOCAL_PRINCIPAL, s);
    expect(feed.refusal(LOCAL_PRINCIPAL)?.code).toBe('overloaded');
    early.res.destroy();
    expect(feed.size).toBe(0);
    expect(feed.refusal(LOCAL_PRINCIPAL)).toBeUndefined();
    while (views.queued > 0) await nextTurn();
    expect(feed.viewsBuilt).toBe(0);
    // Gone during the build: the slot is back at once, the build ends, nothing is written to it.
    const late = response();
    feed.attach(late.req as never, late.res as never, LOCAL_PRINCIPAL, s);
    await nextTurn();
    await nextTurn();
    expect(feed.viewsBuilt).toBe(1);
    late.res.destroy();
    expect(feed.size).toBe(0);
    const next = response();
    feed.attach(next.req as never, next.res as never, LOCAL_PRINCIPAL, s); // the slot it freed
    expect(feed.size).toBe(1);
    expect((await next.first).toString('utf8')).toBe(viewEvent(s));
    expect(late.written).toEqual([]);
  });

  it('shutdown while views are queued and built ends every viewer, throws nothing, and writes nothing after', async () => {
    await setUp();
    const one = await liveSession('one', 2 * VIEW_ROWS_PER_TURN);
    const two = await liveSession('two', 2 * VIEW_ROWS_PER_TURN);
    const a = response();
    const b = response();
    feed.attach(a.req as never, a.res as never, LOCAL_PRINCIPAL, one.s);
    feed.attach(b.req as never, b.res as never, LOCAL_PRINCIPAL, two.s);
    await nextTurn();
    await nextTurn();
    expect(feed.viewsBuilt).toBe(1); // one's under way, two's queued
    feed.close();
    expect(feed.size).toBe(0);
    expect(a.res.writableEnded && b.res.writableEnded).toBe(true);
    while (views.queued > 0) await nextTurn();
    expect(feed.viewsBuilt).toBe(1);
    expect([...a.written, ...b.written]).toEqual([]);
  });

  it('is written before a `gone` sent while it was built', async () => {
    await setUp();
    const { s } = await liveSession('freed', 2 * VIEW_ROWS_PER_TURN);
    const viewer = response();
    feed.attach(viewer.req as never, viewer.res as never, LOCAL_PRINCIPAL, s);
    await nextTurn();
    await nextTurn();
    feed.freed(s); // as the registry tells it once the session is freed
    await viewer.first;
    expect(viewer.texts().map((t) => (JSON.parse(t) as { type: string }).type)).toEqual(['view', 'gone']);
  });
});

describe('session views, live feed and step views together', () => {
  it("count against the tenant's queued step views: past them a new feed of a session is refused with 429, one sharing a view is not", async () => {
    await setUp(8, 2);
    const one = await liveSession('q1', 2 * VIEW_ROWS_PER_TURN);
    const two = await liveSession('q2', 10);
    const three = await liveSession('q3', 10);
    const app = Fastify();
    feed.register(app, registry, new Authenticator([], 60_000));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      for (const { s } of [one, two]) {
        const v = response();
        feed.attach(v.req as never, v.res as never, LOCAL_PRINCIPAL, s);
      }
      expect(views.refusal(LOCAL_PRINCIPAL.tenant)).toMatch(/2 step views of this tenant are queued/);
      const refused = await fetch(`${url}/v1/live?session=q3`);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('quota_exceeded');
      expect(feed.size).toBe(2);
      // A feed of a session whose view is being built waits for it, and queues nothing.
      const sharing = await SseReader.open(`${url}/v1/live?session=q1`);
      expect(sharing.status).toBe(200);
      expect(await sharing.nextOf('view')).toMatchObject({ type: 'view', session: 'q1' });
      expect(feed.viewsBuilt).toBeLessThanOrEqual(2);
      sharing.close();
      // Once answered, the tenant's views are built again.
      while (views.queued > 0) await nextTurn();
      expect(views.refusal(LOCAL_PRINCIPAL.tenant)).toBeUndefined();
      const c = response();
      feed.attach(c.req as never, c.res as never, LOCAL_PRINCIPAL, three.s);
      expect((await c.first).toString('utf8')).toBe(viewEvent(three.s));
    } finally {
      await app.close();
    }
  });
});

/**
 * `GET /v1/live?session=`: the session's whole view, its first event, is built in the app's queue of step views a
 * slice a turn (live-view.ts), no longer in one go in the turn the viewer connects. The feed and a registry over real
 * sessions (a corpus run's steps again and again, past a few slices), each viewer a response that records its writes.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import type { Step } from '../../src/core/types.js';
import { Authenticator } from '../../src/server/auth.js';
import { Connection } from '../../src/server/connection.js';
import { LiveFeed } from '../../src/server/live-feed.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { sessionView, VIEW_ROWS_PER_TURN } from '../../src/server/session-view.js';
import type { Session } from '../../src/server/session.js';
import { StepViews } from '../../src/server/step-views.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { loopTurnsDuring } from '../loop-turns.js';
import { ASTROID, readSteps } from './helpers.js';
import { SseReader } from './sse.js';

const socket = (): WebSocket =>
  ({ readyState: 1, OPEN: 1, bufferedAmount: 0, send: () => undefined, close: () => undefined, terminate: () => undefined, once: () => undefined, on: () => undefined }) as unknown as WebSocket;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A viewer's HTTP response: what was written to it, in order; `first` settles with its first write. */
function response() {
  const written: Buffer[] = [];
  let wrote: (b: Buffer) => void = () => undefined;
  const first = new Promise<Buffer>((resolve) => (wrote = resolve));
  const res = Object.assign(new EventEmitter(), {
    writableLength: 0,
    destroyed: false,
    writableEnded: false,
    writeHead: () => res,
    write: (b: Buffer) => {
      if (written.length === 0) wrote(b);
      written.push(b);
      return true;
    },
    end: () => {
      res.writableEnded = true;
    },
    destroy: () => {
      res.destroyed = true;
      res.emit('close');
      return res;
    },
  });
  /** The `data:` texts written, comments (keep-alives) left out. */
  const texts = () =>
    written
      .map((b) => b.toString('utf8'))
      .join('')
      .split('\n\n')
      .filter((t) => t.startsWith('data: '))
      .map((t) => t.slice(6));
  const req = { socket: Object.assign(new EventEmitter(), { setNoDelay: () => undefined, destroyed: false }) };
  return { req, res, written, first, texts };
}

const viewEvent = (s: Session): string => `data: ${JSON.stringify({ type: 'view', ...sessionView(s) })}\n\n`;

let dir: string;
let feed: LiveFeed;
let views: StepViews;
let registry: SessionRegistry;
let steps: Step[];
let sessions = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-live-view-'));
  steps = await readSteps(ASTROID.fail);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function setUp(maxViewers = 8, perTenantViews?: number): Promise<void> {
  const metrics = createMetrics({ cacheStats: () => ({ hits: 0, misses: 0, entries: 0, bytes: 0 }) });
  views = new StepViews(perTenantViews);
  feed = new LiveFeed({ maxViewers, queueBytes: 1 << 20, config: DEFAULT_CONFIG, metrics, log: pino({ level: 'silent' }), heartbeatMs: 60_000, views });
  const store = await ReferenceStore.open({ dataDir: path.join(dir, String(++sessions)) });
  registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log: pino({ level: 'silent' }), options: resolveOptions({}), connections: new Map(), observer: feed });
}
afterEach(() => feed.close());

/** A live session of `n` steps: the corpus run's steps again and again, each told to the feed as the stream handler does. */
async function liveSession(id: string, n: number): Promise<{ s: Session; score: (k: number) => void }> {
  const started = await registry.start({ type: 'start', session: id, task: ASTROID.task }, new Connection(++sessions, socket(), 1 << 24));
  if (!started.ok) throw new Error(started.error.message);
  const s = started.value;
  const score = (k: number): void => {
    for (let i = 0; i < k; i++) {
      const seq = s.lastSeq + 1;
      const out = s.step(seq, steps[seq % steps.length]);
      if (out.kind !== 'accepted') throw new Error(`step ${seq}: ${out.kind}`);
      registry.scored(s, out.frames);
    }
  };
  score(n);
  return { s, score };
}

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
    while (viewer.written.length === 0) {
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
    for (const o of others) expect(o).toBe(first);
    expect(feed.viewsBuilt).toBe(1);
    // Built: the next viewer gets it at once.
    const d = response();
    feed.attach(d.req as never, d.res as never, LOCAL_PRINCIPAL, s);
    expect(d.written[0]).toBe(first);
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

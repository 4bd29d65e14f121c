/**
 * A session feed's first event larger than a piece (a live session's whole view) is written a piece at a time,
 * a bounded number of bytes a turn for every viewer together (paced-writes.ts): written whole to 32 viewers in one
 * turn it held the event loop 23-28 ms (docs/reliability.md T35). Over real sessions (live-fixture.ts) and, last,
 * over real sockets.
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/server/auth.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';
import { VIEW_ROWS_PER_TURN } from '../../src/server/session-view.js';
import { LiveFixture, nextTurn, TurnCounter, viewerResponse, viewEvent, type ViewerResponse } from './live-fixture.js';
import { SseReader, type LiveEvent } from './sse.js';

let fx: LiveFixture;
afterEach(() => fx.close());

// Small pieces, so a test session's view (~300 KB) is many of them.
const PIECE_BYTES = 16 * 1024;
const TURN_BYTES = 64 * 1024;
const paced = { pieceBytes: PIECE_BYTES, turnBytes: TURN_BYTES };

const attach = (v: ViewerResponse, s: Parameters<LiveFixture['feed']['attach']>[3]): void => fx.feed.attach(v.req as never, v.res as never, LOCAL_PRINCIPAL, s);

/** Drains a stalled viewer turn after turn until its first event is whole. */
async function drainAll(v: ViewerResponse): Promise<void> {
  for (let i = 0; i < 1000 && v.pieces().length === 0; i++) {
    v.drain();
    await nextTurn();
  }
}

describe("a session feed's first event, written in pieces", () => {
  it('to 32 viewers: the bytes of the view built in one go, one buffer shared, at most a turn’s bytes (and a piece) a turn', async () => {
    fx = await LiveFixture.open({ maxViewers: 32, paced });
    const { s } = await fx.liveSession('big', 2 * VIEW_ROWS_PER_TURN);
    const expected = viewEvent(s);
    expect(Buffer.byteLength(expected)).toBeGreaterThan(4 * TURN_BYTES);
    const turns = new TurnCounter();
    const viewers = Array.from({ length: 32 }, () => viewerResponse(turns));
    for (const v of viewers) attach(v, s);
    const firsts = await Promise.all(viewers.map((v) => v.first));
    turns.stop();
    for (const f of firsts) expect(f.toString('utf8')).toBe(expected);
    expect(fx.feed.viewsBuilt).toBe(1);
    const pieces = viewers.flatMap((v) => v.pieces());
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(PIECE_BYTES);
    expect(new Set(pieces.map((p) => p.buffer)).size).toBe(1);
    const perTurn = new Map<number, number>();
    for (const v of viewers) v.at.forEach((turn, i) => perTurn.set(turn, (perTurn.get(turn) ?? 0) + v.written[i]!.length));
    // Before: 32 times the view (here ~10 MB) in the turn its build ended.
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(TURN_BYTES + PIECE_BYTES);
  });

  it('to a viewer that stops reading: no next piece until it drains, no keep-alive inside it, the frames scored meanwhile after it in order', async () => {
    fx = await LiveFixture.open({ heartbeatMs: 1, paced });
    const { s, score } = await fx.liveSession('slow', 2 * VIEW_ROWS_PER_TURN);
    const expected = viewEvent(s);
    const v = viewerResponse();
    v.stall();
    attach(v, s);
    // Keep-alives while its view is built; then the view's first piece.
    const isData = (b: Buffer): boolean => b.subarray(0, 6).toString() === 'data: ';
    while (!v.written.some(isData)) await nextTurn();
    const k = v.written.findIndex(isData);
    score(5);
    fx.registry.setOutcome(s, false);
    await new Promise((resolve) => setTimeout(resolve, 30)); // keep-alives due meanwhile
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(v.written).toHaveLength(k + 1);
    expect(v.written[k]!.length).toBe(PIECE_BYTES);
    await drainAll(v);
    score(2);
    const raw = Buffer.concat(v.written.slice(k)).toString('utf8');
    expect(raw.startsWith(expected)).toBe(true);
    const [view, ...after] = v.texts().map((t) => JSON.parse(t) as { type: string; t?: number; steps?: Array<{ t: number }> });
    expect(view!.type).toBe('view');
    const scores = after.filter((e) => e.type === 'score');
    expect([...view!.steps!.map((r) => r.t), ...scores.map((e) => e.t)]).toEqual(Array.from({ length: s.length }, (_, t) => t));
    const frames = [...s.framesAfter(-1)].filter((f) => f.t >= view!.steps!.length);
    expect(after.filter((e) => e.type === 'score' || e.type === 'signal').map((e) => `${e.type} ${e.t}`)).toEqual(frames.map((f) => `${f.type} ${f.t}`));
    // The outcome came after the view read the session: its row follows the view.
    expect(after.filter((e) => e.type === 'session')).toHaveLength(1);
  });

  it('to a viewer that stops reading: dropped once the frames held back pass its queue bound; the others get it whole', async () => {
    fx = await LiveFixture.open({ queueBytes: 16 * 1024, paced });
    const { s, score } = await fx.liveSession('stuck', 2 * VIEW_ROWS_PER_TURN);
    const stuck = viewerResponse();
    const reader = viewerResponse();
    stuck.stall();
    attach(stuck, s);
    attach(reader, s);
    await reader.first;
    expect(stuck.written).toHaveLength(1);
    for (let i = 0; i < 200 && !stuck.res.destroyed; i++) score(1);
    expect(stuck.res.destroyed).toBe(true);
    expect(fx.feed.size).toBe(1);
    expect(stuck.written).toHaveLength(1);
    expect(await fx.metrics.registry.getSingleMetricAsString('steplens_live_viewers_dropped_total')).toMatch(/ 1$/m);
    const [view, ...after] = reader.texts().map((t) => JSON.parse(t) as { type: string; t?: number; steps?: unknown[] });
    expect(after.filter((e) => e.type === 'score').map((e) => e.t)).toEqual(Array.from({ length: s.length - view!.steps!.length }, (_, i) => view!.steps!.length + i));
  });

  it('to a viewer whose client goes away midway: nothing more written to it, its slot back at once, the others’ go on', async () => {
    fx = await LiveFixture.open({ maxViewers: 3, paced });
    const { s } = await fx.liveSession('left', 2 * VIEW_ROWS_PER_TURN);
    const expected = viewEvent(s);
    const [gone, a, b] = [viewerResponse(), viewerResponse(), viewerResponse()];
    gone.stall();
    for (const v of [gone, a, b]) attach(v, s);
    while (gone.written.length === 0) await nextTurn();
    gone.res.destroy();
    expect(fx.feed.size).toBe(2);
    expect(fx.feed.refusal(LOCAL_PRINCIPAL)).toBeUndefined();
    gone.drain(); // a late drain of the dead response writes nothing
    expect((await a.first).toString('utf8')).toBe(expected);
    expect((await b.first).toString('utf8')).toBe(expected);
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(gone.written).toHaveLength(1);
    expect(gone.res.listenerCount('drain')).toBe(0);
  });

  it('over real sockets with a keep-alive every millisecond and steps scored meanwhile: whole events, each step once, in order', async () => {
    fx = await LiveFixture.open({ heartbeatMs: 1, paced });
    const { s, score } = await fx.liveSession('sockets', 3 * VIEW_ROWS_PER_TURN);
    const app = Fastify();
    fx.feed.register(app, fx.registry, new Authenticator([], 60_000));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const readers = await Promise.all(Array.from({ length: 4 }, () => SseReader.open(`${url}/v1/live?session=sockets`)));
      const views = readers.map((r) => r.nextOf('view'));
      for (let i = 0; i < 20; i++) {
        score(1);
        await nextTurn();
      }
      const seen = await Promise.all(views);
      score(1);
      for (const [i, r] of readers.entries()) {
        const view = seen[i] as LiveEvent & { steps: Array<{ t: number }> };
        const rest: number[] = [];
        while (view.steps.length + rest.length < s.length) rest.push((await r.nextOf('score')).t as number);
        expect([...view.steps.map((x) => x.t), ...rest]).toEqual(Array.from({ length: s.length }, (_, t) => t));
        r.close();
      }
    } finally {
      await app.close();
    }
  });
});

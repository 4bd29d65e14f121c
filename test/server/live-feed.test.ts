/**
 * The web view's live feed over real sockets: a real run streamed over
 * WebSocket shows up on `GET /v1/live` as the very frames its client got, the
 * sessions list and per-session view agree with them, and a viewer that does
 * not read is dropped instead of buffered.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { liveEventSchema, sessionListResponseSchema, trajectoryViewSchema } from '../../src/protocol/view-bodies.js';
import { LiveFeed } from '../../src/server/live-feed.js';
import { createMetrics } from '../../src/server/metrics.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';
import { ASTROID, Client, readEvents, removeDir, startApp, tempDir, useApp, type Frame } from './helpers.js';
import { SseReader, type LiveEvent } from './sse.js';

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/example');
const srv = useApp({ seedDirs: [EXAMPLE], resumeWindowMs: 1500, logLevel: 'silent' });

/** Streams a whole run and ends it; returns the frames the stream client got for the session. */
async function streamRun(c: Client, session: string, events: unknown[], from = 0, to = events.length): Promise<Frame[]> {
  for (let i = from; i < to; i++) c.send({ type: 'step', session, seq: i, step: events[i] });
  await c.sync();
  const out: Frame[] = [];
  for (;;) {
    const i = c.frames.findIndex((f) => f.session === session && (f.type === 'score' || f.type === 'signal'));
    if (i < 0) return out;
    out.push(c.frames.splice(i, 1)[0]!);
  }
}

describe('GET /v1/live', () => {
  it('shows a streamed session as it happens: its row, the same score and signal frames, its final, then gone', async () => {
    const { url, wsUrl } = srv();
    const live = await SseReader.open(`${url}/v1/live`);
    expect(live.headers['content-type']).toMatch(/^text\/event-stream/);
    const snapshot = await live.nextOf('snapshot');
    expect(snapshot.sessions).toEqual([]);

    const c = await Client.connect(wsUrl);
    const events = await readEvents(ASTROID.fail);
    c.send({ type: 'start', session: 'w1', task: ASTROID.task, format: 'mini-swe-agent', agent: 'mini-swe-agent 1.1', model: 'deepseek/deepseek-chat' });
    await c.nextOf('started', 'w1');
    const row = await live.nextOf('session', 'w1');
    expect(row).toMatchObject({ state: 'open', steps: 0, task: ASTROID.task, agent: 'mini-swe-agent 1.1', model: 'deepseek/deepseek-chat', reference: { kind: 'pta' } });

    const got = await streamRun(c, 'w1', events);
    expect(got.length).toBeGreaterThan(50);
    c.send({ type: 'outcome', session: 'w1', passed: false });
    c.send({ type: 'end', session: 'w1' });
    const final = await c.nextOf('final', 'w1');
    await live.nextOf('final', 'w1');
    // The reported outcome shows in the list at once (its row), then the ended row.
    expect(await live.nextOf('session', 'w1')).toMatchObject({ state: 'open', passed: false });
    const ended = await live.nextOf('session', 'w1');
    expect(ended).toMatchObject({ state: 'ended', tier: final.tier, total: (final.score as { total: number }).total, passed: false });
    // Read at once: the session is freed after the resume window (1.5 s), which the checks below took on a slow machine.
    const list = sessionListResponseSchema.parse(await (await fetch(`${url}/v1/sessions`)).json());

    // The feed carried exactly the stream's frames, byte for byte, in order.
    const feedFrames = live.texts.filter((t) => /^\{"type":"(score|signal)"/.test(t));
    expect(feedFrames).toEqual(got.map((f) => JSON.stringify(f)));
    for (const t of live.texts) expect(liveEventSchema.safeParse(JSON.parse(t)).success, t.slice(0, 80)).toBe(true);

    const mine = list.sessions.find((s) => s.session === 'w1');
    const stages = String(final.stages);
    expect(mine).toMatchObject({ steps: final.steps, recentStages: stages.slice(-40), state: 'ended' });
    const signals = final.signals as Array<{ kind: string; t: number }>;
    expect(mine?.lastSignal).toMatchObject({ kind: signals[signals.length - 1]?.kind, t: signals[signals.length - 1]?.t });

    // Ended sessions are freed after the resume window: viewers are told.
    await live.nextOf('gone', 'w1');
    c.close();
    live.close();
  });

  it('a snapshot taken after sessions changed shows each as it is now: scored steps, reported outcome, detach (rows are cached per session)', async () => {
    const { url, wsUrl } = srv();
    const c = await Client.connect(wsUrl);
    const events = await readEvents(ASTROID.fail);
    for (const id of ['r1', 'r2']) {
      c.send({ type: 'start', session: id, task: ASTROID.task, format: 'mini-swe-agent' });
      await c.nextOf('started', id);
    }
    const rowsOf = async () => {
      const live = await SseReader.open(`${url}/v1/live`);
      const snap = (await live.nextOf('snapshot')) as unknown as { sessions: Array<{ session: string; steps: number; state: string; passed?: boolean }> };
      live.close();
      return Object.fromEntries(snap.sessions.filter((r) => r.session === 'r1' || r.session === 'r2').map((r) => [r.session, r]));
    };
    expect(await rowsOf()).toMatchObject({ r1: { steps: 0, state: 'open' }, r2: { steps: 0, state: 'open' } });
    // r1 changes alone; r2's row (cached) stays as it was.
    const steps = (await streamRun(c, 'r1', events, 0, 12)).filter((f) => f.type === 'score').length;
    expect(steps).toBeGreaterThan(2);
    c.send({ type: 'outcome', session: 'r1', passed: true });
    await c.sync();
    const after = await rowsOf();
    expect(after.r1).toMatchObject({ steps, state: 'open', passed: true });
    expect(after.r2).toMatchObject({ steps: 0, state: 'open' });
    expect(after.r2).not.toHaveProperty('passed');
    c.close();
    await expect.poll(async () => (await rowsOf()).r2?.state).toBe('detached');
    expect((await rowsOf()).r1).toMatchObject({ steps, state: 'detached', passed: true });
  });

  it("with ?session=: that session's whole view first, then its frames with the step each scored", async () => {
    const { url, wsUrl } = srv();
    const c = await Client.connect(wsUrl);
    const events = await readEvents(ASTROID.passA);
    c.send({ type: 'start', session: 'w2', task: ASTROID.task, format: 'mini-swe-agent' });
    await c.nextOf('started', 'w2');
    const half = Math.floor(events.length / 2);
    const first = await streamRun(c, 'w2', events, 0, half);
    const other = await SseReader.open(`${url}/v1/live?session=other-session`);
    expect(other.status).toBe(404);
    other.close();
    const live = await SseReader.open(`${url}/v1/live?session=w2`);
    const view = trajectoryViewSchema.parse(await live.nextOf('view'));
    const firstScores = first.filter((f) => f.type === 'score');
    expect(view.steps.map((s) => s.score.total)).toEqual(firstScores.map((f) => (f.score as { total: number }).total));
    expect(view.steps.every((s) => s.text.length > 0 && s.text.length <= 100)).toBe(true);

    const rest = await streamRun(c, 'w2', events, half);
    const scores = rest.filter((f) => f.type === 'score');
    const fed: LiveEvent[] = [];
    for (const _score of scores) fed.push(await live.nextOf('score', 'w2')); // one live event per score frame
    expect(fed.map((e) => e.t)).toEqual(scores.map((f) => f.t));
    for (const e of fed) expect(e.step).toMatchObject({ tool: expect.any(String), text: expect.any(String), kind: expect.any(String) });

    c.send({ type: 'end', session: 'w2' });
    const final = await c.nextOf('final', 'w2');
    expect((await live.nextOf('final', 'w2')).steps).toBe(final.steps);

    const steps = trajectoryViewSchema.parse(await (await fetch(`${url}/v1/sessions/w2/steps`)).json());
    expect(steps.steps).toHaveLength(final.steps as number);
    expect(steps.final?.score).toEqual(final.score);
    expect(steps.steps.map((s) => s.score.total)).toEqual([...firstScores, ...scores].map((f) => (f.score as { total: number }).total));
    c.close();
    live.close();
  });

  it('drops a viewer that does not read (bounded like a stream connection) and counts it', () => {
    const metrics = createMetrics({ cacheStats: () => ({ hits: 0, misses: 0, entries: 0, bytes: 0 }) });
    const feed = new LiveFeed({ maxViewers: 4, queueBytes: 1000, config: DEFAULT_CONFIG, metrics, log: pino({ level: 'silent' }), heartbeatMs: 60_000 });
    const written: string[] = [];
    let destroyedWith: unknown = 'never destroyed';
    const res = Object.assign(new EventEmitter(), {
      writableLength: 0,
      destroyed: false,
      writableEnded: false,
      writeHead: () => res,
      write: (t: Buffer) => {
        written.push(t.toString());
        return true;
      },
      destroy: (error?: Error) => {
        destroyedWith = error;
        res.destroyed = true;
        res.emit('close');
        return res;
      },
      end: () => undefined,
    });
    feed.attach({ socket: Object.assign(new EventEmitter(), { setNoDelay: () => undefined }) } as never, res as never, LOCAL_PRINCIPAL, undefined);
    expect(feed.size).toBe(1);
    expect(written[0]).toMatch(/^data: \{"type":"snapshot"/);
    const session = {
      id: 's',
      tenant: LOCAL_PRINCIPAL.tenant,
      key: `${LOCAL_PRINCIPAL.tenant}:s`,
      totals: [],
      recentStages: '',
      task: 't',
      format: 'steplens',
      ended: false,
      connection: 1,
      states: () => [],
      signals: [],
      length: 0,
      currentScore: () => ({ total: 0 }),
      reference: { kind: 'prior' },
      startedAt: 0,
      stepTexts: () => [],
    };
    feed.started(session as never);
    expect(written).toHaveLength(2);
    // The client stopped reading: the backlog passed the bound (its first event, shared with other viewers, is not counted).
    res.writableLength = 1001 + Buffer.byteLength(written[0]!);
    feed.started(session as never);
    expect(res.destroyed).toBe(true);
    // With one error saying why, which each of its queued writes then gets (T59: not one new error each).
    expect(destroyedWith).toBeInstanceOf(Error);
    expect((destroyedWith as Error).message).toMatch(/not reading/);
    expect(feed.size).toBe(0);
    expect(written).toHaveLength(2);
    return metrics.registry.getSingleMetricAsString('steplens_live_viewers_dropped_total').then((text) => {
      expect(text).toMatch(/steplens_live_viewers_dropped_total 1$/m);
      feed.close();
    });
  });

  it('refuses viewers beyond the limit with overloaded, and unknown sessions with unknown_session', async () => {
    const { url } = srv();
    const res = await fetch(`${url}/v1/sessions/nope/steps`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unknown_session');
    expect((await fetch(`${url}/v1/sessions/nope/alignment`)).status).toBe(404);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/steplens_live_viewers \d/);
  });

  it('names an unknown ?session= by its start and length, not whole (T54: a 15 KB id came back in the 404)', async () => {
    const { url } = srv();
    const res = await fetch(`${url}/v1/live?session=${'x'.repeat(10_000)}`);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text.length).toBeLessThan(400);
    expect(text).toContain('(10000 characters)');
  });
});

describe('a viewer whose client went away before its response had the socket', () => {
  it('gives its slot back: requests pipelined behind another on sockets the client dropped do not fill liveViewers', async () => {
    const dir = await tempDir();
    const app = await startApp({ dataDir: dir, limits: { liveViewers: 2 } });
    try {
      const port = Number(new URL(app.url).port);
      for (let i = 0; i < 5; i++) {
        const sock = net.connect(port, '127.0.0.1');
        await new Promise((resolve) => sock.once('connect', resolve));
        // The feed is queued behind /readyz's response; the client then drops the connection.
        sock.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /v1/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        sock.destroy();
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      let viewers = '';
      for (let i = 0; i < 50 && viewers !== '0'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        viewers = /steplens_live_viewers (\d+)/.exec(await (await fetch(`${app.url}/metrics`)).text())?.[1] ?? '';
      }
      expect(viewers).toBe('0');
      const live = await SseReader.open(`${app.url}/v1/live`);
      expect((await live.nextOf('snapshot')).sessions).toEqual([]);
      live.close();
    } finally {
      const closing = app.app.close();
      app.app.server.closeAllConnections();
      await closing;
      await removeDir(dir);
    }
  });
});

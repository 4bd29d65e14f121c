/**
 * Sessions shared through a real Redis by in-process replicas: resume on
 * another replica, ids unique across replicas, graceful hand-back, reads of a
 * session another replica holds; the order of one session's writes (step appends wait for the next turn: an outcome
 * or final sent at once overtook them, and Redis refused the tail steps as `ended` though the final counted them).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { RedisSessionJournal } from '../../src/store/redis/session-journal.js';
import { forecastFileOf, labelledRuns } from '../forecast/fixtures.js';
import { ASTROID, Client, readDoc, readEvents, type Running } from '../server/helpers.js';
import { redisClient, RedisServer } from './redis-server.js';
import { freshPrefix, getJson, postJson, startReplica } from './replicas.js';

let redis: RedisServer;
let events: unknown[];
let failDoc: unknown;
const running: Running[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  events = await readEvents(ASTROID.fail);
  failDoc = await readDoc(ASTROID.fail);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  for (const r of running.splice(0)) await r.app.close();
});

afterAll(async () => {
  await redis?.destroy();
});

let lastPrefix = '';

async function pair(options: Parameters<typeof startReplica>[3] = {}): Promise<[Running, Running]> {
  const prefix = freshPrefix('sessions');
  lastPrefix = prefix;
  const a = await startReplica(redis, prefix, 'replica-a', options);
  const b = await startReplica(redis, prefix, 'replica-b', options);
  running.push(a, b);
  return [a, b];
}

async function connect(r: Running): Promise<Client> {
  const c = await Client.connect(r.wsUrl);
  clients.push(c);
  return c;
}

/** What POST /v1/score answers for the whole failing run (the final of any session over it must equal it). */
async function wholeRun(r: Running): Promise<Record<string, unknown>> {
  const res = await postJson(`${r.url}/v1/score`, { task: ASTROID.task, trajectory: failDoc, passed: false });
  expect(res.status).toBe(200);
  return res.body;
}

describe('sessions shared through Redis', () => {
  it('resumes on another replica where the first left off; the final equals POST /v1/score of the whole run', async () => {
    const [a, b] = await pair();
    const first = await connect(a);
    first.send({ type: 'start', session: 'moving', task: ASTROID.task, format: 'mini-swe-agent' });
    expect(await first.nextOf('started', 'moving')).toMatchObject({ reference: { kind: 'pta' } });
    const half = Math.floor(events.length / 2);
    events.slice(0, half).forEach((step, seq) => first.send({ type: 'step', session: 'moving', seq, step }));
    await first.sync();
    const seen = first.frames.filter((f) => f.type === 'score');
    const lastScoredSeq = seen.at(-1)?.seq as number;
    first.ws.terminate();

    const second = await connect(b);
    second.send({ type: 'resume', session: 'moving', after: lastScoredSeq - 2 });
    // Everything A scored was journaled first; A may still have been journaling later steps when the socket went
    // (their scores never reached the client): `last` is at least the last seq scored and at most the last sent.
    const resumed = await second.nextOf('resumed', 'moving');
    const last = resumed.last as number;
    expect(resumed).toEqual({ type: 'resumed', session: 'moving', last });
    expect(last).toBeGreaterThanOrEqual(lastScoredSeq);
    expect(last).toBeLessThanOrEqual(half - 1);
    await second.sync();
    const again = second.frames.filter((f) => f.type === 'score');
    expect(again.length).toBeGreaterThan(0);
    // The frames re-sent by B are the ones A sent (same seq, t, scores), then any A journaled but never sent.
    expect(again.filter((f) => (f.seq as number) <= lastScoredSeq)).toEqual(seen.filter((f) => (f.seq as number) > lastScoredSeq - 2));
    expect(again.every((f) => (f.seq as number) <= last)).toBe(true);
    events.slice(last + 1).forEach((step, i) => second.send({ type: 'step', session: 'moving', seq: last + 1 + i, step }));
    second.send({ type: 'outcome', session: 'moving', passed: false });
    second.send({ type: 'end', session: 'moving' });
    const final = await second.nextOf('final', 'moving');
    const { type, session, passed, reason, ...report } = final;
    expect([type, session, passed, reason]).toEqual(['final', 'moving', false, 'end']);
    expect(report).toEqual(await wholeRun(a));
    // Either replica answers for the ended session.
    expect((await getJson(`${a.url}/v1/sessions/moving`)).body).toMatchObject({ state: 'ended', steps: report.steps });
  });

  it('keeps the forecast model a session started with when another replica, with another model, takes it over', async () => {
    const runs = labelledRuns();
    const fitted = forecastFileOf(runs);
    const blind = { ...fitted, models: [{ ...fitted.models[0]!, weights: fitted.models[0]!.weights.map(() => 0), intercept: -4 }] };
    const prefix = freshPrefix('forecast');
    const a = await startReplica(redis, prefix, 'replica-a', { forecast: fitted });
    const b = await startReplica(redis, prefix, 'replica-b', { forecast: blind });
    running.push(a, b);
    const run = runs.find((r) => r.task === ASTROID.task && !r.passed)!;
    const ca = await connect(a);
    ca.send({ type: 'start', session: 'forecast', task: run.task });
    await ca.nextOf('started', 'forecast');
    run.steps.forEach((step, seq) => ca.send({ type: 'step', session: 'forecast', seq, step }));
    await ca.sync();
    const fromA = ca.frames.filter((f) => f.type === 'score');
    expect(fromA).toHaveLength(run.steps.length);
    ca.ws.terminate();
    const cb = await connect(b);
    cb.send({ type: 'resume', session: 'forecast', after: -1 });
    await cb.nextOf('resumed', 'forecast');
    cb.send({ type: 'end', session: 'forecast' });
    const final = await cb.nextOf('final', 'forecast');
    // B re-sends A's frames, pPass included (B's own model would say about 2 %), and ends with A's model.
    expect(cb.frames.filter((f) => f.type === 'score')).toEqual(fromA);
    expect(final.pPass).toBe(fromA.at(-1)?.pPass);
    expect(final.pPass).not.toBeCloseTo(1 / (1 + Math.exp(4)), 3);
  });

  it('refuses a session id another replica holds', async () => {
    const [a, b] = await pair();
    const ca = await connect(a);
    const cb = await connect(b);
    ca.send({ type: 'start', session: 'taken', task: ASTROID.task });
    await ca.nextOf('started', 'taken');
    cb.send({ type: 'start', session: 'taken', task: ASTROID.task });
    expect(await cb.nextOf('error')).toMatchObject({ code: 'duplicate_session', session: 'taken' });
  });

  it('hands sessions back on graceful shutdown (no final), and another replica carries them on', async () => {
    const [a, b] = await pair();
    const ca = await connect(a);
    ca.send({ type: 'start', session: 'handed', task: ASTROID.task, format: 'mini-swe-agent' });
    await ca.nextOf('started', 'handed');
    events.slice(0, 10).forEach((step, seq) => ca.send({ type: 'step', session: 'handed', seq, step }));
    await ca.sync();
    await a.app.close();
    running.splice(running.indexOf(a), 1);
    expect((await ca.whenClosed()).code).toBe(1001);
    expect(ca.frames.some((f) => f.type === 'final')).toBe(false);

    const cb = await connect(b);
    cb.send({ type: 'resume', session: 'handed', after: 9 });
    expect(await cb.nextOf('resumed', 'handed')).toEqual({ type: 'resumed', session: 'handed', last: 9 });
    events.slice(10).forEach((step, i) => cb.send({ type: 'step', session: 'handed', seq: 10 + i, step }));
    cb.send({ type: 'outcome', session: 'handed', passed: false });
    cb.send({ type: 'end', session: 'handed' });
    const { type, session, passed, reason, ...report } = await cb.nextOf('final', 'handed');
    expect(reason).toBe('end');
    expect(report).toEqual(await wholeRun(b));
  });

  it('fences the replica a session moved away from: its old connection can no longer add steps', async () => {
    const [a, b] = await pair();
    const ca = await connect(a);
    ca.send({ type: 'start', session: 'fenced', task: ASTROID.task, format: 'mini-swe-agent' });
    await ca.nextOf('started', 'fenced');
    events.slice(0, 6).forEach((step, seq) => ca.send({ type: 'step', session: 'fenced', seq, step }));
    await ca.sync();
    // A second connection resumes it on B while the first is still open on A.
    const cb = await connect(b);
    cb.send({ type: 'resume', session: 'fenced', after: 5 });
    expect(await cb.nextOf('resumed', 'fenced')).toMatchObject({ last: 5 });
    ca.frames.splice(0);
    ca.send({ type: 'step', session: 'fenced', seq: 6, step: events[6] });
    expect(await ca.nextOf('error', 'fenced')).toMatchObject({ code: 'unknown_session', seq: 6 });
    // B carries on from seq 6: nothing A refused was recorded.
    cb.send({ type: 'step', session: 'fenced', seq: 6, step: events[6] });
    await cb.sync();
    expect(cb.frames.filter((f) => f.type === 'error')).toEqual([]);
  });

  it('bounds Redis memory: every session key expires (TTL from the last write, the resume window once ended)', async () => {
    await pair({ idleTimeoutMs: 60_000, resumeWindowMs: 20_000 });
    const [a] = running.slice(-2) as [Running, Running];
    const ca = await connect(a);
    ca.send({ type: 'start', session: 'bounded', task: ASTROID.task, format: 'mini-swe-agent' });
    await ca.nextOf('started', 'bounded');
    events.slice(0, 4).forEach((step, seq) => ca.send({ type: 'step', session: 'bounded', seq, step }));
    await ca.sync();
    const raw = redisClient(redis.url);
    try {
      const ttls = async (): Promise<number[]> => Promise.all(['sm', 'sl', 'sk'].map((tag) => raw.pttl(`${lastPrefix}${tag}:default:bounded`)));
      for (const ttl of await ttls()) expect(ttl).toBeGreaterThan(0);
      const [meta, steps] = await ttls();
      expect(meta).toBeLessThanOrEqual(80_000);
      expect(steps).toBeLessThanOrEqual(80_000);
      ca.send({ type: 'end', session: 'bounded' });
      await ca.nextOf('final', 'bounded');
      const [metaEnded, stepsEnded, lease] = await ttls();
      expect(metaEnded).toBeGreaterThan(0);
      expect(metaEnded).toBeLessThanOrEqual(20_000);
      expect(stepsEnded).toBeLessThanOrEqual(20_000);
      expect(lease).toBe(-2); // the lease is gone with the final
    } finally {
      raw.disconnect();
    }
  });

  it('answers GET /v1/sessions/:id, its steps and its alignment on a replica that does not hold the session', async () => {
    const [a, b] = await pair();
    const ca = await connect(a);
    ca.send({ type: 'start', session: 'watched', task: ASTROID.task, format: 'mini-swe-agent' });
    await ca.nextOf('started', 'watched');
    events.slice(0, 12).forEach((step, seq) => ca.send({ type: 'step', session: 'watched', seq, step }));
    await ca.sync();
    const here = await getJson(`${a.url}/v1/sessions/watched`);
    const there = await getJson(`${b.url}/v1/sessions/watched`);
    expect(there.status).toBe(200);
    expect(there.body).toEqual(here.body);
    expect((await getJson(`${b.url}/v1/sessions/nobody`)).status).toBe(404);
    // The web view's reads too: behind a balancer the session page asks any replica (before: 404 on replica B).
    for (const path of ['steps', 'alignment']) {
      const mine = await getJson(`${a.url}/v1/sessions/watched/${path}`);
      const elsewhere = await getJson(`${b.url}/v1/sessions/watched/${path}`);
      expect(elsewhere.status, path).toBe(mine.status);
      expect(elsewhere.body, path).toEqual(mine.body);
    }
    expect((await getJson(`${b.url}/v1/sessions/watched/steps`)).body).toMatchObject({ session: 'watched', steps: expect.any(Array) as unknown });
    expect((await getJson(`${b.url}/v1/sessions/nobody/steps`)).status).toBe(404);
  });
});

// The order of a session's writes: appends are batched until the next turn, every other command sends them first.
describe('the order of one session’s Redis writes', () => {
  it('sends the appends queued in a turn before an outcome, a final, a read or a release made after them', async () => {
    const link = new RedisLink({ url: redis.url, prefix: freshPrefix('order-journal') });
    try {
      const journal = new RedisSessionJournal({ link, store: await RedisReferenceStore.open({ link }), owner: 'one' });
      const pin = { kind: 'prior', prior: UNIFORM_PRIOR } as const;
      const open = async (id: string): Promise<void> => {
        expect(await journal.open(id, { task: 't', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: pin, createdAt: Date.now() })).toBe('ok');
      };
      await open('t:s');
      // Not awaited: queued for the next turn, as a turn's steps are.
      const appended = [0, 1, 2].map((seq) => journal.append('t:s', seq, `step ${seq}`, pin));
      const outcome = journal.outcome('t:s', false, pin);
      const read = journal.head('t:s');
      const finished = journal.finish('t:s', { type: 'final' }, pin);
      expect(await Promise.all(appended)).toEqual(['ok', 'ok', 'ok']);
      expect([await outcome, await finished]).toEqual(['ok', 'ok']);
      expect((await read)?.length).toBe(3);
      await open('t:r');
      const more = journal.append('t:r', 0, 'step 0', pin);
      await journal.release(['t:r']);
      expect(await more).toBe('ok');
    } finally {
      await link.close();
    }
  });

  it('stores every step of a burst sent with its outcome and end, before the final', async () => {
    const prefix = freshPrefix('order');
    const a = await startReplica(redis, prefix, 'order-a');
    const b = await startReplica(redis, prefix, 'order-b');
    running.push(a, b);
    const whole = await postJson(`${a.url}/v1/score`, { task: ASTROID.task, trajectory: failDoc, passed: false });
    const c = await Client.connect(a.wsUrl);
    clients.push(c);
    c.send({ type: 'start', session: 'burst', task: ASTROID.task, format: 'mini-swe-agent' });
    await c.nextOf('started', 'burst');
    // Over a turn's worth of frames (frame-batch.ts), so the tail, the outcome and the end run in a later turn.
    events.forEach((step, seq) => c.send({ type: 'step', session: 'burst', seq, step }));
    c.send({ type: 'outcome', session: 'burst', passed: false });
    c.send({ type: 'end', session: 'burst' });
    const final = await c.nextOf('final', 'burst');
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);
    expect(final.steps).toBe(whole.body.steps);
    // Both replicas read the stored session: every step, the outcome and the final.
    for (const r of [a, b]) {
      const view = (await getJson(`${r.url}/v1/sessions/burst`)).body;
      expect(view).toMatchObject({ state: 'ended', steps: final.steps, lastSeq: events.length - 1, passed: false });
    }
  });
});

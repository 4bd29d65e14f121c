/**
 * Redis going away mid-run (SIGKILL, then a restart on the same port and
 * append-only file): steps get `unavailable` errors at once (no hang), the
 * replica is not ready meanwhile, no step whose score was sent is lost, and
 * the session carries on once Redis is back with the same final as POST /v1/score.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readDoc, readSteps, type Frame, type Running } from '../server/helpers.js';
import { redisClient, RedisServer } from './redis-server.js';
import { eventually, freshPrefix, postJson, startReplica } from './replicas.js';

let redis: RedisServer;
let steps: Step[];
const replicas: Running[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  // fsync always: with everysec a busy disk postpones Redis's AOF write past its reply, and the SIGKILL below
  // would lose acknowledged writes (bench/redis-server.ts); this file is about outages, not that trade-off.
  redis = await RedisServer.start('always');
  steps = await readSteps(ASTROID.fail);
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  for (const r of replicas) await r.app.close();
  await redis?.destroy();
});

async function replicaWithSession(name: string, commandTimeoutMs?: number): Promise<{ replica: Running; c: Client }> {
  const prefix = freshPrefix(name);
  const options = commandTimeoutMs === undefined ? {} : { redis: { url: redis.url, prefix, replicaId: name, leaseMs: 2000, commandTimeoutMs } };
  const replica = await startReplica(redis, prefix, name, options);
  replicas.push(replica);
  const c = await Client.connect(replica.wsUrl);
  clients.push(c);
  c.send({ type: 'start', session: name, task: ASTROID.task });
  await c.nextOf('started', name);
  for (let seq = 0; seq < 10; seq++) c.send({ type: 'step', session: name, seq, step: steps[seq] });
  await c.sync();
  expect(c.frames.filter((f) => f.type === 'score')).toHaveLength(10);
  c.frames.splice(0);
  return { replica, c };
}

const readyz = (r: Running) => async (): Promise<number> => (await fetch(`${r.url}/readyz`)).status;

async function metrics(r: Running): Promise<(name: string) => number> {
  const text = await (await fetch(`${r.url}/metrics`)).text();
  return (name) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(name))
        ?.split(' ')
        .at(-1) ?? 0,
    );
}

/** Sends the rest of the run from `next`, ends it, and checks the final against POST /v1/score of the whole run. */
async function finishRun(r: Running, c: Client, id: string, next: number): Promise<void> {
  for (let seq = next; seq < steps.length; seq++) c.send({ type: 'step', session: id, seq, step: steps[seq] });
  await c.sync();
  expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);
  expect(c.frames.filter((f) => f.type === 'score').map((f) => f.seq)).toEqual(Array.from({ length: steps.length - next }, (_, i) => next + i));
  c.send({ type: 'outcome', session: id, passed: false });
  c.send({ type: 'end', session: id });
  const { type, session, passed, reason, ...report } = await c.nextOf('final', id);
  const whole = await postJson(`${r.url}/v1/score`, { task: ASTROID.task, trajectory: await readDoc(ASTROID.fail), passed: false });
  expect(report).toEqual(whole.body);
  expect(report.steps).toBe(steps.length);
}

/** The score or error frame answering each seq in `seqs` (each gets exactly one of them before the pong). */
function answers(c: Client, id: string, seqs: number[]): Map<number, Frame> {
  const out = new Map<number, Frame>();
  for (const f of c.frames.splice(0)) {
    if (f.session !== id || (f.type !== 'score' && f.type !== 'error')) continue;
    const seq = f.seq as number;
    expect(out.has(seq), `seq ${seq} answered twice`).toBe(false);
    out.set(seq, f);
  }
  expect([...out.keys()].sort((a, b) => a - b)).toEqual(seqs);
  return out;
}

describe('Redis restarted mid-run', () => {
  it('refuses steps with unavailable while it is down, loses no accepted step, and carries on once it is back', async () => {
    const { replica, c } = await replicaWithSession('outage');
    const ready = readyz(replica);
    // A burst of steps, with Redis killed while their writes are in flight.
    const burst = Array.from({ length: steps.length - 10 }, (_, i) => 10 + i);
    const half = Math.floor(burst.length / 2);
    for (const seq of burst.slice(0, half)) c.send({ type: 'step', session: 'outage', seq, step: steps[seq] });
    // Killed once the first of them is answered (the writes of later ones may be in flight), before the rest are sent.
    c.frames.unshift(await c.nextOf('score', 'outage'));
    await redis.stop('SIGKILL');
    for (const seq of burst.slice(half)) c.send({ type: 'step', session: 'outage', seq, step: steps[seq] });
    const began = Date.now();
    await c.sync();
    expect(Date.now() - began).toBeLessThan(3000);
    const got = answers(c, 'outage', burst);
    // What was accepted is a prefix; everything after it was refused, naming its seq.
    const accepted = burst.filter((seq) => got.get(seq)?.type === 'score');
    const refused = burst.filter((seq) => got.get(seq)?.type === 'error');
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(accepted).toEqual(burst.slice(0, accepted.length));
    // The first refusal says why; later seqs are refused as unavailable too, or as out_of_order behind a refused one.
    expect(got.get(refused[0]!)).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/not accepted/) });
    for (const seq of refused) expect(['unavailable', 'out_of_order']).toContain(got.get(seq)?.code);
    const next = 10 + accepted.length;

    expect(await eventually(ready, (s) => s === 503)).toBe(503);
    // HTTP routes that need Redis answer 503 with the code too.
    const scoreDown = await postJson(`${replica.url}/v1/score`, { task: ASTROID.task, trajectory: await readDoc(ASTROID.fail) });
    expect(scoreDown).toMatchObject({ status: 503, body: { error: { code: 'unavailable' } } });
    const tasksDown = await fetch(`${replica.url}/v1/tasks`);
    expect([tasksDown.status, ((await tasksDown.json()) as { error: { code: string } }).error.code]).toEqual([503, 'unavailable']);
    const stillDown = Date.now();
    c.send({ type: 'step', session: 'outage', seq: next, step: steps[next] });
    expect(await c.nextOf('error', 'outage')).toMatchObject({ code: 'unavailable', seq: next });
    expect(Date.now() - stillDown).toBeLessThan(1000);

    await redis.launch();
    expect(await eventually(ready, (s) => s === 200)).toBe(200);
    // Carry on from the first refused seq.
    await finishRun(replica, c, 'outage', next);
    const value = await metrics(replica);
    expect(value('steplens_redis_up')).toBe(1);
    expect(value('steplens_redis_connection_lost_total')).toBeGreaterThanOrEqual(1);
    expect(value('steplens_redis_command_seconds_count{op="session_append"}')).toBeGreaterThanOrEqual(1);
    expect(value('steplens_refusals_total{code="unavailable"}')).toBeGreaterThanOrEqual(1);
  });

  it('starts without Redis: not ready, sessions refused with unavailable; ready and serving once Redis comes up', async () => {
    const late = await RedisServer.start();
    await late.stop('SIGKILL');
    try {
      const replica = await startReplica(late, freshPrefix('late'), 'replica-late');
      replicas.push(replica);
      expect(await readyz(replica)()).toBe(503);
      const c = await Client.connect(replica.wsUrl);
      clients.push(c);
      c.send({ type: 'start', session: 'early', task: ASTROID.task });
      expect(await c.nextOf('error', 'early')).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/unreachable/) });
      await late.launch();
      expect(await eventually(readyz(replica), (s) => s === 200)).toBe(200);
      c.send({ type: 'start', session: 'early', task: ASTROID.task });
      // Seeded once Redis answered: the bundled reference of the task is there.
      expect(await c.nextOf('started', 'early')).toMatchObject({ reference: { kind: 'pta' } });
    } finally {
      await late.destroy();
    }
  });

  it('answers writes in flight when Redis dies with unavailable, and rebuilds the session from what Redis kept', async () => {
    // Writes wait up to 8 s (inside the 10 s pause), not 1 s: on a loaded machine the 1 s passed before the kill below,
    // and the steps were refused as not answered in time rather than as Redis unreachable.
    const { replica, c } = await replicaWithSession('inflight', 8000);
    // Redis holds every command from now on: the next steps are scored, their writes wait in Redis.
    const raw = redisClient(redis.url);
    await raw.call('CLIENT', 'PAUSE', '10000', 'ALL');
    raw.disconnect();
    for (let seq = 10; seq < 20; seq++) c.send({ type: 'step', session: 'inflight', seq, step: steps[seq] });
    const scored = async (): Promise<number> => (await metrics(replica))('steplens_steps_scored_total');
    expect(await eventually(scored, (n) => n >= 20)).toBeGreaterThanOrEqual(20);
    expect(c.frames.filter((f) => f.type === 'score')).toEqual([]);
    await redis.stop('SIGKILL');
    await c.sync();
    const seqs = Array.from({ length: 10 }, (_, i) => 10 + i);
    const got = answers(c, 'inflight', seqs);
    for (const seq of seqs) expect(got.get(seq)).toMatchObject({ type: 'error', code: 'unavailable', seq });
    expect(got.get(10)?.message).toMatch(/seq 10 not accepted .*unreachable/);

    await redis.launch();
    expect(await eventually(readyz(replica), (s) => s === 200)).toBe(200);
    await finishRun(replica, c, 'inflight', 10);
    const value = await metrics(replica);
    expect(value('steplens_redis_errors_total{op="session_append"}')).toBeGreaterThanOrEqual(1);
    expect(value('steplens_sessions_rebuilt_total')).toBe(1);
  });
});

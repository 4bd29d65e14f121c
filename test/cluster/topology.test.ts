/**
 * The docker-compose topology without Docker: a real redis-server, three
 * replicas as processes (`steplens serve --redis`), and a TCP balancer in
 * front. Replicas are SIGKILLed, stopped gracefully and restarted, and Redis
 * is restarted, while sessions stream through the balancer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { ASTROID, Client, readDoc, readEvents } from '../server/helpers.js';
import { RedisServer } from '../redis/redis-server.js';
import { eventually, freshPrefix, getJson, postJson } from '../redis/replicas.js';
import { ReplicaProcess } from './replica-process.js';
import { TcpBalancer } from './tcp-balancer.js';

const allReady = async (): Promise<number[]> => Promise.all(replicas.map(async (r) => (await fetch(`${r.url}/readyz`)).status));

let redis: RedisServer;
let prefix: string;
const replicas: ReplicaProcess[] = [];
let lb: TcpBalancer;
let events: unknown[];
let failDoc: unknown;

beforeAll(async () => {
  // fsync always: with everysec a busy disk postpones Redis's AOF write past its reply, and the SIGKILL below
  // would lose acknowledged writes (bench/redis-server.ts); this file is about outages, not that trade-off.
  redis = await RedisServer.start('always');
  prefix = freshPrefix('topology');
  for (const name of ['r0', 'r1', 'r2']) replicas.push(await ReplicaProcess.start(name, redis.url, prefix));
  // As a balancer's health check would: traffic only once every replica is ready.
  expect(await eventually(allReady, (s) => s.every((x) => x === 200))).toEqual([200, 200, 200]);
  lb = await TcpBalancer.start(() => replicas.map((r) => r.port));
  events = await readEvents(ASTROID.fail);
  failDoc = await readDoc(ASTROID.fail);
}, 60_000);

afterAll(async () => {
  await lb?.close();
  for (const r of replicas) await r.stop('SIGKILL');
  await redis?.destroy();
});

const wsUrl = (): string => `ws://127.0.0.1:${lb.port}/v1/stream`;

/** Restarts the replica at `index` on its port (after it was stopped). */
async function restart(index: number): Promise<void> {
  const old = replicas[index]!;
  await old.stop('SIGKILL');
  const again = await ReplicaProcess.start(old.name, redis.url, prefix, old.port);
  replicas[index] = again;
  expect(
    await eventually(
      async () => (await fetch(`${again.url}/readyz`)).status,
      (s) => s === 200,
    ),
  ).toBe(200);
}

async function wholeRun(): Promise<Record<string, unknown>> {
  const res = await postJson(`${lb.url}/v1/score`, { task: ASTROID.task, trajectory: failDoc, passed: false });
  expect(res.status).toBe(200);
  return res.body;
}

describe('three replicas behind a balancer, one Redis', () => {
  it('resumes on another replica after the owner is SIGKILLed: resumed.last is the last seq it scored, the final equals POST /v1/score', async () => {
    const first = await Client.connect(wsUrl());
    const owner = replicas[lb.routed.at(-1)!]!;
    first.send({ type: 'start', session: 'failover', task: ASTROID.task, format: 'mini-swe-agent' });
    await first.nextOf('started', 'failover');
    const half = Math.floor(events.length / 2);
    events.slice(0, half).forEach((step, seq) => first.send({ type: 'step', session: 'failover', seq, step }));
    await first.sync();
    const seen = first.frames.filter((f) => f.type === 'score');
    await owner.stop('SIGKILL');
    await first.whenClosed();

    const second = await Client.connect(wsUrl());
    expect(replicas[lb.routed.at(-1)!]).not.toBe(owner);
    second.send({ type: 'resume', session: 'failover', after: (seen.at(-1)?.seq as number) - 1 });
    // A score frame leaves only once its step is journaled, so `last` is at least the last seq the client saw
    // scored; a step the owner had not journaled when it died is not in it (the client sends it again).
    const resumed = await second.nextOf('resumed', 'failover');
    const last = resumed.last as number;
    expect(resumed).toEqual({ type: 'resumed', session: 'failover', last });
    expect(last).toBeGreaterThanOrEqual(seen.at(-1)?.seq as number);
    expect(last).toBeLessThanOrEqual(half - 1);
    events.slice(last + 1).forEach((step, i) => second.send({ type: 'step', session: 'failover', seq: last + 1 + i, step }));
    second.send({ type: 'outcome', session: 'failover', passed: false });
    second.send({ type: 'end', session: 'failover' });
    const { type, session, passed, reason, ...report } = await second.nextOf('final', 'failover');
    expect(report).toEqual(await wholeRun());
    second.close();
    await restart(replicas.indexOf(owner));
  }, 90_000); // a replica SIGKILLed and its session resumed on another: slower while other test files share the cores

  it('the TypeScript client streams a whole run while its replicas are killed, stopped and restarted: every step scored once', async () => {
    const tasksBefore = (await getJson(`${replicas[0]?.url}/v1/tasks`)).body;
    const client = await connect(lb.url, { reconnect: { retries: 20, delayMs: 25 } });
    // The replica the client's socket goes to (the balancer's latest routing when it connects).
    let owner = lb.routed.at(-1)!;
    let reconnects = 0;
    client.onReconnect(() => {
      reconnects++;
      owner = lb.routed.at(-1)!;
    });
    const session = await client.start({ task: ASTROID.task, format: 'mini-swe-agent' });
    const third = Math.floor(events.length / 3);
    for (const [i, e] of events.entries()) {
      if (i === third || i === 2 * third) {
        const index = owner;
        // First a crash, then a rolling restart (graceful stop hands the session back).
        await replicas[index]!.stop(i === third ? 'SIGKILL' : 'SIGTERM');
        await restart(index);
      }
      await session.step(e);
    }
    session.outcome(false);
    const final = await session.end();
    expect(reconnects).toBe(2);
    expect(session.scores.map((f) => f.t)).toEqual(Array.from({ length: session.scores.length }, (_, t) => t));
    const { type, session: id, passed, reason, ...report } = final;
    expect(reason).toBe('end');
    expect(report).toEqual(await wholeRun());
    expect(session.scores.length).toBe(report.steps);
    // Restarted replicas keep every task.
    for (const r of replicas) expect((await getJson(`${r.url}/v1/tasks`)).body).toEqual(tasksBefore);
    await client.close();
  }, 90_000); // three replicas, Redis and a balancer as processes: slower while other test files share the cores

  it('Redis restarted mid-run: clients get unavailable errors (no hang), replicas are not ready, then recover and carry on', async () => {
    const client = await connect(lb.url, { reconnect: { retries: 20, delayMs: 25 } });
    const session = await client.start({ task: ASTROID.task, format: 'mini-swe-agent' });
    const cut = Math.floor(events.length / 2);
    for (const e of events.slice(0, cut)) await session.step(e);
    await redis.stop('SIGKILL');
    const began = Date.now();
    await expect(session.step(events[cut])).rejects.toMatchObject({ code: 'unavailable', seq: cut });
    expect(Date.now() - began).toBeLessThan(3000);
    expect(await eventually(allReady, (s) => s.every((x) => x === 503))).toEqual([503, 503, 503]);
    await redis.launch();
    expect(await eventually(allReady, (s) => s.every((x) => x === 200))).toEqual([200, 200, 200]);
    for (const e of events.slice(cut)) await session.step(e);
    session.outcome(false);
    const { type, session: id, passed, reason, ...report } = await session.end();
    expect(report).toEqual(await wholeRun());
    await client.close();
  });
});

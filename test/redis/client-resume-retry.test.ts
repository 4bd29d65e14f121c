/**
 * The TS client against a replica whose Redis is down when its socket drops: the reconnect's `resume` is refused
 * `unavailable`, so the client asks again with backoff, holding the session's steps meanwhile; once Redis is back
 * the steps go and the final is POST /v1/score's. With Redis down for good, the held steps reject `unavailable`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readDoc, readSteps, type Running } from '../server/helpers.js';
import { RedisServer } from './redis-server.js';
import { freshPrefix, postJson, startReplica } from './replicas.js';

let redis: RedisServer;
let steps: Step[];
const replicas: Running[] = [];

beforeAll(async () => {
  redis = await RedisServer.start('always');
  steps = await readSteps(ASTROID.fail);
});

afterAll(async () => {
  for (const r of replicas) await r.app.close();
  await redis?.destroy();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A replica with a session of the run's first 10 steps; Redis is then killed and the client's socket cut. */
async function cutWhileRedisDown(name: string, retries: number) {
  const replica = await startReplica(redis, freshPrefix(name), name);
  replicas.push(replica);
  const client = await connect(replica.url, { reconnect: { retries, delayMs: 50 } });
  const refusals: string[] = [];
  const session = await client.start({ task: ASTROID.task, session: name });
  for (const s of steps.slice(0, 10)) await session.step(s);
  await redis.stop('SIGKILL');
  const reconnected = new Promise<void>((r) => client.onReconnect(r));
  client.onError((e) => refusals.push(String(e)));
  client.socket.terminate();
  const rest = steps.slice(10).map((s) => session.step(s).then((frames) => frames.map((f) => f.seq)));
  await reconnected;
  return { replica, client, session, rest, refusals };
}

describe('a resume refused while the shared store is down', () => {
  it('is asked again until Redis is back; the held steps are then scored and the final matches POST /v1/score', async () => {
    const { replica, client, session, rest } = await cutWhileRedisDown('held', 10);
    await sleep(400);
    expect(session.done).toBe(false);
    await redis.launch();
    const answers = await Promise.all(rest);
    expect(answers).toEqual(steps.slice(10).map((_, i) => [10 + i]));
    session.outcome(false);
    const { type, session: id, passed, reason, ...report } = await session.end();
    const whole = await postJson(`${replica.url}/v1/score`, { task: ASTROID.task, trajectory: await readDoc(ASTROID.fail), passed: false });
    expect(report).toEqual(whole.body);
    expect(session.scores.map((f) => f.t)).toEqual(steps.map((_, i) => i));
    await client.close();
  });

  it('gives up after the reconnect retries: held steps reject with unavailable, the session is lost, the client stays open', async () => {
    const { client, session, rest } = await cutWhileRedisDown('given-up', 2);
    const settled = await Promise.allSettled(rest);
    expect(settled.every((s) => s.status === 'rejected' && (s.reason as { code: string }).code === 'unavailable')).toBe(true);
    expect(session.done).toBe(true);
    await expect(session.step(steps[0])).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/could not be resumed after 2 attempts/) });
    expect(client.closed).toBe(false);
    await client.close();
    await redis.launch();
  });
});

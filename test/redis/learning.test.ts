/**
 * Learning on two replicas at once (learn sessions and POST .../references):
 * no reference is lost; and a replica started again finds every task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readDoc, readSteps, type Running } from '../server/helpers.js';
import { RedisServer } from './redis-server.js';
import { freshPrefix, getJson, postJson, startReplica } from './replicas.js';

let redis: RedisServer;
let passA: Step[];
let passB: Step[];
const running: Running[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  passA = await readSteps(ASTROID.passA);
  passB = await readSteps(ASTROID.passB);
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  for (const r of running) await r.app.close();
  await redis?.destroy();
});

async function learnOn(r: Running, id: string, task: string, steps: Step[]): Promise<Record<string, unknown>> {
  const c = await Client.connect(r.wsUrl);
  clients.push(c);
  c.send({ type: 'start', session: id, task, learn: true });
  await c.nextOf('started', id);
  steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  c.send({ type: 'outcome', session: id, passed: true });
  c.send({ type: 'end', session: id });
  return c.nextOf('final', id);
}

describe('learning on several replicas', () => {
  it('merges concurrent learn sessions and reference posts from two replicas without losing one; a restarted replica keeps every task', async () => {
    const prefix = freshPrefix('learning');
    const a = await startReplica(redis, prefix, 'replica-a');
    const b = await startReplica(redis, prefix, 'replica-b');
    running.push(a, b);
    const task = 'learned__task-1';
    const finals = await Promise.all([learnOn(a, 'learn-a1', task, passA), learnOn(b, 'learn-b1', task, passB), learnOn(a, 'learn-a2', task, passB), learnOn(b, 'learn-b2', task, passA)]);
    expect(finals.map((f) => (f.learned as { version: number }).version).sort()).toEqual([1, 2, 3, 4]);

    const docs = [await readDoc(ASTROID.passA), await readDoc(ASTROID.passB)];
    const posts = await Promise.all(Array.from({ length: 6 }, (_, i) => postJson(`${(i % 2 ? a : b).url}/v1/tasks/${task}/references`, { trajectory: docs[i % 2] })));
    expect(posts.map((p) => p.status)).toEqual(Array(6).fill(201));
    expect(posts.map((p) => p.body.version as number).sort((x, y) => x - y)).toEqual([5, 6, 7, 8, 9, 10]);
    for (const r of [a, b]) {
      const pta = await getJson(`${r.url}/v1/tasks/${task}/pta`);
      expect((pta.body.references as unknown[]).length).toBe(10);
      expect(pta.body.version).toBe(10);
    }

    const before = await getJson(`${a.url}/v1/tasks`);
    await a.app.close();
    running.splice(running.indexOf(a), 1);
    const again = await startReplica(redis, prefix, 'replica-a');
    running.push(again);
    const after = await getJson(`${again.url}/v1/tasks`);
    expect(after.body).toEqual(before.body);
    expect((after.body.tasks as Array<{ task: string; version: number }>).find((t) => t.task === task)).toMatchObject({ version: 10, references: 10 });
    // A session started on it is scored against the learned PTA.
    const c = await Client.connect(again.wsUrl);
    clients.push(c);
    c.send({ type: 'start', session: 'after-restart', task });
    expect(await c.nextOf('started', 'after-restart')).toMatchObject({ reference: { kind: 'pta', version: 10 } });
  });
});

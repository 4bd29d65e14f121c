/**
 * Issue 25's Redis bounds, on a real redis-server: a session's stored steps within a byte bound, the
 * journal read in pages (never before the principal check, and only the new steps on a repeated GET),
 * Redis out of memory named as such (on `start` and `/readyz`), a paused Redis not ready, and the seeds
 * imported again when Redis comes back empty (no persistence), without restarting the replica.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readSteps, type Running } from '../server/helpers.js';
import { RedisServer } from './redis-server.js';
import { eventually, freshPrefix, getJson, postJson, startReplica, useRedis } from './replicas.js';

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const fx = useRedis();
const { running, clients } = fx;
let steps: Step[];

beforeAll(async () => {
  steps = await readSteps(ASTROID.fail);
});

async function replica(prefix: string, name: string, options: Parameters<typeof startReplica>[3] = {}, server = fx.redis): Promise<Running> {
  const r = await startReplica(server, prefix, name, options);
  running.push(r);
  return r;
}

async function client(r: Running, headers: Record<string, string> = {}): Promise<Client> {
  const c = await Client.connect(r.wsUrl, headers);
  clients.push(c);
  return c;
}

/** How many `op` commands the replica sent to Redis (its metrics: a `metrics` token reads them when auth is on). */
async function commands(r: Running, op: string, token = 'prom-token'): Promise<number> {
  const text = await (await fetch(`${r.url}/metrics`, { headers: auth(token) })).text();
  const line = text.split('\n').find((l) => l.startsWith('steplens_redis_command_seconds_count') && l.includes(`op="${op}"`));
  return Number(line?.split(' ').at(-1) ?? 0);
}

const frame = (session: string, seq: number): string => JSON.stringify({ type: 'step', session, seq, step: steps[seq] });

describe('Redis bounds', () => {
  it("keeps a session's stored steps within maxSessionBytes: the step past it is refused too_large, the session goes on", async () => {
    const bound = [0, 1, 2, 3, 4].reduce((n, seq) => n + Buffer.byteLength(frame('big', seq)), 0);
    const prefix = freshPrefix('bytes');
    const a = await replica(prefix, 'bytes-a', { limits: { maxSessionBytes: bound } });
    const c = await client(a);
    c.send({ type: 'start', session: 'big', task: ASTROID.task });
    await c.nextOf('started', 'big');
    for (let seq = 0; seq < 6; seq++) c.send(frame('big', seq));
    await c.sync();
    expect(c.frames.filter((f) => f.type === 'score').map((f) => f.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(c.frames.find((f) => f.type === 'error')).toMatchObject({ code: 'too_large', seq: 5, message: expect.stringContaining(`over the limit of ${bound} bytes`) as unknown });
    // Redis holds exactly the accepted steps, within the bound.
    // Auth off: the session is the default tenant's (keys are `<tenant>:<id>`).
    const stored = await fx.admin.lrangeBuffer(`${prefix}sl:default:big`, 0, -1);
    expect(stored).toHaveLength(5);
    expect(stored.reduce((n, b) => n + b.length, 0)).toBe(bound);
    // The session goes on: it ends as usual over the accepted steps.
    c.frames.splice(0);
    c.send({ type: 'end', session: 'big' });
    expect(await c.nextOf('final', 'big')).toMatchObject({ steps: 5 });
  });

  it('reads the journal in pages, never before the principal check, and a repeated GET reads only the steps added since', async () => {
    const prefix = freshPrefix('pages');
    const tokens = { tokens: ['alice-token', 'bob-token', { token: 'prom-token', role: 'metrics' as const }] };
    const a = await replica(prefix, 'pages-a', tokens);
    const b = await replica(prefix, 'pages-b', tokens);
    const alice = await client(a, auth('alice-token'));
    alice.send({ type: 'start', session: 'paged', task: ASTROID.task });
    await alice.nextOf('started', 'paged');
    for (let seq = 0; seq < 60; seq++) alice.send(frame('paged', seq));
    await alice.sync();
    expect(alice.frames.filter((f) => f.type === 'score')).toHaveLength(60);

    // Another token on the other replica: unknown, and not one step was read for it.
    const before = await commands(b, 'session_frames');
    expect((await fetch(`${b.url}/v1/sessions/paged`, { headers: auth('bob-token') })).status).toBe(404);
    expect(await commands(b, 'session_frames')).toBe(before);

    // The owner's GET on the replica that does not hold it: the steps, read in several pages (16, 32, ...).
    const first = await fetch(`${b.url}/v1/sessions/paged`, { headers: auth('alice-token') });
    expect(((await first.json()) as { steps: number }).steps).toBe(60);
    const paged = (await commands(b, 'session_frames')) - before;
    expect(paged).toBeGreaterThan(1);
    // Again with no new step: nothing read; with 10 new steps: only those.
    await fetch(`${b.url}/v1/sessions/paged`, { headers: auth('alice-token') });
    expect(await commands(b, 'session_frames')).toBe(before + paged);
    for (let seq = 60; seq < 70; seq++) alice.send(frame('paged', seq));
    await alice.sync();
    const again = await fetch(`${b.url}/v1/sessions/paged`, { headers: auth('alice-token') });
    expect((await again.json()) as Record<string, unknown>).toMatchObject({ steps: 70, lastSeq: 69, state: 'open' });
    expect(await commands(b, 'session_frames')).toBe(before + paged + 1);

    // Resume on the other replica: rebuilt page by page, the same scores go on.
    alice.ws.terminate();
    const moved = await client(b, auth('alice-token'));
    moved.send({ type: 'resume', session: 'paged', after: 69 });
    expect(await moved.nextOf('resumed', 'paged')).toMatchObject({ last: 69 });
    moved.send(frame('paged', 70));
    expect(await moved.nextOf('score', 'paged')).toMatchObject({ seq: 70, t: 70 });
  });

  it('names Redis out of memory (noeviction) on start and in /readyz, and is ready again once it has room', async () => {
    const prefix = freshPrefix('oom');
    const a = await replica(prefix, 'oom-a');
    expect((await fetch(`${a.url}/readyz`)).status).toBe(200);
    // Redis full: its memory over maxmemory (1 MB: it holds more), and nothing it may evict.
    await fx.admin.config('SET', 'maxmemory-policy', 'noeviction');
    await fx.admin.config('SET', 'maxmemory', String(1024 * 1024));
    try {
      const c = await client(a);
      c.send({ type: 'start', session: 'full', task: ASTROID.task });
      const refused = await c.nextOf('error');
      expect(refused).toMatchObject({ code: 'unavailable', session: 'full', message: expect.stringMatching(/out of memory/) as unknown });
      expect(refused.message).not.toMatch(/unreachable/);
      const ready = await fetch(`${a.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not ready', error: { code: 'unavailable', message: expect.stringMatching(/out of memory/) as unknown } });
      const added = await postJson(`${a.url}/v1/tasks/oom-task/references`, { trajectory: steps });
      expect(added).toMatchObject({ status: 503, body: { error: { code: 'unavailable', message: expect.stringMatching(/out of memory/) as unknown } } });
    } finally {
      await fx.admin.config('SET', 'maxmemory', '0');
    }
    expect(
      await eventually(
        async () => (await fetch(`${a.url}/readyz`)).status,
        (s) => s === 200,
      ),
    ).toBe(200);
  });

  it('is not ready while Redis is paused (its TCP link stays up): PING has a deadline', async () => {
    const a = await replica(freshPrefix('paused'), 'paused-a');
    expect((await fetch(`${a.url}/readyz`)).status).toBe(200);
    process.kill(fx.redis.pid!, 'SIGSTOP');
    try {
      const began = Date.now();
      const ready = await fetch(`${a.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(Date.now() - began).toBeLessThan(5000);
      expect(await ready.json()).toMatchObject({ error: { code: 'unavailable', message: expect.stringMatching(/did not answer PING within 1000 ms/) as unknown } });
    } finally {
      process.kill(fx.redis.pid!, 'SIGCONT');
    }
    expect(
      await eventually(
        async () => (await fetch(`${a.url}/readyz`)).status,
        (s) => s === 200,
      ),
    ).toBe(200);
  });

  it('imports the seeds again when Redis comes back empty (no persistence), without a replica restart', async () => {
    const bare = await RedisServer.start('off');
    try {
      const a = await replica(freshPrefix('reseed'), 'reseed-a', {}, bare);
      const tasks = async (): Promise<string[]> => ((await getJson(`${a.url}/v1/tasks`)).body.tasks as Array<{ task: string }> | undefined)?.map((t) => t.task) ?? [];
      const seeded = await tasks();
      expect(seeded.length).toBeGreaterThan(0);
      const version = (await getJson(`${a.url}/v1/tasks`)).body.tasks as Array<{ task: string; version: number }>;
      await bare.stop('SIGKILL');
      await bare.launch();
      expect(await eventually(tasks, (t) => t.length === seeded.length, 15_000)).toEqual(seeded);
      // Grown from the seeded version again (the cached versions of before were dropped).
      const added = await postJson(`${a.url}/v1/tasks/${ASTROID.task}/references`, { trajectory: steps });
      expect(added.body.version).toBe(version.find((t) => t.task === ASTROID.task)!.version + 1);
    } finally {
      await bare.destroy();
    }
  });
});

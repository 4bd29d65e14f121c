/**
 * Does a replica reading a big PTA from Redis stall its other clients? Two replicas (server-process.ts) share one
 * real redis-server; replica A learns tasks whose PTA is ~10 MB of JSON (two references of 5,000 steps, 60 words a
 * step: a 10,000-node PTA, as docs/reliability.md T15 built it), then replica B reads each one cold
 * (`GET /v1/tasks/:task/pta`) while a client pings B every 5 ms from a process of its own. Reports, per read, its
 * time, the pings' round trips, B's own event-loop delay and GC pauses over the read, and what Redis spent
 * (`INFO commandstats` of the read: calls and CPU µs per command).
 *
 *   node dist/bench/redis-chain-read.js [--tasks 3] [--steps 5000] [--words 60] [--cpu-prof DIR] [--json FILE]
 *
 * `--cpu-prof DIR`: replica B runs with `--cpu-prof` and writes its profile to DIR when the bench ends.
 */
import type { Redis } from 'ioredis';
import { redisClient } from './redis-client.js';
import { benchArgs, numberFlag } from './args.js';
import { pingerProcess } from './drills/pinger-process.js';
import { RedisServer } from './redis-server.js';
import { machine, machineLine, writeResult } from './report.js';
import { startTarget } from './server-process.js';
import { commandLine, fmt, latencySummary, printTable } from './timing.js';

const { values: args } = benchArgs({
  options: {
    tasks: { type: 'string', default: '3' },
    steps: { type: 'string', default: '5000' },
    words: { type: 'string', default: '60' },
    'cpu-prof': { type: 'string' },
    json: { type: 'string' },
  },
});
const TASKS = numberFlag(args, 'tasks', 'positive integer');
const STEPS = numberFlag(args, 'steps', 'positive integer');
const WORDS = numberFlag(args, 'words', 'positive integer');
const PREFIX = 'chainbench:';

/** A steplens trajectory of `STEPS` distinct shell steps of `WORDS` words each (reference `ref` of task `task`). */
function trajectory(task: number, ref: number): unknown[] {
  return Array.from({ length: STEPS }, (_, t) => {
    const words = Array.from({ length: WORDS }, (_, w) => `w${task}r${ref}s${t}x${w}`).join(' ');
    return { t, tool: 'bash', action: { kind: 'shell', command: `echo ${words}` }, observation: `ok ${t}` };
  });
}

/** Redis' commandstats as command -> {calls, usec}. */
async function commandStats(redis: Redis): Promise<Map<string, { calls: number; usec: number }>> {
  const out = new Map<string, { calls: number; usec: number }>();
  for (const m of (await redis.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+),usec=(\d+)/gm)) out.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
  return out;
}

/** The element sizes (bytes) of a task's current chain. */
async function chainSizes(redis: Redis, task: string): Promise<number[]> {
  const start = await redis.hget(`${PREFIX}chains`, task);
  if (start === null) return [];
  const lua = "local out = {} for i, v in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do out[i] = #v end return out";
  return (await redis.eval(lua, 1, `${PREFIX}ptl:${start}:${task}`)) as number[];
}

const redisServer = await RedisServer.start('off');
const redis = redisClient(redisServer.url);
const store = { url: redisServer.url, prefix: PREFIX };
const a = await startTarget('steplens', [], {}, store);
const b = await startTarget('steplens', args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [], {}, store);
const figures: Record<string, number> = {};
const rows: string[][] = [];
try {
  const tasks = Array.from({ length: TASKS }, (_, i) => `chain-read-${i}`);
  for (const [i, task] of tasks.entries()) {
    for (const ref of [0, 1]) {
      const res = await fetch(`${a.http}/v1/tasks/${task}/references`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ trajectory: trajectory(i, ref) }) });
      if (res.status !== 201) throw new Error(`reference ${ref} of ${task}: HTTP ${res.status} ${await res.text()}`);
    }
    console.log(`${task}: chain elements (bytes) ${(await chainSizes(redis, task)).join(', ')}`);
  }
  // B warmed up on a small read (the bundled PTAs) so the first big read does not also pay for compiling the code.
  await (await fetch(`${b.http}/v1/tasks/pylint-dev__astroid-1196/pta`)).arrayBuffer();
  const ping = await pingerProcess(b.url);
  for (const task of tasks) {
    await new Promise((r) => setTimeout(r, 500));
    await ping.window();
    await b.loopDelay();
    const before = await commandStats(redis);
    const began = performance.now();
    const res = await fetch(`${b.http}/v1/tasks/${task}/pta`);
    const bytes = (await res.arrayBuffer()).byteLength;
    const ms = performance.now() - began;
    await new Promise((r) => setTimeout(r, 100));
    const p = latencySummary(await ping.window());
    const loop = await b.loopDelay();
    const after = await commandStats(redis);
    const spent = [...after].flatMap(([cmd, s]) => {
      const calls = s.calls - (before.get(cmd)?.calls ?? 0);
      return calls > 0 && cmd !== 'info' ? [`${cmd} ${calls}x ${fmt((s.usec - (before.get(cmd)?.usec ?? 0)) / 1000, 1)} ms`] : [];
    });
    rows.push([
      task,
      `HTTP ${res.status} ${fmt(bytes / 1e6, 1)} MB`,
      fmt(ms, 0),
      fmt(p.p99, 1),
      fmt(p.max, 1),
      String(p.n),
      fmt(loop.max, 1),
      `${loop.gc.major.n} / ${fmt(loop.gc.major.max, 0)}`,
      spent.join('; '),
    ]);
    figures[`${task}_ping_max_ms`] = p.max;
    figures[`${task}_loop_delay_max_ms`] = loop.max;
  }
  await ping.stop();
  console.log(`${commandLine(import.meta.url)}\n${machineLine()}`);
  printTable(['task', 'answer', 'request ms', 'ping p99 ms', 'ping max ms', 'pings', 'B loop delay max ms', 'major GC n / max ms', 'Redis: calls, CPU'], rows);
  writeResult(args.json, { bench: 'redis-chain-read', command: commandLine(import.meta.url), machine: machine(), figures, targets: [] });
} finally {
  await Promise.all([a.close(), b.close()]);
  redis.disconnect();
  await redisServer.destroy();
}

/**
 * What the replica benches (bench/replicas.ts, bench/scale-out.ts) share: their closed-loop flags, the Redis and
 * two replicas they start, the server's bench trajectory, and closed-loop drivers with the same connections split
 * evenly over the targets (the first ones take the remainder), then a short ramp so that every session is
 * streaming before a round's window opens.
 */
import { numberFlag } from './args.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Step } from '../src/core/types.js';
import { parseTrajectoryText } from '../src/formats/index.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { RedisServer, type RedisFsync } from './redis-server.js';
import { startTarget, type TargetProcess } from './server-process.js';
import { LoadDriver, sleep, type StepTemplates } from './ws-driver.js';

/** The closed-loop flags (parseArgs options) of the benches that open split drivers, with their defaults. */
export const CLOSED_LOOP_OPTIONS = {
  connections: { type: 'string', default: '16' },
  sessions: { type: 'string', default: '4' },
  depth: { type: 'string', default: '4' },
  'round-ms': { type: 'string', default: '3000' },
  'warmup-ms': { type: 'string', default: '1500' },
  pairs: { type: 'string', default: '2' },
} as const;

/** {@link CLOSED_LOOP_OPTIONS}' values as numbers, each checked (one line naming a bad one, exit 2), keyed by flag. */
export function closedLoopNumbers(args: { [K in keyof typeof CLOSED_LOOP_OPTIONS]?: string }) {
  return {
    connections: numberFlag(args, 'connections', 'positive integer'),
    sessions: numberFlag(args, 'sessions', 'positive integer'),
    depth: numberFlag(args, 'depth', 'positive integer'),
    'round-ms': numberFlag(args, 'round-ms', 'positive number'),
    'warmup-ms': numberFlag(args, 'warmup-ms', 'non-negative number'),
    pairs: numberFlag(args, 'pairs', 'positive integer'),
  };
}

/** How long the drivers stream before a round's window opens. */
const RAMP_MS = 500;

export interface SplitLoad {
  connections: number;
  sessionsPerConnection: number;
  /** Steps in flight per session. */
  depth: number;
  templates: StepTemplates;
  /** The next run number (session ids of successive drivers against one server differ by it). */
  nextRun: () => number;
}

/** One driver a target, `load.connections` split evenly over them; resolves after the ramp. */
export async function openSplitDrivers(urls: readonly string[], load: SplitLoad): Promise<LoadDriver[]> {
  const drivers = await Promise.all(
    urls.map((url, i) =>
      LoadDriver.open({
        url,
        connections: Math.floor(load.connections / urls.length) + (i < load.connections % urls.length ? 1 : 0),
        sessionsPerConnection: load.sessionsPerConnection,
        task: SERVER_BENCH_TASK,
        templates: load.templates,
        depth: load.depth,
        run: load.nextRun(),
      }),
    ),
  );
  await sleep(RAMP_MS);
  return drivers;
}

/** The steps of the servers' bench trajectory (SERVER_BENCH_FILE) in the corpus (`corpus`, else the one found). */
export async function serverBenchSteps(corpus?: string): Promise<Step[]> {
  const file = path.join(findCorpus(corpus), SERVER_BENCH_FILE);
  const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!parsed.ok) throw parsed.error;
  return parsed.value.steps;
}

/**
 * A redis-server (append-only file, `fsync`) and two steplens replicas sharing it under one key prefix.
 * `started` hears of the server as soon as it runs, so that a failure after it (a replica that does not start
 * included) can stop it: replica processes exit with their parent, the server does not.
 */
export async function startRedisReplicas(fsync: RedisFsync, started: (redis: RedisServer) => void): Promise<{ redis: RedisServer; replicas: [TargetProcess, TargetProcess] }> {
  const redis = await RedisServer.start(fsync);
  started(redis);
  const shared = { url: redis.url, prefix: `bench-${process.pid}:` };
  const a = await startTarget('steplens', [], {}, shared);
  const b = await startTarget('steplens', [], {}, shared);
  return { redis, replicas: [a, b] };
}

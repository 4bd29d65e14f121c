/** In-process replicas sharing one real Redis (each its own `buildApp`, connections and lease name), and HTTP helpers. */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { AppOptions } from '../../src/server/options.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { startApp, type Client, type Running } from '../server/helpers.js';
import type { RedisLink } from '../../src/store/redis/link.js';
import { redisClient, RedisServer } from './redis-server.js';

let prefixes = 0;

/** A test file's own redis-server, a client of it for reading keys, and what its tests start there. */
export interface RedisFixture {
  redis: RedisServer;
  admin: Redis;
  /** Replicas, clients and store links the tests push here are closed after all of them, before the server goes. */
  running: Running[];
  clients: Client[];
  links: RedisLink[];
}

/** Starts a redis-server for the file before its tests and tears it all down after them. */
export function useRedis(): RedisFixture {
  const fx = { running: [], clients: [], links: [] } as unknown as RedisFixture;
  beforeAll(async () => {
    fx.redis = await RedisServer.start();
    fx.admin = redisClient(fx.redis.url);
  });
  afterAll(async () => {
    for (const c of fx.clients) c.ws.terminate();
    for (const r of fx.running) await r.app.close();
    for (const l of fx.links) await l.close();
    fx.admin?.disconnect();
    await fx.redis?.destroy();
  });
  return fx;
}

/** A fresh key prefix: each test file (or test) gets its own data in the shared server. */
export function freshPrefix(name: string): string {
  return `${name}${++prefixes}-${process.pid}:`;
}

/** A replica over `redis` under `prefix`, seeded from the bundled example references. */
export async function startReplica(redis: RedisServer, prefix: string, replicaId: string, options: AppOptions = {}): Promise<Running> {
  return startApp({
    seedDirs: [bundledReferencesDir()],
    redis: { url: redis.url, prefix, replicaId, leaseMs: 2000, commandTimeoutMs: 1000 },
    ...options,
  });
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls `read` until `ok` holds (or the timeout passes) and returns the last value. */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

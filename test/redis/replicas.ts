/** In-process replicas sharing one real Redis (each its own `buildApp`, connections and lease name), and HTTP helpers. */
import type { AppOptions } from '../../src/server/options.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { startApp, type Running } from '../server/helpers.js';
import type { RedisServer } from './redis-server.js';

let prefixes = 0;

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

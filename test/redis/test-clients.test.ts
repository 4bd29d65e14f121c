/**
 * "[ioredis] Unhandled error event: Error: connect ECONNREFUSED" filled the suite's output, under test files that use
 * no Redis: `commandsDuring` (MONITOR) left open the client ioredis copies the monitor from, and once its file's
 * redis-server was gone that client tried it again and again with no 'error' listener, in a worker that went on to
 * other files. Every client the tests and benches make is now `redisClient` (with a listener); the product's own
 * (RedisLink) always had one, and prints nothing of ioredis' to a user when Redis is down.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { RedisLink } from '../../src/store/redis/link.js';
import { freePort } from './redis-server.js';
import { eventually, useRedis } from './replicas.js';
import { commandsDuring } from './store-replicas.js';

const fx = useRedis();
const ROOT = path.resolve(import.meta.dirname, '../..');

afterEach(() => vi.restoreAllMocks());

/** The connections Redis holds open now. */
async function connections(): Promise<number> {
  return String(await fx.admin.client('LIST'))
    .split('\n')
    .filter((l) => l.trim() !== '').length;
}

it('commandsDuring closes every connection it opened', async () => {
  await fx.admin.ping();
  const before = await connections();
  const seen = await commandsDuring(fx, () => fx.admin.ping('between'));
  expect(seen.some((c) => c.includes('between'))).toBe(true);
  expect(await eventually(connections, (n) => n === before, 3000)).toBe(before);
});

/** Files under `dir` (recursively) whose name ends in `.ts`. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

it('the tests and benches make their ioredis clients with an error listener (redisClient), nowhere else', () => {
  const makers = new Set([path.join(ROOT, 'bench/redis-client.ts'), path.join(ROOT, 'test/redis/test-clients.test.ts')]);
  const raw = [...tsFiles(path.join(ROOT, 'test')), ...tsFiles(path.join(ROOT, 'bench'))].filter((f) => !makers.has(f) && readFileSync(f, 'utf8').includes('new Redis('));
  expect(raw.map((f) => path.relative(ROOT, f))).toEqual([]);
});

it("the product's link to a Redis that is down prints nothing of ioredis' own", async () => {
  const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const warned: string[] = [];
  const link = new RedisLink({ url: `redis://127.0.0.1:${await freePort()}`, maxBackoffMs: 20, warn: (m) => warned.push(m) });
  link.subscriber();
  expect(await link.whenReady(300)).toBe(false);
  await link.close();
  expect(printed).not.toHaveBeenCalled();
  expect(warned[0]).toMatch(/ECONNREFUSED/);
});

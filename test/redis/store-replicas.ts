/**
 * A reference store on a fresh link (one replica's view of Redis, no server around it) and what Redis ran while an
 * operation ran (MONITOR), for the tests of what a replica reads (T82, T83).
 */
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { redisClient } from './redis-server.js';
import type { RedisFixture } from './replicas.js';

export async function storeReplica(fx: RedisFixture, prefix: string): Promise<RedisReferenceStore> {
  const link = new RedisLink({ url: fx.redis.url, prefix, maxBackoffMs: 100 });
  fx.links.push(link);
  await link.whenReady(5000);
  return RedisReferenceStore.open({ link });
}

/** The commands Redis ran while `op` ran, each as its words (MONITOR's lines, which quote every argument). */
export async function commandsDuring(fx: RedisFixture, op: () => Promise<unknown>): Promise<string[]> {
  // MONITOR runs on a copy ioredis makes of a client; this one (lazy) never connects, and is closed with it: left
  // open, it tried its server again and again once that was gone ("Unhandled error event" in later files' output).
  const base = redisClient(fx.redis.url, { lazyConnect: true });
  const monitor = await base.monitor();
  monitor.on('error', () => undefined);
  const seen: string[] = [];
  monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
  // MONITOR answers from its next command on: a marker before and after bounds what `op` sent.
  await fx.admin.ping('begin');
  await op();
  await fx.admin.ping('end');
  for (let i = 0; i < 100 && !seen.some((c) => c.includes('end')); i++) await new Promise((r) => setTimeout(r, 10));
  monitor.disconnect();
  base.disconnect();
  return seen.slice(
    seen.findIndex((c) => c.includes('begin')) + 1,
    seen.findIndex((c) => c.includes('end')),
  );
}

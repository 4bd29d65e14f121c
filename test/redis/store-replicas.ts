/**
 * A reference store on a fresh link (one replica's view of Redis, no server around it) and what Redis ran while an
 * operation ran (MONITOR), for the tests of what a replica reads (T82, T83).
 */
import { Redis } from 'ioredis';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import type { RedisFixture } from './replicas.js';

export async function storeReplica(fx: RedisFixture, prefix: string): Promise<RedisReferenceStore> {
  const link = new RedisLink({ url: fx.redis.url, prefix, maxBackoffMs: 100 });
  fx.links.push(link);
  await link.whenReady(5000);
  return RedisReferenceStore.open({ link });
}

/** The commands Redis ran while `op` ran, each as its words (MONITOR's lines, which quote every argument). */
export async function commandsDuring(fx: RedisFixture, op: () => Promise<unknown>): Promise<string[]> {
  const monitor = await new Redis(fx.redis.url).monitor();
  const seen: string[] = [];
  monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
  // MONITOR answers from its next command on: a marker before and after bounds what `op` sent.
  await fx.admin.ping('begin');
  await op();
  await fx.admin.ping('end');
  for (let i = 0; i < 100 && !seen.some((c) => c.includes('end')); i++) await new Promise((r) => setTimeout(r, 10));
  monitor.disconnect();
  return seen.slice(
    seen.findIndex((c) => c.includes('begin')) + 1,
    seen.findIndex((c) => c.includes('end')),
  );
}

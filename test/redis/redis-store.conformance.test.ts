/** The Redis reference store (a real redis-server) against the reference store conformance suite. */
import { afterAll, beforeAll } from 'vitest';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { describeReferenceStore } from '../store/conformance.js';
import { RedisServer } from './redis-server.js';

let redis: RedisServer;
const links: RedisLink[] = [];
let backings = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  for (const l of links) await l.close();
  await redis?.destroy();
});

describeReferenceStore('redis', () => ({
  async fresh() {
    // One key prefix per backing: the cases share the server, not their data.
    const prefix = `conformance${++backings}:`;
    return async (options = {}) => {
      const link = new RedisLink({ url: redis.url, prefix });
      links.push(link);
      await link.whenReady(5000);
      return RedisReferenceStore.open({ link, seedDirs: options.seedDirs ?? [], ...(options.limits ? { limits: options.limits } : {}) });
    };
  },
}));

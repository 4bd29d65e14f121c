/**
 * Drill (small): a client grows one task's PTA with long real references until its cap refuses one, while
 * another pings and a third starts sessions on the task. The server runs in its own process
 * (dist/src/server/server.js: needs `npm run build`). Timing is the bench's (`node dist/bench/drills.js
 * --only pta`); here: every addition up to the cap accepted, the one past it refused `too_large` naming the
 * cap, the PTA left at the cap, sessions started against it throughout, every ping answered; on the file store
 * and on Redis (growth by compare-and-set script, the growing replica serving the PTA it built).
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runPtaGrowth } from '../../bench/drills/pta-growth.js';
import { spawnServer, type SpawnedServer } from '../../bench/drills/spawn-server.js';
import { corpusTrajectories } from '../fixtures/corpus-runs.js';
import { RedisServer } from '../redis/redis-server.js';
import { removeDir, tempDir } from '../server/helpers.js';

let dir: string;
let redis: RedisServer;
const servers: SpawnedServer[] = [];
beforeAll(async () => {
  dir = await tempDir();
  redis = await RedisServer.start();
});
afterAll(async () => {
  for (const server of servers) {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
  await redis?.destroy();
  await removeDir(dir);
});

it.each(['file', 'redis'] as const)(
  'grows a PTA with 300-step real references up to its cap, then refuses one too_large; pings and session starts go on (%s)',
  async (backing) => {
    const server = await spawnServer(['--data', path.join(dir, backing), '--no-seed', '--limit', 'ptaReferences=6', ...(backing === 'redis' ? ['--redis', redis.url] : [])]);
    servers.push(server);
    const runs = corpusTrajectories()
      .slice(0, 6)
      .map((t) => t.steps);
    const r = await runPtaGrowth({ http: server.http, ws: server.ws, task: 'growth-task', runs, length: 300, references: 8, startEveryMs: 100 });
    expect(r.problems).toEqual([]);
    expect(r.added).toBe(6);
    expect(r.refused).toEqual({ status: 413, code: 'too_large', message: 'task growth-task: a reference of 300 steps is refused: its PTA already holds 6 references, the limit' });
    expect(r.pta).toMatchObject({ version: 6, references: 6 });
    expect(r.pta.nodes).toBeGreaterThan(300);
    expect(r.startMs.length).toBeGreaterThan(1);
    expect(r.startsAgainstPta).toBeGreaterThan(0);
    expect(r.pings.length).toBeGreaterThan(10);
  },
  120_000,
);

/**
 * A server without Redis does not load ioredis (~90 ms of every `serve` start): the Redis backend is imported
 * only when `redis` is set, and checking a `--redis` URL needs no connection module. Checked in a fresh Node
 * process on the built server (Node's CommonJS cache is per process, shared by the test files of a worker).
 * Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';

const dist = (rel: string): string => pathToFileURL(path.join(packageRoot(), 'dist/src', rel)).href;

/** How many ioredis modules a fresh process has loaded after running `body` (an async ES module snippet). */
function ioredisLoadedAfter(body: string): number {
  const script = `
    import { createRequire } from 'node:module';
    ${body}
    const cache = createRequire(import.meta.url).cache;
    console.log(Object.keys(cache).filter((k) => k.includes('/node_modules/ioredis/')).length);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: packageRoot() });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout.trim());
}

describe('ioredis is loaded only with Redis', () => {
  it('a server built and ready without Redis, and a --redis URL checked, load none of it', () => {
    const n = ioredisLoadedAfter(`
      import { mkdtempSync, rmSync } from 'node:fs';
      import os from 'node:os';
      import path from 'node:path';
      const { buildApp } = await import(${JSON.stringify(dist('server/app.js'))});
      const { serverConfig } = await import(${JSON.stringify(dist('server/config.js'))});
      await serverConfig(['--redis', 'redis://cache:6380/2'], {}, process.cwd());
      const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-lazy-'));
      const app = await buildApp({ dataDir: dir, logLevel: 'silent' });
      await app.ready();
      await app.close();
      rmSync(dir, { recursive: true, force: true });`);
    expect(n).toBe(0);
  });

  it('the probe sees ioredis once the Redis connection module is loaded', () => {
    expect(ioredisLoadedAfter(`await import(${JSON.stringify(dist('store/redis/link.js'))});`)).toBeGreaterThan(0);
  });
});

/**
 * What a server does not load at start (each ~90 ms of every `serve` start): ioredis without Redis (the Redis
 * backend is imported only when `redis` is set, and checking a `--redis` URL needs no connection module), and
 * fastify's schema compilers, ajv and fast-json-stringify's (no route takes a JSON schema: zod validates; fastify's
 * own error serializer still loads fast-json-stringify's small runtime part). Checked in
 * a fresh Node process on the built server (Node's CommonJS cache is per process, shared by the test files of a
 * worker). Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { removeDir, tempDir } from './helpers.js';

const dist = (rel: string): string => pathToFileURL(path.join(packageRoot(), 'dist/src', rel)).href;

/** How many modules of `pkg` a fresh process has loaded after running `body` (an async ES module snippet). */
function loadedAfter(body: string, pkg = 'ioredis'): number {
  const script = `
    import { createRequire } from 'node:module';
    ${body}
    const cache = createRequire(import.meta.url).cache;
    console.log(Object.keys(cache).filter((k) => k.includes('/node_modules/${pkg}/')).length);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: packageRoot() });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout.trim());
}

describe('ioredis is loaded only with Redis', () => {
  it('a server built and ready without Redis, and a --redis URL checked, load none of it', () => {
    const n = loadedAfter(`
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
    expect(loadedAfter(`await import(${JSON.stringify(dist('store/redis/link.js'))});`)).toBeGreaterThan(0);
  });
});

describe("fastify's schema compilers are not loaded", () => {
  const ready = `
    import { mkdtempSync } from 'node:fs';
    import os from 'node:os';
    import path from 'node:path';
    const { buildApp } = await import(${JSON.stringify(dist('server/app.js'))});
    const app = await buildApp({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'steplens-lazy-')), logLevel: 'silent' });
    await app.ready();
    await app.inject({ method: 'GET', url: '/' });
    await app.close();`;

  it('a server that is ready and has served its web view loads no ajv (the probe sees it once fastify compiles a schema)', () => {
    expect(loadedAfter(ready, 'ajv')).toBe(0);
    expect(
      loadedAfter(`const { default: Fastify } = await import('fastify'); const f = Fastify(); f.post('/x', { schema: { body: { type: 'object' } } }, () => 'ok'); await f.ready();`, 'ajv'),
    ).toBeGreaterThan(0);
  });

  it('a route given a schema fails when registered, naming why', async () => {
    const { buildApp } = await import('../../src/server/app.js');
    const dir = await tempDir();
    const app = await buildApp({ dataDir: dir, logLevel: 'silent' });
    try {
      app.post('/v1/with-schema', { schema: { body: { type: 'object' } } }, () => 'ok');
      await expect(app.ready()).rejects.toThrow('steplens routes take no JSON schemas: validate input with zod in src/protocol');
    } finally {
      await app.close().catch(() => undefined);
      await removeDir(dir);
    }
  });
});

// T123: ../red28/srv.mjs's server with a SIGTERM that closes the app (as src/server/run.ts does) and prints how long
// the close took; with REDIS_URL, the Redis store and journal. node srv-term.mjs DIST PORT; prints "listening PID", then "closed MS" on SIGTERM.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const [dist, port] = process.argv.slice(2);
const { buildApp } = await import(`${dist}/src/server/app.js`);
const tokens = [
  { token: 'alice', tenant: 'alice' },
  { token: 'bob', tenant: 'bob' },
];
const app = await buildApp({
  tokens,
  dataDir: mkdtempSync(path.join(os.tmpdir(), 'red30-term-')),
  logLevel: 'warn',
  limits: {},
  ...(process.env.REDIS_URL ? { redis: { url: process.env.REDIS_URL, prefix: 'red30:' } } : {}),
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
console.log(`listening ${process.pid}`);
process.on('SIGTERM', () => {
  const t = Date.now();
  void app.close().then(() => {
    console.log(`closed ${Date.now() - t}`);
    process.exit(0);
  });
});

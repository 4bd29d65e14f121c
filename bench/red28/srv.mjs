// The server for the round-28 probes (T117-): buildApp from a build's dist in its own process, tokens alice and bob
// (agents), an operator and a metrics token; shadow mode, the bundled forecaster learning in the `tenant` scope, the
// `tenant` reference scope (two tenants), a fresh data folder; with REDIS_URL set, the Redis store and journal.
// node srv.mjs DIST PORT [LIMIT=VALUE ...]; prints its pid once listening.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const [dist, port, ...limits] = process.argv.slice(2);
const { buildApp } = await import(`${dist}/src/server/app.js`);
const { readForecastFile } = await import(`${dist}/src/settings-files.js`);
const { bundledForecastFile } = await import(`${dist}/src/package-files.js`);
const tokens = [
  { token: 'alice', tenant: 'alice' },
  { token: 'bob', tenant: 'bob' },
  { token: 'ops', tenant: 'ops', role: 'operator' },
  { token: 'scrape', tenant: 'scrape', role: 'metrics' },
];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'red28-data-'));
const parsed = Object.fromEntries(limits.map((l) => l.split('=')).map(([k, v]) => [k, Number(v)]));
const app = await buildApp({
  tokens,
  dataDir,
  logLevel: 'warn',
  limits: parsed,
  shadow: true,
  forecast: await readForecastFile(bundledForecastFile()),
  forecastLearn: { intervalMs: Number(process.env.LEARN_MS ?? 600_000), minRuns: 4, minClass: 1, dir: path.join(dataDir, 'forecast') },
  ...(process.env.REDIS_URL ? { redis: { url: process.env.REDIS_URL, prefix: 'steplens:' } } : {}),
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
console.log(`listening ${process.pid} ${dataDir}`);

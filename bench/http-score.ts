/**
 * Load benchmark of `POST /v1/score` with autocannon: an in-process server
 * seeded from data/example, one real corpus trajectory per request. Prints
 * requests/s and latency percentiles. No assertions.
 *
 *   node dist/bench/http-score.js [SECONDS=10] [CONNECTIONS=8]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { buildApp } from '../src/server/app.js';
import { bundledSeedDir } from '../src/server/config.js';

/** The part of autocannon's API used here (the package ships no types). */
interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = here.includes(`${path.sep}dist${path.sep}`) ? path.resolve(here, '../..') : path.resolve(here, '..');
const FILE = path.resolve(repo, '../shared/corpus/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');

async function main(): Promise<void> {
  const duration = Number(process.argv[2] ?? 10);
  const connections = Number(process.argv[3] ?? 8);
  const body = JSON.stringify({ task: 'pylint-dev__astroid-1196', trajectory: JSON.parse(await readFile(FILE, 'utf8')) as unknown });
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const seed = bundledSeedDir();
  const app = await buildApp({ dataDir: data, seedDirs: seed ? [seed] : [], logLevel: 'silent' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const result = await autocannon({
    url: `${url}/v1/score`, method: 'POST', headers: { 'content-type': 'application/json' }, body, duration, connections,
  });
  await app.close();
  await rm(data, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({
    duration, connections, bodyBytes: body.length, requests: result.requests.total, non2xx: result.non2xx,
    requestsPerSecond: result.requests.average, latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`http-score: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});

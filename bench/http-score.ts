/**
 * Load benchmark of `POST /v1/score` with autocannon (in-process server seeded
 * from data/example, one real corpus trajectory per request), against two
 * in-process baselines measured in the same run on the same trajectory and
 * reference: `scoreSteps` alone (steps already parsed), and the whole request
 * body path without HTTP (`JSON.parse` + format parse + `scoreSteps`),
 * measured interleaved before and after the HTTP load.
 * autocannon runs in the server's process, so the HTTP figure includes the
 * load generator's CPU. No assertions.
 *
 *   node dist/bench/http-score.js [SECONDS=10] [CONNECTIONS=8]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { scoreSteps } from '../src/core/scorer.js';
import { parseDocument } from '../src/formats/index.js';
import { buildApp } from '../src/server/app.js';
import { bundledSeedDir } from '../src/server/config.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { commandLine, fmt, interleavedThroughput, printTable, ratio, summarize } from './timing.js';

/** The part of autocannon's API used here (the package ships no types). */
interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

function stepsOf(doc: unknown) {
  const parsed = parseDocument(doc, 'auto');
  if (!parsed.ok) throw parsed.error;
  return parsed.value.steps;
}

async function main(): Promise<void> {
  const duration = Number(process.argv[2] ?? 10);
  const connections = Number(process.argv[3] ?? 8);
  const trajectory = JSON.parse(await readFile(path.join(findCorpus(), SERVER_BENCH_FILE), 'utf8')) as unknown;
  const body = JSON.stringify({ task: SERVER_BENCH_TASK, trajectory });
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const seed = bundledSeedDir();
  const seedDirs = seed ? [seed] : [];

  const store = await ReferenceStore.open({ dataDir: data, seedDirs });
  const reference = await store.reference(SERVER_BENCH_TASK);
  const analyzers = defaultAnalyzers();
  const steps = stepsOf(trajectory);
  const ops = [
    () => scoreSteps(steps, { reference, analyzers }),
    () => {
      const b = JSON.parse(body) as { trajectory: unknown };
      scoreSteps(stepsOf(b.trajectory), { reference, analyzers });
    },
  ];
  const baseline = (): number[] => interleavedThroughput(ops, 500, Math.max(2, Math.round(duration / 2))).map((r) => summarize(r).median);
  const before = baseline();

  const app = await buildApp({ dataDir: data, seedDirs, logLevel: 'silent' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const result = await autocannon({
    url: `${url}/v1/score`, method: 'POST', headers: { 'content-type': 'application/json' }, body, duration, connections,
  });
  await app.close();
  const after = baseline();
  const [scoreOnly, wholeBody] = [0, 1].map((i) => ((before[i] ?? Number.NaN) + (after[i] ?? Number.NaN)) / 2) as [number, number];
  await rm(data, { recursive: true, force: true });

  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(`trajectory: ${SERVER_BENCH_FILE} (${steps.length} steps, body ${fmt(body.length / 1024, 0)} KiB), reference: ${reference.kind}`);
  console.log(`HTTP: ${duration} s, ${connections} connections, ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors; latency ms p50 ${result.latency.p50} p99 ${result.latency.p99} max ${result.latency.max}`);
  console.log(`in-process baselines: median of 500 ms rounds, mean of the runs before (${before.map((x) => fmt(x, 1)).join(', ')}/s) and after (${after.map((x) => fmt(x, 1)).join(', ')}/s) the HTTP load`);
  printTable(['trajectories scored per second', 'per s', 'ms each', 'vs scoreSteps'], [
    ['in-process scoreSteps (parsed steps)', fmt(scoreOnly, 1), fmt(1000 / scoreOnly, 2), '×1.00'],
    ['in-process JSON.parse + format parse + scoreSteps', fmt(wholeBody, 1), fmt(1000 / wholeBody, 2), ratio(wholeBody, scoreOnly)],
    ['POST /v1/score (autocannon, same process)', fmt(result.requests.average, 1), fmt(1000 / result.requests.average, 2), ratio(result.requests.average, scoreOnly)],
  ]);
}

main().catch((error: unknown) => {
  process.stderr.write(`http-score: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});

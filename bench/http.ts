/**
 * HTTP load benchmark with autocannon against a steplens server in its own
 * process (seeded from data/example): `POST /v1/score` with one real corpus
 * trajectory per request, and the live-score route `GET /v1/sessions/:id` of
 * an open session that was streamed that trajectory's steps. Baselines in
 * this process, interleaved before and after the HTTP load, on the same
 * trajectory and reference: `scoreSteps` alone (steps already parsed), and
 * the request body's work without HTTP (`JSON.parse` + format parse + `scoreSteps`).
 *
 *   node dist/bench/http.js [--seconds 5] [--connections 8] [--json FILE]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import WebSocket from 'ws';
import { dataText } from '../src/client/frames.js';
import { scoreSteps } from '../src/core/scorer.js';
import type { Step } from '../src/core/types.js';
import { parseDocument } from '../src/formats/index.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { machine, machineLine, writeResult } from './report.js';
import { startTarget } from './server-process.js';
import { commandLine, fmt, interleavedThroughput, printTable, ratio, summarize } from './timing.js';

/** The part of autocannon's API used here (the package ships no types). */
interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  /** Responses by HTTP status (autocannon's `statusCodeStats`). */
  statusCodeStats?: Record<string, { count: number }>;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

const { values: args } = benchArgs({
  options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '8' }, json: { type: 'string' }, corpus: { type: 'string' } },
});
const duration = numberFlag(args, 'seconds', 'positive number');
const connections = numberFlag(args, 'connections', 'positive integer');

function stepsOf(doc: unknown): Step[] {
  const parsed = parseDocument(doc, 'auto');
  if (!parsed.ok) throw parsed.error;
  return parsed.value.steps;
}

/** Opens a session on `url` and streams `steps` into it; resolves with the open socket once every step is scored. */
async function liveSession(url: string, id: string, steps: readonly Step[]): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await new Promise<void>((resolve, reject) => {
    let scored = 0;
    ws.on('message', (raw) => {
      const f = JSON.parse(dataText(raw)) as { type: string };
      if (f.type === 'error') reject(new Error(`server error frame: ${dataText(raw)}`));
      else if (f.type === 'started') steps.forEach((step, seq) => ws.send(JSON.stringify({ type: 'step', session: id, seq, step })));
      else if (f.type === 'score' && ++scored === steps.length) resolve();
    });
    ws.send(JSON.stringify({ type: 'start', session: id, task: SERVER_BENCH_TASK }));
  });
  return ws;
}

async function main(): Promise<void> {
  const trajectory = JSON.parse(await readFile(path.join(findCorpus(args.corpus), SERVER_BENCH_FILE), 'utf8')) as unknown;
  const body = JSON.stringify({ task: SERVER_BENCH_TASK, trajectory });
  const seed = bundledReferencesDir();
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const store = await ReferenceStore.open({ dataDir: data, seedDirs: [seed] });
  const reference = await store.reference(SERVER_BENCH_TASK);
  const analyzers = defaultAnalyzers();
  const steps = stepsOf(trajectory);
  const ops = [() => scoreSteps(steps, { reference, analyzers }), () => scoreSteps(stepsOf((JSON.parse(body) as { trajectory: unknown }).trajectory), { reference, analyzers })];
  const baseline = (): number[] => interleavedThroughput(ops, 500, Math.max(2, Math.round(duration / 2))).map((r) => summarize(r).median);
  const before = baseline();

  const server = await startTarget('steplens');
  const live = await liveSession(server.url, 'http-bench-live', steps);
  const post = await autocannon({ url: `${server.http}/v1/score`, method: 'POST', headers: { 'content-type': 'application/json' }, body, duration, connections });
  const get = await autocannon({ url: `${server.http}/v1/sessions/http-bench-live`, duration, connections });
  live.close();
  await server.close();
  const after = baseline();
  await rm(data, { recursive: true, force: true });
  const [scoreOnly, wholeBody] = [0, 1].map((i) => ((before[i] ?? Number.NaN) + (after[i] ?? Number.NaN)) / 2) as [number, number];

  const m = machine();
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(
    `trajectory: ${SERVER_BENCH_FILE} (${steps.length} steps, body ${fmt(body.length / 1024, 0)} KiB), reference: ${reference.kind}; server in its own process, autocannon ${duration} s x ${connections} connections per route`,
  );
  console.log(
    `in-process baselines: median of 500 ms rounds, mean of the runs before (${before.map((x) => fmt(x, 1)).join(', ')}/s) and after (${after.map((x) => fmt(x, 1)).join(', ')}/s) the HTTP load`,
  );
  printTable(
    ['route / baseline', 'per s', 'ms each', 'vs scoreSteps', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors'],
    [
      ['in-process scoreSteps (parsed steps)', fmt(scoreOnly, 1), fmt(1000 / scoreOnly, 2), '×1.00'],
      ['in-process JSON.parse + format parse + scoreSteps', fmt(wholeBody, 1), fmt(1000 / wholeBody, 2), ratio(wholeBody, scoreOnly)],
      [
        'POST /v1/score',
        fmt(post.requests.average, 1),
        fmt(1000 / post.requests.average, 2),
        ratio(post.requests.average, scoreOnly),
        String(post.latency.p50),
        String(post.latency.p99),
        String(post.latency.max),
        String(post.non2xx),
        String(post.errors),
      ],
      [
        `GET /v1/sessions/:id (${steps.length}-step session)`,
        fmt(get.requests.average, 0),
        fmt(1000 / get.requests.average, 3),
        '',
        String(get.latency.p50),
        String(get.latency.p99),
        String(get.latency.max),
        String(get.non2xx),
        String(get.errors),
      ],
    ],
  );
  // A refusal names its status, so a failed run says what the server answered (a 503 under load is not a 500).
  for (const [route, r] of [
    ['POST /v1/score', post],
    ['GET /v1/sessions/:id', get],
  ] as const) {
    const codes = Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => `${code} × ${s.count}`);
    if (r.non2xx + r.errors > 0) console.log(`${route}: responses by status ${codes.join(', ') || '(none)'}; ${r.errors} errors`);
  }
  if (post.non2xx + post.errors + get.non2xx + get.errors > 0) process.exitCode = 1;
  writeResult(args.json, {
    bench: 'http',
    command: commandLine(import.meta.url),
    machine: m,
    targets: [],
    figures: {
      score_inprocess_per_s: scoreOnly,
      body_inprocess_per_s: wholeBody,
      post_score_per_s: post.requests.average,
      post_score_p99_ms: post.latency.p99,
      get_session_per_s: get.requests.average,
      get_session_p99_ms: get.latency.p99,
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`http: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

/**
 * Load benchmark of the WebSocket stream, three phases in one run, everything
 * in-process on 127.0.0.1:0:
 * (phases 1 and 2 alternate over 3 rounds; the median round is shown):
 *  1. baseline: a bare `ws` echo server, C connections each sending the same
 *     `step` frames S sessions would send; echoed messages/s and round trip;
 *  2. steplens (buildApp, references seeded from data/example): C connections
 *     each streaming S sessions of a real corpus trajectory at once; scored
 *     steps/s and round trip (send → score; everything is sent at once, so it
 *     includes queueing);
 *  3. memory: M idle open sessions that received K steps each; heapUsed delta
 *     (after full GCs) per session.
 * Prints numbers and ratios; no assertions.
 *
 *   node dist/bench/ws-load.js [CONNECTIONS=8] [SESSIONS_PER_CONNECTION=8] [IDLE_SESSIONS=1000] [STEPS_EACH=20]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import type { Step } from '../src/core/types.js';
import { parseTrajectoryText } from '../src/formats/index.js';
import { buildApp } from '../src/server/app.js';
import type { ServerLimits } from '../src/server/options.js';
import { bundledSeedDir } from '../src/server/config.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { collectGarbage, commandLine, fmt, printTable, ratio, summarize } from './timing.js';

interface Frame { type: string; session: string; seq: number; message?: string }
interface LoadResult { messages: number; seconds: number; latenciesMs: number[] }

/** Alternating echo / steplens rounds; the median round of each is reported. */
const ROUNDS = 3;

const stepFrame = (session: string, seq: number, step: Step): string => JSON.stringify({ type: 'step', session, seq, step });

async function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return ws;
}

/** Streams `steps` in `perConnection` sessions on each of `connections` sockets; resolves once every session got its last `wanted` frame. */
async function drive(url: string, connections: number, perConnection: number, steps: readonly Step[], protocol: 'steplens' | 'echo'): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  const sockets = await Promise.all(Array.from({ length: connections }, () => open(url)));
  const began = performance.now();
  await Promise.all(sockets.map((ws, ci) => new Promise<void>((resolve, reject) => {
    const sent = new Map<string, number>();
    let done = 0;
    const send = (session: string): void => {
      steps.forEach((step, seq) => {
        sent.set(`${session}/${seq}`, performance.now());
        ws.send(stepFrame(session, seq, step));
      });
      if (protocol === 'steplens') ws.send(JSON.stringify({ type: 'end', session }));
    };
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw)) as Frame;
      if (f.type === 'error') reject(new Error(`server error frame: ${String(raw)}`));
      else if (f.type === 'started') send(f.session);
      else if (f.type === 'score' || (protocol === 'echo' && f.type === 'step')) {
        latenciesMs.push(performance.now() - (sent.get(`${f.session}/${f.seq}`) ?? Number.NaN));
        if (protocol === 'echo' && f.seq === steps.length - 1 && ++done === perConnection) resolve();
      } else if (f.type === 'final' && ++done === perConnection) resolve();
    });
    for (let s = 0; s < perConnection; s++) {
      const session = `c${ci}-s${s}`;
      if (protocol === 'steplens') ws.send(JSON.stringify({ type: 'start', session, task: SERVER_BENCH_TASK }));
      else send(session);
    }
  })));
  const seconds = (performance.now() - began) / 1000;
  for (const ws of sockets) ws.close();
  return { messages: latenciesMs.length, seconds, latenciesMs };
}

async function echoServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      for (const c of wss.clients) c.terminate();
      wss.close(() => resolve());
    }),
  };
}

async function steplensServer(limits: Partial<ServerLimits>): Promise<{ url: string; close: () => Promise<void> }> {
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const seed = bundledSeedDir();
  const app = await buildApp({ dataDir: data, seedDirs: seed ? [seed] : [], logLevel: 'silent', limits });
  const url = `${(await app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws')}/v1/stream`;
  return { url, close: async () => {
    await app.close();
    await rm(data, { recursive: true, force: true });
  } };
}

/** Opens `sessions` sessions over `connections` sockets, streams `steps` into each without ending them; heapUsed delta per session. */
async function idleSessionBytes(sessions: number, connections: number, steps: readonly Step[]): Promise<{ perSession: number; externalPerSession: number; scoreBytesPerSession: number }> {
  const perConnection = Math.ceil(sessions / connections);
  const server = await steplensServer({ sessionsPerConnection: perConnection, totalSessions: sessions + 1, outgoingQueueBytes: 256 * 1024 * 1024 });
  const sockets = await Promise.all(Array.from({ length: connections }, () => open(server.url)));
  let scoreBytes = 0;
  collectGarbage();
  const before = process.memoryUsage();
  await Promise.all(sockets.map((ws, ci) => new Promise<void>((resolve, reject) => {
    const count = Math.min(perConnection, sessions - ci * perConnection);
    let scores = 0;
    ws.on('message', (raw) => {
      const text = String(raw);
      const f = JSON.parse(text) as Frame;
      if (f.type === 'score') scoreBytes += text.length;
      if (f.type === 'error') reject(new Error(`server error frame: ${String(raw)}`));
      else if (f.type === 'started') steps.forEach((step, seq) => ws.send(stepFrame(f.session, seq, step)));
      else if (f.type === 'score' && ++scores === count * steps.length) resolve();
    });
    if (count <= 0) resolve();
    for (let s = 0; s < count; s++) ws.send(JSON.stringify({ type: 'start', session: `m${ci}-${s}`, task: SERVER_BENCH_TASK }));
  })));
  collectGarbage();
  const after = process.memoryUsage();
  for (const ws of sockets) ws.close();
  await server.close();
  return { perSession: (after.heapUsed - before.heapUsed) / sessions, externalPerSession: (after.external - before.external) / sessions, scoreBytesPerSession: scoreBytes / sessions };
}

async function main(): Promise<void> {
  const [connections, perConnection, idle, stepsEach] = [8, 8, 1000, 20].map((d, i) => Number(process.argv[2 + i] ?? d)) as [number, number, number, number];
  const file = path.join(findCorpus(), SERVER_BENCH_FILE);
  const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!parsed.ok) throw parsed.error;
  const steps = parsed.value.steps;

  const bases: LoadResult[] = [];
  const loads: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const echo = await echoServer();
    bases.push(await drive(echo.url, connections, perConnection, steps, 'echo'));
    await echo.close();
    const server = await steplensServer({ sessionsPerConnection: perConnection });
    loads.push(await drive(server.url, connections, perConnection, steps, 'steplens'));
    await server.close();
  }
  const median = (rs: LoadResult[]): LoadResult => [...rs].sort((a, b) => a.seconds - b.seconds)[Math.floor(rs.length / 2)] as LoadResult;
  const [base, load] = [median(bases), median(loads)];
  const mem = await idleSessionBytes(idle, 10, steps.slice(0, stepsEach));

  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(`trajectory: ${SERVER_BENCH_FILE} (${steps.length} steps); ${connections} connections x ${perConnection} sessions, all steps sent at once; median of ${ROUNDS} alternating rounds (steplens msg/s per round: ${loads.map((r) => fmt(r.messages / r.seconds, 0)).join(', ')}; echo: ${bases.map((r) => fmt(r.messages / r.seconds, 0)).join(', ')})`);
  const row = (label: string, r: LoadResult, vs: LoadResult): string[] => {
    const lat = summarize(r.latenciesMs);
    return [label, String(r.messages), fmt(r.seconds, 2), fmt(r.messages / r.seconds, 0), ratio(r.messages / r.seconds, vs.messages / vs.seconds), fmt(lat.median, 1), fmt(lat.p99, 1)];
  };
  printTable(['phase', 'messages', 's', 'msg/s', 'vs echo', 'rtt p50 ms', 'rtt p99 ms'], [
    row('bare ws echo (baseline)', base, base),
    row('steplens step -> score', load, base),
  ]);
  console.log(`memory: ${idle} idle open sessions x ${stepsEach} steps: ${fmt(mem.perSession / 1024, 1)} KiB heapUsed per session (+${fmt(mem.externalPerSession / 1024, 2)} KiB external); the score frames it was sent total ${fmt(mem.scoreBytesPerSession / 1024, 1)} KiB per session`);
}

main().catch((error: unknown) => {
  process.stderr.write(`ws-load: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});

/**
 * Memory benchmark, heapUsed deltas after forced full GCs (run with
 * `node --expose-gc`; timing.ts exposes gc itself otherwise):
 *  1. bytes per active session: N sessions opened and fed 100 real steps each
 *     through the server's own message path (`handleFrame` → SessionRegistry →
 *     Session → scorer, against the task's PTA from data/example), minus the
 *     WebSocket transport: the connection's socket is a stand-in that drops
 *     the frames. A first round of N sessions, then freed, warms the JIT, the
 *     PTA cache and the analyzers' parse caches; the second round is measured.
 *     Sessions overlap: session i takes its 100 steps from offset 37·i of the ~2,000 corpus steps, so
 *     each step is in ~15 of 300 sessions, and long texts that sessions share are kept once (packed-text.ts).
 *     Also: the scorer alone (createScorer + push of fresh copies of the same
 *     steps, as parsed from the wire) per session, for the split.
 *  2. bytes per PTA node: `--ptas` PTAs parsed with `ptaFromJson` from the
 *     data/example files (built from corpus runs) in turn; bytes per node, per
 *     PTA of mean example size, and the projection for 10,000 such PTAs.
 * Targets: <= 20 KB (20,000 B) per active 100-step session; 10,000 PTAs in <= 1 GB (1e9 B).
 *
 *   node --expose-gc dist/bench/memory.js [--sessions 1000] [--steps 100] [--ptas 1000] [--compress] [--json FILE]
 * `--compress`: with compression of cold long texts on (`serve --compress-texts`).
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { WebSocket } from 'ws';
import { ptaFromJson } from '../src/core/pta/index.js';
import { createScorer } from '../src/core/scorer.js';
import { setTextCompression } from '../src/core/memory/packed-text.js';
import type { Pta, Scorer } from '../src/core/scorer-api.js';
import type { Step } from '../src/core/types.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { Connection } from '../src/server/connection.js';
import { createMetrics } from '../src/server/metrics.js';
import { resolveOptions } from '../src/server/options.js';
import { SessionRegistry } from '../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../src/server/stream-handler.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { SERVER_BENCH_TASK, findCorpus, loadCorpus, repoRoot, type CorpusTrajectory } from './corpus.js';
import { realSteps } from './long-trajectory.js';
import { machine, machineLine, target, writeResult } from './report.js';
import { collectGarbage, commandLine, fmt, printTable } from './timing.js';

const { values: args } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    steps: { type: 'string', default: '100' },
    ptas: { type: 'string', default: '1000' },
    json: { type: 'string' },
    corpus: { type: 'string' },
    compress: { type: 'boolean' },
  },
});
if (args.compress) setTextCompression(true);
const sessions = Number(args.sessions);
const stepsEach = Number(args.steps);
const ptaCount = Number(args.ptas);

function heap(): { heap: number; external: number } {
  collectGarbage();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external };
}

/** A socket stand-in: open, never backed up, drops what it is sent. */
const nullSocket = {
  readyState: 1,
  OPEN: 1,
  bufferedAmount: 0,
  send: () => undefined,
  close: () => undefined,
  terminate: () => undefined,
  once: () => undefined,
  on: () => undefined,
} as unknown as WebSocket;

/** Opens `n` sessions on one connection and feeds each `stepsEach` real steps as `step` frames. */
async function openSessions(deps: HandlerDeps, trajectories: readonly CorpusTrajectory[], n: number, prefix: string): Promise<Connection> {
  const conn = new Connection(1, nullSocket, 1 << 30);
  const frame = (x: unknown): Buffer => Buffer.from(JSON.stringify(x));
  for (let i = 0; i < n; i++) {
    const session = `${prefix}-${i}`;
    await handleFrame(deps, conn, frame({ type: 'start', session, task: SERVER_BENCH_TASK }), false);
    const steps = realSteps(trajectories, i * 37, stepsEach);
    for (let seq = 0; seq < steps.length; seq++) await handleFrame(deps, conn, frame({ type: 'step', session, seq, step: steps[seq] }), false);
  }
  return conn;
}

async function sessionBytes(trajectories: readonly CorpusTrajectory[]): Promise<{ session: number; external: number; scorer: number }> {
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const seed = bundledReferencesDir();
  const store = await ReferenceStore.open({ dataDir: data, seedDirs: [seed] });
  const analyzers = defaultAnalyzers();
  const connections = new Map<number, Connection>();
  const log = pino({ level: 'silent' });
  const options = resolveOptions({ limits: { sessionsPerConnection: sessions + 1, totalSessions: sessions + 1 } });
  const metrics = createMetrics(store);
  // A fresh registry per round (it counts its open sessions itself): each round's sessions go with their registry.
  const round = async (prefix: string): Promise<{ before: ReturnType<typeof heap>; after: ReturnType<typeof heap> }> => {
    const deps: HandlerDeps = { registry: new SessionRegistry({ store, analyzers, metrics, log, options, connections }), metrics, log, options };
    const before = heap();
    const conn = await openSessions(deps, trajectories, sessions, prefix);
    connections.set(1, conn);
    const after = heap();
    const { registry } = deps;
    if (registry.sessions.size !== sessions || [...registry.sessions.values()].some((s) => s.length !== stepsEach)) {
      throw new Error(`expected ${sessions} sessions of ${stepsEach} steps, got ${registry.sessions.size}`);
    }
    connections.clear();
    return { before, after };
  };
  await round('warm');
  const { before, after } = await round('m');

  const reference = await store.reference(SERVER_BENCH_TASK);
  const base = heap();
  const scorers: Scorer[] = [];
  for (let i = 0; i < sessions; i++) {
    const s = createScorer({ reference, analyzers });
    for (const step of realSteps(trajectories, i * 37, stepsEach)) s.push(JSON.parse(JSON.stringify(step)) as Step);
    scorers.push(s);
  }
  const withScorers = heap();
  if (scorers.length !== sessions) throw new Error('unreachable');
  await rm(data, { recursive: true, force: true });
  return { session: (after.heap - before.heap) / sessions, external: (after.external - before.external) / sessions, scorer: (withScorers.heap - base.heap) / sessions };
}

async function ptaBytes(): Promise<{ perNode: number; perPta: number; meanNodes: number; files: number }> {
  const dir = path.join(repoRoot(), 'data/example');
  const texts = await Promise.all((await readdir(dir)).filter((f) => f.endsWith('.json')).map((f) => readFile(path.join(dir, f), 'utf8')));
  const parse = (text: string): Pta => {
    const p = ptaFromJson(text);
    if (!p.ok) throw new Error(`data/example PTA: ${p.error}`);
    return p.value;
  };
  texts.forEach(parse);
  const before = heap();
  const kept: Pta[] = [];
  for (let i = 0; i < ptaCount; i++) kept.push(parse(texts[i % texts.length]!));
  const after = heap();
  const nodes = kept.reduce((n, p) => n + p.nodes.length, 0);
  const meanNodes = texts.map(parse).reduce((n, p) => n + p.nodes.length, 0) / texts.length;
  const perNode = (after.heap - before.heap) / nodes;
  return { perNode, perPta: perNode * meanNodes, meanNodes, files: texts.length };
}

async function main(): Promise<void> {
  const { trajectories } = loadCorpus(findCorpus(args.corpus));
  const m = machine();
  const s = await sessionBytes(trajectories);
  const p = await ptaBytes();
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(
    `sessions: ${sessions} open sessions x ${stepsEach} real steps (corpus steps from offset 37·i), task ${SERVER_BENCH_TASK} (PTA); PTAs: ${ptaCount} parsed from the ${p.files} data/example files in turn`,
  );
  printTable(
    ['heapUsed after full GC', 'bytes', 'KB'],
    [
      ['per active session (server message path)', fmt(s.session, 0), fmt(s.session / 1000, 1)],
      ['  external (Buffers) per session', fmt(s.external, 0), fmt(s.external / 1000, 2)],
      ['  of which the scorer alone (createScorer + push)', fmt(s.scorer, 0), fmt(s.scorer / 1000, 1)],
      ['per PTA node', fmt(p.perNode, 0), fmt(p.perNode / 1000, 2)],
      [`per PTA of mean example size (${fmt(p.meanNodes, 0)} nodes)`, fmt(p.perPta, 0), fmt(p.perPta / 1000, 1)],
      ['10,000 such PTAs (projection)', fmt(p.perPta * 10_000, 0), fmt(p.perPta * 10, 0)],
    ],
  );
  const targets = [target(`memory per active ${stepsEach}-step session`, s.session / 1000, '<=', 20, 'KB'), target('memory of 10,000 corpus-size PTAs', (p.perPta * 10_000) / 1e9, '<=', 1, 'GB')];
  writeResult(args.json, {
    bench: 'memory',
    command: commandLine(import.meta.url),
    machine: m,
    targets,
    figures: { session_bytes: s.session, session_external_bytes: s.external, scorer_bytes: s.scorer, pta_node_bytes: p.perNode, pta_bytes: p.perPta, pta_mean_nodes: p.meanNodes },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`memory: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

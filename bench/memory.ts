/**
 * Memory benchmark, heapUsed deltas after forced full GCs (run with
 * `node --expose-gc`; timing.ts exposes gc itself otherwise):
 *  1. bytes per active session: N sessions opened and fed 100 real steps each
 *     through the server's own message path (`handleFrame` → SessionRegistry →
 *     Session → scorer, against the task's PTA from data/example), minus the
 *     WebSocket transport: the connection's socket is a stand-in that drops
 *     the frames. A first round of N sessions, then freed, warms the JIT, the
 *     PTA cache and the analyzers' parse caches; the second round is measured.
 *     Two layouts, each warmed by a round of its own: overlapping, session i takes its 100 steps from
 *     offset 37·i of the ~2,000 corpus steps, so each step is in ~15 of 300 sessions and long texts that
 *     sessions share are kept once (packed-text.ts); disjoint, session i from offset 100·i (~20 sessions,
 *     no step shared: unrelated runs). Each figure two ways: retained (heap with the sessions minus heap
 *     once they are dropped: what they keep alive) and growth (heap after minus before the round: adds
 *     what process-wide caches and pools fill or turn over meanwhile).
 *     Also: the scorer alone (createScorer + push of fresh copies of the same
 *     steps, as parsed from the wire) per session, for the split; and per ended session (the same
 *     sessions, then `end`: what the server keeps for the resume window) beside the bytes the
 *     ended-session bound counts for it (`Session.keptBytes`, the `steplens_ended_session_bytes` gauge).
 *  2. bytes per PTA node: `--ptas` PTAs parsed with `ptaFromJson` from the
 *     data/example files (built from corpus runs) in turn; bytes per node, per
 *     PTA of mean example size, and the projection for 10,000 such PTAs.
 * Also each layout once the server's sweep has found its sessions idle (`COMPACT_IDLE_MS` without a step: their long
 *  texts deflated, `Session.compact`).
 * Targets: <= 40 KB (40,000 B) per active 100-step session (issue 24), in both layouts; 10,000 PTAs in <= 1 GB (1e9 B).
 *
 *   node --expose-gc dist/bench/memory.js [--sessions 1000] [--steps 100] [--ptas 1000] [--compress] [--json FILE] [--snapshot PREFIX]
 * `--compress`: with compression of cold long texts on (`serve --compress-texts`). `--snapshot`: a heap snapshot of each
 * layout's measured sessions, PREFIX-overlapping.heapsnapshot and PREFIX-disjoint.heapsnapshot (taken after the
 * `after` reading; read them with `heap-owners`, which says who holds the bytes), and of them idle (PREFIX-LAYOUT-idle).
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import v8 from 'node:v8';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { ptaFromJson } from '../src/core/pta/index.js';
import { createScorer } from '../src/core/scorer.js';
import { setTextCompression } from '../src/core/memory/packed-text.js';
import type { Pta, Scorer } from '../src/core/scorer-api.js';
import type { Step } from '../src/core/types.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { Connection } from '../src/server/connection.js';
import { createMetrics } from '../src/server/metrics.js';
import { resolveOptions } from '../src/server/options.js';
import { COMPACT_IDLE_MS } from '../src/server/idle-compact.js';
import { SessionRegistry } from '../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../src/server/stream-handler.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_TASK, findCorpus, loadCorpus, repoRoot, type CorpusTrajectory } from './corpus.js';
import { realSteps } from './long-trajectory.js';
import { machine, machineLine, target, writeResult } from './report.js';
import { socketStandIn } from './socket-stand-in.js';
import { collectGarbage, commandLine, fmt, printTable } from './timing.js';

const { values: args } = benchArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    steps: { type: 'string', default: '100' },
    ptas: { type: 'string', default: '1000' },
    json: { type: 'string' },
    corpus: { type: 'string' },
    compress: { type: 'boolean' },
    snapshot: { type: 'string' },
  },
});
if (args.compress) setTextCompression(true);
const sessions = numberFlag(args, 'sessions', 'positive integer');
const stepsEach = numberFlag(args, 'steps', 'positive integer');
const ptaCount = numberFlag(args, 'ptas', 'positive integer');

/** heapUsed and external after full GCs, each in a task of its own: WeakRef targets (shared texts) live until the task that made them ends, and FinalizationRegistry callbacks run between tasks. */
async function heap(): Promise<{ heap: number; external: number }> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external };
}

const nullSocket = socketStandIn();

/** Where session i takes its steps: overlapping windows (offset 37·i) or disjoint ones (offset steps·i). */
interface Layout {
  name: 'overlapping' | 'disjoint';
  sessions: number;
  stride: number;
}

/** Opens `layout.sessions` sessions on one connection and feeds each `stepsEach` real steps as `step` frames. */
async function openSessions(deps: HandlerDeps, trajectories: readonly CorpusTrajectory[], layout: Layout, prefix: string): Promise<Connection> {
  const conn = new Connection(1, nullSocket, 1 << 30);
  const frame = (x: unknown): Buffer => Buffer.from(JSON.stringify(x));
  for (let i = 0; i < layout.sessions; i++) {
    const session = `${prefix}-${i}`;
    await handleFrame(deps, conn, frame({ type: 'start', session, task: SERVER_BENCH_TASK }), false);
    const steps = realSteps(trajectories, i * layout.stride, stepsEach);
    for (let seq = 0; seq < steps.length; seq++) await handleFrame(deps, conn, frame({ type: 'step', session, seq, step: steps[seq] }), false);
  }
  return conn;
}

/**
 * Bytes per session, two ways: `growth`, heapUsed after the round minus before it (what the bench always
 * reported; it includes process-wide caches and pools filling or turning over during the round), and
 * `retained`, heapUsed with the round's sessions kept minus after they are dropped (what the sessions alone
 * keep alive, shared texts included while a session holds them; the caches are the same in both readings).
 */
interface Bytes {
  growth: number;
  retained: number;
  external: number;
}

async function measured(layout: Layout, build: () => Promise<unknown>, snapshot?: string, fixed: Bytes = NOTHING): Promise<Bytes> {
  await build(); // warm round: JIT, PTA cache, parse caches, pools; freed before the measured one
  const before = await heap();
  const box: { kept?: unknown } = { kept: await build() };
  const after = await heap();
  if (snapshot !== undefined) v8.writeHeapSnapshot(snapshot);
  delete box.kept;
  const dropped = await heap();
  const n = layout.sessions;
  return {
    growth: (after.heap - before.heap - fixed.growth) / n,
    retained: (after.heap - dropped.heap - fixed.retained) / n,
    external: (after.external - before.external - fixed.external) / n,
  };
}

const NOTHING: Bytes = { growth: 0, retained: 0, external: 0 };

/** Empty rounds (a registry and a connection, no session) measured together for the bytes a round holds besides its sessions. */
const EMPTY_ROUNDS = 20;

async function sessionBytes(trajectories: readonly CorpusTrajectory[], layout: Layout): Promise<{ session: Bytes; idle: Bytes; scorer: Bytes; ended: Bytes & { counted: number }; fixed: Bytes }> {
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const seed = bundledReferencesDir();
  const store = await ReferenceStore.open({ dataDir: data, seedDirs: [seed] });
  const analyzers = defaultAnalyzers();
  const connections = new Map<number, Connection>();
  const log = pino({ level: 'silent' });
  const options = resolveOptions({ limits: { sessionsPerConnection: layout.sessions + 1, totalSessions: layout.sessions + 1 } });
  const metrics = createMetrics(store);
  let rounds = 0;
  // A fresh registry per round (it counts its open sessions itself): each round's sessions go with their registry.
  const round = async (of: Layout = layout): Promise<{ registry: SessionRegistry; conn: Connection; deps: HandlerDeps }> => {
    const registry = new SessionRegistry({ store, analyzers, metrics, log, options, connections });
    const deps: HandlerDeps = { registry, metrics, log, options };
    const conn = await openSessions(deps, trajectories, of, `${of.name}-${rounds++}`);
    if (registry.sessions.size !== of.sessions || [...registry.sessions.values()].some((s) => s.length !== stepsEach)) {
      throw new Error(`expected ${of.sessions} sessions of ${stepsEach} steps, got ${registry.sessions.size}`);
    }
    return { registry, conn, deps };
  };
  // A round's registry and connection with no session: a server has one registry (its fixed tables, ~18 KB) and a
  // client one connection whatever its sessions, so they are not a session's bytes. Before stop 67 each round's own
  // were divided over its sessions: ~0.9 KB a session of the ~19 disjoint ones (mem19), ~0.06 KB of 300 overlapping.
  // Measured over EMPTY_ROUNDS of them kept together: one reading of a few KB is inside a forced GC's spread.
  const fixed = await measured({ ...layout, sessions: EMPTY_ROUNDS }, async () => {
    const kept = [];
    for (let i = 0; i < EMPTY_ROUNDS; i++) kept.push(await round({ ...layout, sessions: 0 }));
    return kept;
  });
  const session = await measured(layout, round, args.snapshot === undefined ? undefined : `${args.snapshot}-${layout.name}.heapsnapshot`, fixed);
  // The same sessions once the server's sweep has found them idle (no step for COMPACT_IDLE_MS: an agent waiting on its model).
  const idle = await measured(
    layout,
    async () => {
      const r = await round();
      await r.registry.sweep(Date.now() + COMPACT_IDLE_MS);
      if (r.registry.sessions.size !== layout.sessions) throw new Error('the sweep ended a session');
      return r;
    },
    args.snapshot === undefined ? undefined : `${args.snapshot}-${layout.name}-idle.heapsnapshot`,
    fixed,
  );
  let counted = 0;
  const ended = await measured(
    layout,
    async () => {
      const { registry, conn, deps } = await round();
      for (const s of [...registry.sessions.values()]) await handleFrame(deps, conn, Buffer.from(JSON.stringify({ type: 'end', session: s.id })), false);
      const kept = [...registry.sessions.values()];
      if (kept.some((s) => !s.ended)) throw new Error('a session did not end');
      counted = kept.reduce((n, s) => n + s.keptBytes(), 0) / kept.length;
      return { registry, conn };
    },
    undefined,
    fixed,
  );

  const reference = await store.reference(SERVER_BENCH_TASK);
  const scorers = (): Promise<Scorer[]> => {
    const out: Scorer[] = [];
    for (let i = 0; i < layout.sessions; i++) {
      const s = createScorer({ reference, analyzers });
      for (const step of realSteps(trajectories, i * layout.stride, stepsEach)) s.push(JSON.parse(JSON.stringify(step)) as Step);
      out.push(s);
    }
    return Promise.resolve(out);
  };
  const scorer = await measured(layout, scorers);
  await rm(data, { recursive: true, force: true });
  return { session, idle, scorer, ended: { ...ended, counted }, fixed };
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
  const before = await heap();
  const kept: Pta[] = [];
  for (let i = 0; i < ptaCount; i++) kept.push(parse(texts[i % texts.length]!));
  const after = await heap();
  const nodes = kept.reduce((n, p) => n + p.nodes.length, 0);
  const meanNodes = texts.map(parse).reduce((n, p) => n + p.nodes.length, 0) / texts.length;
  const perNode = (after.heap - before.heap) / nodes;
  return { perNode, perPta: perNode * meanNodes, meanNodes, files: texts.length };
}

async function main(): Promise<void> {
  const { trajectories } = loadCorpus(findCorpus(args.corpus));
  const corpusSteps = trajectories.reduce((n, t) => n + t.steps.length, 0);
  const layouts: Layout[] = [
    { name: 'overlapping', sessions, stride: 37 },
    { name: 'disjoint', sessions: Math.min(sessions, Math.floor(corpusSteps / stepsEach)), stride: stepsEach },
  ];
  const m = machine();
  const results = [];
  for (const layout of layouts) results.push({ layout, ...(await sessionBytes(trajectories, layout)) });
  const p = await ptaBytes();
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(
    `sessions x ${stepsEach} real steps, task ${SERVER_BENCH_TASK} (PTA): overlapping = ${layouts[0]!.sessions} sessions from corpus offset 37·i (each step in ~${fmt((layouts[0]!.sessions * stepsEach) / corpusSteps, 0)} sessions), disjoint = ${layouts[1]!.sessions} sessions from offset ${stepsEach}·i (no step shared; ${corpusSteps} corpus steps); PTAs: ${ptaCount} parsed from the ${p.files} data/example files in turn`,
  );
  const kb = (b: number): string => fmt(b / 1000, 1);
  const rows = results.flatMap(({ layout, session, idle, scorer, ended, fixed }) => [
    [`per active session, ${layout.name} (server message path)`, kb(session.retained), kb(session.growth)],
    [
      `  with the round's registry and connection (${kb(fixed.retained)} KB, subtracted above) over its ${layout.sessions}`,
      kb(session.retained + fixed.retained / layout.sessions),
      kb(session.growth + fixed.growth / layout.sessions),
    ],
    ['  external (Buffers) per session', fmt(session.external / 1000, 2), ''],
    [`  idle ${COMPACT_IDLE_MS / 1000} s (the sweep deflated its texts)`, kb(idle.retained), kb(idle.growth)],
    ['    its external (Buffers) per session', fmt(idle.external / 1000, 2), ''],
    ['  of which the scorer alone (createScorer + push)', kb(scorer.retained), kb(scorer.growth)],
    [`per ended session, ${layout.name} (kept for resume)`, kb(ended.retained), kb(ended.growth)],
    ['  counted by the ended-session bound (keptBytes)', kb(ended.counted), ''],
  ]);
  printTable(['heapUsed after full GC, KB per session', 'retained', 'growth'], rows);
  printTable(
    ['PTAs, heapUsed after full GC', 'bytes', 'KB'],
    [
      ['per PTA node', fmt(p.perNode, 0), fmt(p.perNode / 1000, 2)],
      [`per PTA of mean example size (${fmt(p.meanNodes, 0)} nodes)`, fmt(p.perPta, 0), fmt(p.perPta / 1000, 1)],
      ['10,000 such PTAs (projection)', fmt(p.perPta * 10_000, 0), fmt(p.perPta * 10, 0)],
    ],
  );
  const [overlap, disjoint] = results;
  const targets = [
    target(`memory per active ${stepsEach}-step session (overlapping)`, overlap!.session.retained / 1000, '<=', 40, 'KB'),
    target(`memory per active ${stepsEach}-step session (disjoint)`, disjoint!.session.retained / 1000, '<=', 40, 'KB'),
    target('memory of 10,000 corpus-size PTAs', (p.perPta * 10_000) / 1e9, '<=', 1, 'GB'),
  ];
  writeResult(args.json, {
    bench: 'memory',
    command: commandLine(import.meta.url),
    machine: m,
    targets,
    figures: {
      session_bytes: overlap!.session.retained,
      session_growth_bytes: overlap!.session.growth,
      session_external_bytes: overlap!.session.external,
      scorer_bytes: overlap!.scorer.retained,
      disjoint_sessions: disjoint!.layout.sessions,
      disjoint_session_bytes: disjoint!.session.retained,
      disjoint_session_growth_bytes: disjoint!.session.growth,
      round_fixed_bytes: disjoint!.fixed.retained,
      idle_session_bytes: overlap!.idle.retained,
      disjoint_idle_session_bytes: disjoint!.idle.retained,
      disjoint_scorer_bytes: disjoint!.scorer.retained,
      ended_session_bytes: overlap!.ended.retained,
      ended_session_counted_bytes: overlap!.ended.counted,
      disjoint_ended_session_bytes: disjoint!.ended.retained,
      disjoint_ended_session_counted_bytes: disjoint!.ended.counted,
      pta_node_bytes: p.perNode,
      pta_bytes: p.perPta,
      pta_mean_nodes: p.meanNodes,
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`memory: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

/**
 * The reliability drills (bench/drills/*), longer than the CI suite (test/drills) runs them, on the shared
 * corpus: frame fuzzer (100,000 frames), mutated logs (2,500), kill -9 cycles (12), floods (5,000 sessions,
 * 200 distinct 850 KB .py files, 200 distinct 1 MB commands), hostile ids, shutdown under load (200 sessions),
 * hostile files through the CLI (gzip bombs of 3.5 GiB and 600 MiB, a 300 MiB file, /dev/zero, a FIFO, ESC
 * sequences and formulas in real runs), PTA growth (5,000-step references until the task's cap; the file store,
 * and with --redis-too Redis), a hostile tenant (issue 25's trial: 10 junk references, 10 fake learn sessions,
 * 100 fake outcomes, 1,024 slots, 64 stuck viewers) and cardinality (1,200 sessions under 256-character names).
 * Prints the figures and one TARGET line per drill (docs/reliability.md).
 *
 *   npm run build && node dist/bench/drills.js [--only fuzz,logs,kill,flood,hostile,shutdown,files,pta,tenant,cardinality] [--redis-too] [--json FILE] [CORPUS_DIR]
 */
import { mkdtemp, mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Step } from '../src/core/types.js';
import { parseTrajectoryText } from '../src/formats/index.js';
import { buildApp } from '../src/server/app.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { redisClient } from './redis-client.js';
import { benchArgs } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus, loadCorpus, repoRoot } from './corpus.js';
import { runPtaGrowth, type PtaGrowthResult } from './drills/pta-growth.js';
import { spawnServer } from './drills/spawn-server.js';
import { RedisServer } from './redis-server.js';
import { runFlood } from './drills/flood.js';
import { runFrameFuzz } from './drills/frame-fuzz.js';
import { runHostileFiles } from './drills/hostile-files.js';
import { runHostileIds } from './drills/hostile-ids.js';
import { runKillCycles } from './drills/kill-cycle.js';
import { runLogMutation } from './drills/log-mutation.js';
import { runShutdownUnderLoad } from './drills/shutdown-load.js';
import { runCardinality } from './drills/cardinality.js';
import { runHostileTenant } from './drills/hostile-tenant.js';
import { getParser } from '../src/formats/index.js';
import { machine, machineLine, target, writeResult, type Target } from './report.js';
import { commandLine, latencySummary } from './timing.js';

const { values: args, positionals } = benchArgs({ options: { only: { type: 'string' }, json: { type: 'string' }, 'redis-too': { type: 'boolean' } }, allowPositionals: true });
const only = args.only?.split(',');
const wanted = (name: string): boolean => only === undefined || only.includes(name);
/** A passing run of the same task (references, learning). */
const PASSING_FILE = SERVER_BENCH_FILE.replace('deepseek_lite_dev_noparallel', 'deepseek_chat_dev');
/** The victim's passing run in the hostile-tenant drill, and the attacker's junk (a run of another task). */
const VICTIM_FILE = SERVER_BENCH_FILE.replace('deepseek_lite_dev_noparallel', 'deepseek_chat_dev_rerun');
const JUNK_FILE = 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-14182/astropy__astropy-14182.traj.json';
/** The attacker's "passing" shadow runs: short, no exploration streak of 10 (the victim's run has one), so a stop exists to promote. */
const SHORT_FILE = 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json';

/** The PTA-growth drill on a server in its own process with the default limits: the file store, or Redis (whose memory is measured too). */
async function ptaGrowthOn(backing: 'file' | 'redis', dir: string, runs: Step[][]): Promise<PtaGrowthResult & { redisMb?: number }> {
  const redis = backing === 'redis' ? await RedisServer.start() : undefined;
  const admin = redis ? redisClient(redis.url) : undefined;
  const usedMb = async (): Promise<number> => Number(/used_memory:(\d+)/.exec((await admin?.info('memory')) ?? '')?.[1] ?? 0) / 1e6;
  const server = await spawnServer(['--data', dir, '--no-seed', ...(redis ? ['--redis', redis.url] : [])]);
  try {
    const before = await usedMb();
    const r = await runPtaGrowth({ http: server.http, ws: server.ws, task: 'growth-task', runs, length: 5000, references: 40, startEveryMs: 200 });
    return redis ? { ...r, redisMb: (await usedMb()) - before } : r;
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
    admin?.disconnect();
    await redis?.destroy();
  }
}

async function main(): Promise<void> {
  console.log(`${commandLine(import.meta.url)}\n${machineLine()}`);
  const corpus = findCorpus(positionals[0]);
  const read = async (file: string): Promise<{ text: string; steps: Step[] }> => {
    const text = await readFile(path.join(corpus, file), 'utf8');
    const parsed = parseTrajectoryText(text, 'auto', file);
    if (!parsed.ok) throw parsed.error;
    return { text, steps: parsed.value.steps };
  };
  const failing = await read(SERVER_BENCH_FILE);
  const passing = await read(PASSING_FILE);
  const doc = JSON.parse(passing.text) as unknown;
  const work = await mkdtemp(path.join(os.tmpdir(), 'steplens-drills-'));
  const figures: Record<string, number | string> = {};
  const targets: Target[] = [];
  const seconds = (began: number): number => Number(((performance.now() - began) / 1000).toFixed(1));

  try {
    if (wanted('fuzz')) {
      const began = performance.now();
      const seed = bundledReferencesDir();
      const app = await buildApp({ dataDir: path.join(work, 'fuzz'), seedDirs: [seed], logLevel: 'silent', tokens: ['victim-token', 'fuzz-token'] });
      const http = await app.listen({ host: '127.0.0.1', port: 0 });
      const r = await runFrameFuzz({
        url: `${http.replace(/^http/, 'ws')}/v1/stream`,
        http,
        task: SERVER_BENCH_TASK,
        steps: failing.steps,
        frames: 100_000,
        seed: Date.now() % 100_000,
        victimToken: 'victim-token',
        fuzzToken: 'fuzz-token',
      });
      await app.close();
      console.log('fuzz', JSON.stringify(r));
      Object.assign(figures, { fuzz_frames: r.frames, fuzz_seconds: seconds(began), fuzz_victim_equal: String(r.victimEqual && r.finalEqual), fuzz_failure: r.failure ?? 'none' });
      targets.push(
        target('fuzz: frames answered by a valid non-internal message, victim scores unchanged', r.failure === undefined && r.victimEqual && r.finalEqual ? r.frames : 0, '>=', 100_000, 'frames'),
      );
    }
    if (wanted('logs')) {
      const began = performance.now();
      const r = runLogMutation({ corpus, perFile: 23, seed: 19 });
      console.log('logs', JSON.stringify({ ...r, problems: r.problems.slice(0, 5) }));
      Object.assign(figures, { logs_mutated: r.files * 23, logs_runs: r.runs, logs_problems: r.problems.length, logs_max_ms: Math.round(r.maxMs), logs_seconds: seconds(began) });
      targets.push(target('logs: problems (throws, refusals or diagnostics without a position)', r.problems.length, '<=', 0));
      targets.push(target('logs: slowest mutated log through every parser and the scorer', r.maxMs, '<', 2000, 'ms'));
    }
    if (wanted('kill')) {
      const began = performance.now();
      const r = await runKillCycles({ dataDir: path.join(work, 'kill'), cycles: 12, doc, steps: passing.steps, tasks: ['task-a', 'task-b', `long-${'x'.repeat(240)}`], minMs: 300, maxMs: 2000 });
      console.log('kill', JSON.stringify(r));
      Object.assign(figures, {
        kill_cycles: r.cycles,
        kill_acknowledged: r.acknowledged,
        kill_lost: r.lost.length,
        kill_warnings: r.warnings.length,
        kill_temp_files_left: r.tempFilesLeft,
        kill_seconds: seconds(began),
      });
      targets.push(target('kill -9: acknowledged references lost, files broken or moved aside', r.lost.length + r.warnings.length + r.movedAside, '<=', 0));
    }
    if (wanted('flood')) {
      const began = performance.now();
      const sessions = 1000;
      const r = await runFlood({
        steps: failing.steps,
        task: SERVER_BENCH_TASK,
        rounds: 4,
        sessions,
        stepsPerSession: 82,
        connections: 8,
        bigFiles: 40,
        bigCommands: 40,
        server: { limits: { maxEndedSessions: sessions } },
      });
      console.log('flood', JSON.stringify(r));
      r.rounds.forEach((x) => Object.assign(figures, { [`flood_round${x.round}_heap_mb`]: Number(x.heapMB.toFixed(1)), [`flood_round${x.round}_rss_mb`]: Number(x.rssMB.toFixed(1)) }));
      Object.assign(figures, { flood_seconds: seconds(began) });
      targets.push(target('flood: heap growth after the warm-up round (5 x 1,000 sessions, 200 .py files, 200 commands)', r.heapGrowth * 100, '<', 10, '%'));
      targets.push(target('flood: RSS growth after the warm-up round', r.rssGrowth * 100, '<', 10, '%'));
    }
    if (wanted('hostile')) {
      const began = performance.now();
      const data = path.join(work, 'hostile', 'data');
      await mkdir(data, { recursive: true });
      const app = await buildApp({ dataDir: data, logLevel: 'silent' });
      const http = await app.listen({ host: '127.0.0.1', port: 0 });
      const r = await runHostileIds({ http, ws: `${http.replace(/^http/, 'ws')}/v1/stream`, dataDir: data, doc });
      await app.close();
      console.log('hostile', JSON.stringify(r));
      Object.assign(figures, { hostile_ids: r.ids, hostile_requests: r.requests, hostile_problems: r.problems.length, hostile_outside: r.outside.length, hostile_seconds: seconds(began) });
      targets.push(target('hostile ids: 500s, internal errors, non-catalogue answers, files outside the data folder', r.problems.length + r.outside.length + r.reopenWarnings.length, '<=', 0));
    }
    if (wanted('shutdown')) {
      const began = performance.now();
      const r = await runShutdownUnderLoad({ dataDir: path.join(work, 'shutdown'), task: SERVER_BENCH_TASK, steps: passing.steps, doc, sessions: 200, httpRequests: 40, loadMs: 3000 });
      console.log('shutdown', JSON.stringify(r));
      Object.assign(figures, {
        shutdown_sessions: r.sessions,
        shutdown_finals_matching: r.finalsMatching,
        shutdown_exit_code: r.exitCode ?? -1,
        shutdown_exit_ms: Math.round(r.exitMs),
        shutdown_seconds: seconds(began),
      });
      targets.push(target('shutdown under load: sessions without a matching final, bad answers, exit code', r.sessions - r.finalsMatching + r.problems.length + (r.exitCode ?? 1), '<=', 0));
    }
    if (wanted('files')) {
      const began = performance.now();
      const dir = path.join(work, 'files');
      await mkdir(dir, { recursive: true });
      const root = repoRoot();
      // The default input limit (256 MiB): the bombs of the red-team trial, a plain file over the limit.
      const r = await runHostileFiles({
        cli: path.join(root, 'dist/src/cli/main.js'),
        examples: path.join(root, 'examples/runs'),
        work: dir,
        bombsMiB: [3584, 600, 3584],
        plainMiB: 300,
        hostileCopies: 8,
        timeoutMs: 600_000,
      });
      console.log('files', JSON.stringify({ ...r, problems: r.problems.slice(0, 5) }));
      for (const c of r.commands) Object.assign(figures, { [`files_${c.command.replace(/[^a-z0-9]+/gi, '_')}_ms`]: c.ms, [`files_${c.command.replace(/[^a-z0-9]+/gi, '_')}_peak_mb`]: c.peakMB });
      const peak = Math.max(...r.commands.map((c) => c.peakMB));
      Object.assign(figures, { files_readable: r.readable, files_refused: r.refused, files_problems: r.problems.length, files_peak_mb: peak, files_seconds: seconds(began) });
      targets.push(target('hostile files: aborts, hangs, unnamed refusals, unread runs, raw control characters, formula cells', r.problems.length, '<=', 0));
      targets.push(target('hostile files: peak RSS of any command (3.5 GiB bombs, default 256 MiB limit)', peak, '<', 1024, 'MB'));
    }
    if (wanted('pta')) {
      const runs = loadCorpus(corpus).trajectories.map((t) => t.steps);
      for (const backing of args['redis-too'] ? (['file', 'redis'] as const) : (['file'] as const)) {
        const began = performance.now();
        const r = await ptaGrowthOn(backing, path.join(work, `pta-${backing}`), runs);
        const pings = latencySummary(r.pings);
        const starts = latencySummary(Float64Array.from(r.startMs));
        const adds = latencySummary(Float64Array.from(r.addMs));
        const name = `pta_${backing}`;
        console.log(name, JSON.stringify({ ...r, pings, starts, adds, addMs: undefined, startMs: undefined }));
        Object.assign(figures, {
          [`${name}_added`]: r.added,
          [`${name}_reference_mb`]: Number((r.referenceBytes / 1e6).toFixed(2)),
          [`${name}_refused`]: r.refused ? `${r.refused.status} ${r.refused.code}` : 'none',
          [`${name}_pta_mb`]: Number((r.pta.bytes / 1e6).toFixed(2)),
          [`${name}_pta_nodes`]: r.pta.nodes,
          [`${name}_add_p50_ms`]: Math.round(adds.p50),
          [`${name}_add_max_ms`]: Math.round(adds.max),
          [`${name}_start_p50_ms`]: Math.round(starts.p50),
          [`${name}_start_max_ms`]: Math.round(starts.max),
          [`${name}_starts`]: starts.n,
          [`${name}_ping_p99_ms`]: Number(pings.p99.toFixed(1)),
          [`${name}_ping_max_ms`]: Number(pings.max.toFixed(1)),
          [`${name}_pings`]: pings.n,
          ...(r.redisMb !== undefined ? { [`${name}_redis_mb`]: Number(r.redisMb.toFixed(1)) } : {}),
          [`${name}_seconds`]: seconds(began),
        });
        targets.push(target(`pta growth (${backing}): another client's longest ping while 5,000-step references grow a PTA to its cap`, pings.max, '<', 250, 'ms'));
        targets.push(target(`pta growth (${backing}): references past the cap accepted, problems`, (r.refused?.code === 'too_large' ? 0 : 1) + r.problems.length, '<=', 0));
      }
    }
    const events = async (file: string): Promise<{ doc: unknown; events: unknown[] }> => {
      const d = JSON.parse((await read(file)).text) as unknown;
      return { doc: d, events: getParser('mini-swe-agent').events(d) };
    };
    if (wanted('tenant')) {
      const began = performance.now();
      const victim = await events(VICTIM_FILE);
      const junk = await events(JUNK_FILE);
      const r = await runHostileTenant({
        task: SERVER_BENCH_TASK,
        victimDoc: victim.doc,
        victimEvents: victim.events,
        junkDoc: junk.doc,
        junkEvents: junk.events,
        shadowPassEvents: (await events(SHORT_FILE)).events,
        references: 10,
        learnSessions: 10,
        shadowPasses: 70,
        shadowFails: 30,
        checkSessions: 10,
        slots: 1024,
        stuckViewers: 64,
        liveSessions: 40,
      });
      console.log('tenant', JSON.stringify(r));
      const maxPing = Math.max(...Object.values(r.pings).map((p) => p.max));
      Object.assign(figures, {
        tenant_victim_score: `${r.victimScore.before} -> ${r.victimScore.afterReferences} -> ${r.victimScore.afterLearn}`,
        tenant_references: JSON.stringify(r.referenceAnswers),
        tenant_learn: JSON.stringify(r.learnAnswers),
        tenant_mallory_promoted: r.malloryPromoted ?? 'none',
        tenant_mallory_stopped: r.malloryStopped,
        tenant_victim_stopped: r.victimStopped,
        tenant_leaks: r.leaks,
        tenant_slots: JSON.stringify(r.slotAnswers),
        tenant_viewers_dropped: r.stuckViewersDropped,
        tenant_rss_mb: `${r.rssMB.before} -> ${r.rssMB.withViewers}`,
        tenant_ping_max_ms: Math.round(maxPing),
        tenant_seconds: seconds(began),
      });
      for (const [k, p] of Object.entries(r.pings)) figures[`tenant_ping_${k}_max_ms`] = Math.round(p.max);
      for (const [k, ms] of Object.entries(r.loopMaxMs)) figures[`tenant_loop_${k}_max_ms`] = ms;
      targets.push(target("hostile tenant: the server's event-loop delay, max over every phase", Math.max(...Object.values(r.loopMaxMs)), '<=', 250, 'ms'));
      targets.push(target('hostile tenant: problems (leaks, stops, lock-outs, answers outside the catalogue)', r.problems.length, '<=', 0));
      targets.push(target('hostile tenant: another client ping, max over every phase', maxPing, '<=', 250, 'ms'));
    }
    if (wanted('cardinality')) {
      const began = performance.now();
      const victim = await events(VICTIM_FILE);
      const r = await runCardinality({ sessions: 1200, nameLength: 256, task: SERVER_BENCH_TASK, events: victim.events.slice(0, 12) });
      console.log('cardinality', JSON.stringify(r));
      Object.assign(figures, {
        cardinality_metrics_kb: Math.round(r.metricsBytes / 1024),
        cardinality_series: r.metricsSeries,
        cardinality_scrape_ms: r.scrapeMs,
        cardinality_pairs: r.pairsHeld,
        cardinality_state_kb: Math.round(r.stateBytes / 1024),
        cardinality_pin_status: r.pinStatus,
        cardinality_rss_mb: r.rssMB,
        cardinality_ping_max_ms: Math.round(Math.max(r.pings.stream?.max ?? 0, r.pings.scrape?.max ?? 0)),
        cardinality_loop_stream_max_ms: r.loopMaxMs.stream ?? -1,
        cardinality_loop_scrape_max_ms: r.loopMaxMs.scrape ?? -1,
        cardinality_seconds: seconds(began),
      });
      targets.push(target('cardinality: /metrics series after 1,200 distinct 256-character pairs', r.metricsSeries, '<', 20_000));
      targets.push(target("cardinality: the server's event-loop delay, max (streaming and scrape)", Math.max(r.loopMaxMs.stream ?? Infinity, r.loopMaxMs.scrape ?? Infinity), '<=', 250, 'ms'));
      targets.push(target('cardinality: another client ping, max (streaming and scrape)', Math.max(r.pings.stream?.max ?? 0, r.pings.scrape?.max ?? 0), '<=', 250, 'ms'));
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  writeResult(args.json, { bench: 'drills', command: commandLine(import.meta.url), machine: machine(), targets, figures });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

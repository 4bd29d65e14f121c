/**
 * The slowest steps of the scorer (issue 24 item 2's p99 is the slowest 1 % of steps): CPU µs of each step, in
 * process, as the paced phase of `ws-load` sends them and over the corpus.
 *  - server run: `handleFrame` (parse, registry, session, scorer, frames) on a socket stand-in for every step of the
 *    held-out run `ws-load` replays, `--sessions` whole sessions after warm-up sessions (its PTA, as the server).
 *  - corpus: `Scorer.push` of every step of every corpus trajectory (prior reference), `--repeats` fresh scorers each.
 * Prints p50, p90, p99, p99.9 and max over all the samples and the steps with the highest median over repeats
 * (the step's own cost: a GC pause landing on a step once does not name it). CPU clock: `process.cpuUsage`.
 *
 *   node dist/bench/step-tail.js [--sessions 300] [--repeats 5] [--top 8] [--skip-corpus] [--json FILE]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { createScorer } from '../src/core/scorer.js';
import type { Step } from '../src/core/types.js';
import { parseTrajectoryText } from '../src/formats/index.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { Connection } from '../src/server/connection.js';
import { createMetrics } from '../src/server/metrics.js';
import { resolveOptions } from '../src/server/options.js';
import { sessionKey } from '../src/server/principal.js';
import { SessionRegistry } from '../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../src/server/stream-handler.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus, loadCorpus } from './corpus.js';
import { machine, machineLine, writeResult } from './report.js';
import { cpuUs, socketStandIn } from './socket-stand-in.js';
import { overThreshold, slowestSteps, tailOf, type StepSamples, type Tail } from './step-tail-stats.js';
import { commandLine, fmt, printTable } from './timing.js';
import { stepTemplates } from './ws-driver.js';

const { values: args } = benchArgs({
  options: {
    sessions: { type: 'string', default: '300' },
    repeats: { type: 'string', default: '5' },
    top: { type: 'string', default: '8' },
    'skip-corpus': { type: 'boolean' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const sessions = numberFlag(args, 'sessions', 'positive integer');
const repeats = numberFlag(args, 'repeats', 'positive integer');
const top = numberFlag(args, 'top', 'non-negative integer');
const WARMUP_SESSIONS = 50;

/** What a step is, for the report: its tool, its output's size and the head of its command. */
function describe(step: Step): string {
  const out = step.observation?.length ?? 0;
  const head = JSON.stringify(step.args ?? {}).slice(0, 60);
  return `${step.tool}, output ${out} chars, ${head}`;
}

const tailRow = (name: string, t: Tail): string[] => [name, String(t.n), fmt(t.p50, 1), fmt(t.p90, 1), fmt(t.p99, 1), fmt(t.p999, 1), fmt(t.max, 1)];

/** CPU µs of each step of the server run through the message path, per seq over `sessions` sessions. */
async function serverRun(corpus: string): Promise<{ steps: Step[]; perSeq: number[][]; starts: number[]; ends: number[] }> {
  const file = path.join(corpus, SERVER_BENCH_FILE);
  const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!parsed.ok) throw parsed.error;
  const frames = stepTemplates(parsed.value.steps).frames;
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const store = await ReferenceStore.open({ dataDir: data, seedDirs: [bundledReferencesDir()] });
  const options = resolveOptions({ limits: { sessionsPerConnection: 10, totalSessions: 100 } });
  const connections = new Map<number, Connection>();
  const metrics = createMetrics(store);
  const registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log: pino({ level: 'silent' }), options, connections });
  const deps: HandlerDeps = { registry, metrics, log: pino({ level: 'silent' }), options };
  const conn = new Connection(1, socketStandIn(), 1 << 30);
  connections.set(1, conn);
  const perSeq = frames.map(() => [] as number[]);
  // A session's start and end, each to its resolution (an end's report is built a slice a turn: all its turns).
  const starts: number[] = [];
  const ends: number[] = [];
  const timed = async (into: number[], i: number, work: () => void | Promise<void>): Promise<void> => {
    const t = cpuUs();
    await work();
    if (i >= WARMUP_SESSIONS) into.push(cpuUs() - t);
  };
  for (let i = 0; i < WARMUP_SESSIONS + sessions; i++) {
    const id = `s${String(i).padStart(9, '0')}`;
    await timed(starts, i, () => handleFrame(deps, conn, Buffer.from(JSON.stringify({ type: 'start', session: id, task: SERVER_BENCH_TASK })), false));
    for (const [seq, f] of frames.entries()) {
      Buffer.from(id, 'latin1').copy(f, 26);
      const t = cpuUs();
      await handleFrame(deps, conn, f, false);
      if (i >= WARMUP_SESSIONS) perSeq[seq]!.push(cpuUs() - t);
    }
    await timed(ends, i, () => handleFrame(deps, conn, Buffer.from(JSON.stringify({ type: 'end', session: id })), false));
    const key = sessionKey(conn.principal.tenant, id);
    registry.sessions.delete(key);
    conn.drop(key);
  }
  await rm(data, { recursive: true, force: true });
  return { steps: parsed.value.steps, perSeq, starts, ends };
}

/** CPU µs of each `push` of every corpus trajectory, `repeats` fresh scorers each (the first a warm-up). */
function corpusRun(corpus: string): { steps: Array<StepSamples<string>>; all: number[] } {
  const { trajectories } = loadCorpus(corpus);
  const analyzers = defaultAnalyzers();
  const steps: Array<StepSamples<string>> = [];
  const all: number[] = [];
  for (const tr of trajectories) {
    const samples = tr.steps.map(() => [] as number[]);
    for (let r = 0; r <= repeats; r++) {
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
      tr.steps.forEach((s, i) => {
        const t = cpuUs();
        scorer.push({ ...s, t: i });
        if (r > 0) samples[i]!.push(cpuUs() - t);
      });
    }
    samples.forEach((xs, i) => {
      steps.push({ key: `${tr.file}#${tr.instance} seq ${i} (${tr.steps.length} steps): ${describe(tr.steps[i]!)}`, samples: xs });
      all.push(...xs);
    });
  }
  return { steps, all };
}

async function main(): Promise<void> {
  const corpus = findCorpus(args.corpus);
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(`${machineLine(machine())}; load average ${os.loadavg()[0]?.toFixed(2)}`);
  const server = await serverRun(corpus);
  const serverAll = server.perSeq.flat();
  const serverTail = tailOf(serverAll);
  const startTail = tailOf(server.starts);
  const endTail = tailOf(server.ends);
  const rows = [
    tailRow(`server run, handleFrame (${server.steps.length} steps × ${sessions} sessions)`, serverTail),
    tailRow('server run, a session start (start frame to started)', startTail),
    tailRow("server run, a session end (end frame to final, the report's turns included)", endTail),
  ];
  const serverSlow = slowestSteps(
    server.perSeq.map((samples, seq) => ({ key: seq, samples })),
    top,
  );
  let corpusTail: Tail | undefined;
  let corpusSlow: Array<{ key: string; median: number }> = [];
  let corpusSteps: Array<StepSamples<string>> = [];
  if (args['skip-corpus'] !== true) {
    const c = corpusRun(corpus);
    corpusTail = tailOf(c.all);
    rows.push(tailRow(`corpus, Scorer.push (${c.steps.length} steps × ${repeats})`, corpusTail));
    corpusSlow = slowestSteps(c.steps, top);
    corpusSteps = c.steps;
  }
  printTable(['CPU µs a step', 'n', 'p50', 'p90', 'p99', 'p99.9', 'max'], rows);
  console.log(`server run: steps with the highest median CPU (µs) over ${sessions} sessions:`);
  for (const s of serverSlow) console.log(`  seq ${s.key}: ${fmt(s.median, 1)}  ${describe(server.steps[s.key]!)}`);
  const over = overThreshold(server.perSeq, 1000);
  console.log(`server run: ${over.count} samples over 1,000 µs (of ${serverAll.length}), at seqs ${over.seqs.join(', ') || '-'} (a seq once or twice: a pause that landed on it, not its own cost)`);
  if (corpusTail !== undefined) {
    console.log(`corpus: steps with the highest median CPU (µs) over ${repeats} repeats:`);
    for (const s of corpusSlow) console.log(`  ${fmt(s.median, 1)}  ${s.key}`);
    const medians = slowestSteps(corpusSteps, corpusSteps.length).map((s) => [s.median]);
    const share = (limit: number): string => {
      const n = overThreshold(medians, limit).count;
      return `${n} (${fmt((100 * n) / Math.max(1, medians.length), 2)} %)`;
    };
    console.log(`corpus: steps whose median is over 500 µs: ${share(500)}, over 1,000: ${share(1000)}, over 1,500: ${share(1500)}, of ${medians.length}`);
  }
  writeResult(args.json, {
    bench: 'step-tail',
    command: commandLine(import.meta.url),
    machine: machine(),
    targets: [],
    figures: {
      server_p50_us: serverTail.p50,
      server_p90_us: serverTail.p90,
      server_p99_us: serverTail.p99,
      server_p999_us: serverTail.p999,
      server_max_us: serverTail.max,
      server_start_p50_us: startTail.p50,
      server_start_p99_us: startTail.p99,
      server_start_max_us: startTail.max,
      server_end_p50_us: endTail.p50,
      server_end_p99_us: endTail.p99,
      server_end_max_us: endTail.max,
      ...(corpusTail === undefined
        ? {}
        : { corpus_p50_us: corpusTail.p50, corpus_p90_us: corpusTail.p90, corpus_p99_us: corpusTail.p99, corpus_p999_us: corpusTail.p999, corpus_max_us: corpusTail.max }),
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`step-tail: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

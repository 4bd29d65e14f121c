/**
 * CPU cost of the server's message path for whole sessions, without sockets:
 * `handleFrame` (parse, registry, session, scorer, frames) on a stand-in
 * connection that encodes every frame it is sent (as the socket path does) and
 * drops it. Each session is the held-out 79-step run of the server benches
 * (`start`, its steps, `end` → `final`, next session), as `ws-load`'s lifecycle
 * shape sends it. Prints CPU µs per step of the session path split into start,
 * steps and end, against the cost of `JSON.parse` of the same frames (what the
 * echo server of `ws-load` does per message), passes interleaved, median of passes.
 * Meant for before/after comparisons of one change on a busy machine (CPU time, not wall time). Each pass also runs
 * a quarter as many sessions with no step between start and end: their start and end a session, the part of the
 * lifecycle's fixed cost that is not its code and data gone cold behind the session's steps (bench/README.md, "life30").
 *
 *   node dist/bench/session-cost.js [--sessions 200] [--passes 7] [--profile] [--json FILE]
 * `--profile`: one long pass only (run under `node --cpu-prof`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { parseTrajectoryText } from '../src/formats/index.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { Connection } from '../src/server/connection.js';
import { sessionKey } from '../src/server/principal.js';
import { createMetrics } from '../src/server/metrics.js';
import { resolveOptions } from '../src/server/options.js';
import { SessionRegistry } from '../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../src/server/stream-handler.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { machine, machineLine, writeResult } from './report.js';
import { cpuUs, socketStandIn } from './socket-stand-in.js';
import { commandLine, fmt, median, printTable } from './timing.js';
import { stepTemplates } from './ws-driver.js';

const { values: args } = benchArgs({
  options: { sessions: { type: 'string', default: '200' }, passes: { type: 'string', default: '7' }, profile: { type: 'boolean' }, json: { type: 'string' }, corpus: { type: 'string' } },
});
const sessions = numberFlag(args, 'sessions', 'positive integer');
const passes = numberFlag(args, 'passes', 'positive integer');

/** Bytes the socket stand-in was sent. */
let sentBytes = 0;
const sink = socketStandIn((data) => {
  sentBytes += data.length;
});

async function main(): Promise<void> {
  const file = path.join(findCorpus(args.corpus), SERVER_BENCH_FILE);
  const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!parsed.ok) throw parsed.error;
  const templates = stepTemplates(parsed.value.steps);
  const steps = templates.steps;
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const store = await ReferenceStore.open({ dataDir: data, seedDirs: [bundledReferencesDir()] });
  const options = resolveOptions({ limits: { sessionsPerConnection: 10, totalSessions: 100 } });
  const connections = new Map<number, Connection>();
  const log = pino({ level: 'silent' });
  const metrics = createMetrics(store);
  const registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log, options, connections });
  const deps: HandlerDeps = { registry, metrics, log, options };
  const conn = new Connection(1, sink, 1 << 30);
  connections.set(1, conn);
  let serial = 0;
  const frames = templates.frames.map((f) => Buffer.from(f));

  /** `n` whole sessions (with `bare`, no step between start and end); CPU µs spent in start, steps and end. */
  const run = async (n: number, bare = false): Promise<{ start: number; steps: number; end: number }> => {
    const out = { start: 0, steps: 0, end: 0 };
    const sentBefore = sentBytes;
    for (let i = 0; i < n; i++) {
      const id = `s${String(++serial).padStart(9, '0')}`;
      let t = cpuUs();
      await handleFrame(deps, conn, Buffer.from(JSON.stringify({ type: 'start', session: id, task: SERVER_BENCH_TASK })), false);
      out.start += cpuUs() - t;
      t = cpuUs();
      if (!bare) {
        for (const f of frames) {
          Buffer.from(id, 'latin1').copy(f, 26);
          void handleFrame(deps, conn, f, false);
        }
      }
      out.steps += cpuUs() - t;
      t = cpuUs();
      await handleFrame(deps, conn, Buffer.from(JSON.stringify({ type: 'end', session: id })), false);
      out.end += cpuUs() - t;
      // Ended sessions are kept for resume; the bench frees them as the sweep would after the resume window, by the
      // registry (its index and ended-session list too: deleting the map entry alone left every session in the index).
      const ended = registry.get(sessionKey(conn.principal.tenant, id));
      if (ended !== undefined) registry.evict(ended, 'bench', false);
    }
    // Bytes sent per step are of whole sessions only.
    if (bare) sentBytes = sentBefore;
    return out;
  };
  const parseOnly = (n: number): number => {
    const t = cpuUs();
    let k = 0;
    for (let i = 0; i < n; i++) for (const f of frames) k += (JSON.parse(f.toString()) as { seq: number }).seq;
    if (k < 0) throw new Error('unreachable');
    return cpuUs() - t;
  };

  if (args.profile) {
    await run(sessions * passes);
    await rm(data, { recursive: true, force: true });
    return;
  }
  const bareSessions = Math.max(20, Math.round(sessions / 4));
  await run(Math.max(20, sessions / 4));
  await run(bareSessions, true);
  parseOnly(20);
  const rows: Array<{ start: number; steps: number; end: number; parse: number; bareStart: number; bareEnd: number }> = [];
  for (let p = 0; p < passes; p++) {
    const r = await run(sessions);
    const parse = parseOnly(sessions);
    // The same start and end with no step between them: what they cost with their code and data not pushed out by a session's steps.
    const b = await run(bareSessions, true);
    rows.push({
      start: r.start / (sessions * steps),
      steps: r.steps / (sessions * steps),
      end: r.end / (sessions * steps),
      parse: parse / (sessions * steps),
      bareStart: b.start / bareSessions,
      bareEnd: b.end / bareSessions,
    });
  }
  // Every session was freed through the registry: none may stay referenced (its index held every one, life30).
  if (registry.sessions.size !== 0 || registry.index.referenced !== 0) throw new Error(`sessions left in the registry: ${registry.sessions.size}, in its index: ${registry.index.referenced}`);
  const med = (k: 'start' | 'steps' | 'end' | 'parse' | 'bareStart' | 'bareEnd'): number => median(rows.map((r) => r[k]));
  const total = median(rows.map((r) => r.start + r.steps + r.end));
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(machine()));
  console.log(`sessions: ${sessions} per pass × ${args.passes} passes of ${SERVER_BENCH_FILE} (${steps} steps), task ${SERVER_BENCH_TASK} (PTA); load average ${os.loadavg()[0]?.toFixed(1)}`);
  printTable(
    ['CPU µs per step (median of passes)', 'µs', 'vs JSON.parse'],
    [
      ['session path, whole session', fmt(total, 2), `×${fmt(total / med('parse'), 2)}`],
      ['  start (per step of the session)', fmt(med('start'), 2), ''],
      ['  steps', fmt(med('steps'), 2), ''],
      ['  end (per step of the session)', fmt(med('end'), 2), ''],
      ['JSON.parse of the step frames', fmt(med('parse'), 2), '×1.00'],
    ],
  );
  console.log(
    `start and end a session: ${fmt(med('start') * steps, 1)} and ${fmt(med('end') * steps, 1)} µs after the session's steps; ${fmt(med('bareStart'), 1)} and ${fmt(med('bareEnd'), 1)} µs with no step between them (${bareSessions} sessions a pass)`,
  );
  console.log(`bytes sent per step: ${fmt(sentBytes / ((passes + 0.25) * sessions * steps), 0)}`);
  writeResult(args.json, {
    bench: 'session-cost',
    command: commandLine(import.meta.url),
    machine: machine(),
    targets: [],
    figures: {
      us_per_step: total,
      start_us: med('start'),
      steps_us: med('steps'),
      end_us: med('end'),
      parse_us: med('parse'),
      bare_start_us_a_session: med('bareStart'),
      bare_end_us_a_session: med('bareEnd'),
    },
  });
  await rm(data, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`session-cost: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

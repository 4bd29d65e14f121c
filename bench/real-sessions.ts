/**
 * CPU cost of the server's message path on real sessions that each replay a *different* run: every corpus
 * trajectory is one session, all of them open at once and stepped in turn (one step each, round after round), as
 * concurrent agents on unrelated tasks are, through `handleFrame` on a stand-in connection (no socket). The other
 * server benches replay one run in every session, so tree-sitter's parse trees are cache hits there; here each
 * Python file an agent views is seen for the first time, as on a real server. Two variants alternate pass by pass,
 * each with analyzers made fresh for the pass (cold parse caches): the default scope resolver (a file's new text
 * reparsed from its previous tree) and one that parses every text afresh. Prints CPU µs per step of each and
 * their ratio (median of passes); no target (issue 24 records the figure).
 *
 *   npm run build && node dist/bench/real-sessions.js [--corpus DIR] [--passes 5] [--json FILE]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Analyzers } from '../src/core/ports.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { Connection } from '../src/server/connection.js';
import { createMetrics } from '../src/server/metrics.js';
import { resolveOptions } from '../src/server/options.js';
import { SessionRegistry } from '../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../src/server/stream-handler.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../src/syntax/index.js';
import { benchArgs, numberFlag } from './args.js';
import { findCorpus, loadCorpus } from './corpus.js';
import { machine, machineLine, writeResult } from './report.js';
import { cpuUs, socketStandIn } from './socket-stand-in.js';
import { commandLine, fmt, median, printTable } from './timing.js';

const { values: args } = benchArgs({
  options: { corpus: { type: 'string' }, passes: { type: 'string', default: '5' }, json: { type: 'string' } },
});
const passes = numberFlag(args, 'passes', 'positive integer');

async function main(): Promise<void> {
  const { trajectories } = loadCorpus(findCorpus(args.corpus));
  const runs = trajectories.filter((t) => t.steps.length > 0);
  const frames = runs.map((t) => t.steps.map((step, seq) => JSON.stringify({ seq, step })));
  const total = frames.reduce((n, f) => n + f.length, 0);
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const store = await ReferenceStore.open({ dataDir: data, seedDirs: [bundledReferencesDir()] });
  const options = resolveOptions({ limits: { sessionsPerConnection: runs.length + 10, totalSessions: runs.length + 10 } });
  const log = pino({ level: 'silent' });
  const metrics = createMetrics(store);
  let serial = 0;

  /** One pass: every run a session, all open, stepped in turn; CPU µs per step. */
  const pass = async (incremental: boolean): Promise<number> => {
    const analyzers: Analyzers = { shell: createShellAnalyzer(), scope: createPythonScopeResolver({ incremental }) };
    const connections = new Map<number, Connection>();
    const registry = new SessionRegistry({ store, analyzers, metrics, log, options, connections });
    const deps: HandlerDeps = { registry, metrics, log, options };
    const conn = new Connection(1, socketStandIn(), 1 << 30);
    connections.set(1, conn);
    const send = async (o: string): Promise<void> => {
      await handleFrame(deps, conn, Buffer.from(o), false);
    };
    const ids = runs.map(() => `r${++serial}`);
    const t0 = cpuUs();
    for (let i = 0; i < runs.length; i++) await send(JSON.stringify({ type: 'start', session: ids[i], task: runs[i]!.meta.task ?? `task-${i}` }));
    const longest = Math.max(...frames.map((f) => f.length));
    for (let k = 0; k < longest; k++) {
      for (let i = 0; i < runs.length; i++) {
        const f = frames[i]![k];
        if (f === undefined) continue;
        await send(`{"type":"step","session":"${ids[i]}",${f.slice(1)}`);
        if (k === frames[i]!.length - 1) await send(JSON.stringify({ type: 'end', session: ids[i] }));
      }
    }
    return (cpuUs() - t0) / total;
  };

  await pass(true);
  await pass(false);
  const incremental: number[] = [];
  const afresh: number[] = [];
  for (let p = 0; p < passes; p++) {
    incremental.push(await pass(true));
    afresh.push(await pass(false));
  }
  const inc = median(incremental);
  const fresh = median(afresh);
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(machine()));
  console.log(
    `sessions: ${runs.length} corpus runs, ${total} steps, all open and stepped in turn; ${args.passes} passes each variant, alternated, fresh analyzers per pass; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  printTable(
    ['CPU µs per step (median of passes)', 'µs', 'min', 'max', 'vs default'],
    [
      ['default (incremental reparsing)', fmt(inc, 1), fmt(Math.min(...incremental), 1), fmt(Math.max(...incremental), 1), '×1.00'],
      ['every Python text parsed afresh', fmt(fresh, 1), fmt(Math.min(...afresh), 1), fmt(Math.max(...afresh), 1), `×${fmt(fresh / inc, 2)}`],
    ],
  );
  writeResult(args.json, { bench: 'real-sessions', command: commandLine(import.meta.url), machine: machine(), targets: [], figures: { us_per_step: inc, afresh_us_per_step: fresh } });
  await rm(data, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`real-sessions: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

/**
 * learn23 (issue 26 item 5): can one tenant, reporting outcomes steadily, keep another's forecaster from being
 * refreshed under `serve --forecast-learn` (`tenant` scope: one attempt at a time over all scopes)? In one process, a
 * ForecastLearner (the one of `--impl`, a built forecast-learner.js: this build's or a base's) over the bundled
 * forecaster: tenant B (`--flooder`, named to sort before A by default) keeps `--b` sessions copied from real runs
 * with outcomes and reports one more every `--every` ms; tenant A (`--victim`) keeps the runs of another source and,
 * `--n` times at a random moment, reports one more; A's latency is the time from its report to the end of the
 * attempt that saw it (its scope's attempts grow). Attempts every `--interval` ms.
 *
 *   npm run build && node dist/bench/learn-fairness.js [--impl PATH] [--b 3000] [--every 20] [--interval 1000] [--n 6] \
 *     --manifest ../shared/calibration/manifest.jsonl ../shared/calibration
 */
import path from 'node:path';
import { pino } from 'pino';
import { readCorpusInput } from '../src/cli/corpus-input.js';
import { chooseReference } from '../src/cli/references.js';
import { trainAnalyzers, trainInput } from '../src/cli/train-runs.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { FEATURE_COUNT } from '../src/core/forecast/features.js';
import { sampleSteps, sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { bundledForecastFile } from '../src/package-files.js';
import { nodeReportFs } from '../src/report/node-fs.js';
import { nameRuns } from '../src/report/run-naming.js';
import { ForecastHolder } from '../src/server/forecast-holder.js';
import type * as Learner from '../src/server/forecast-learner.js';
import type { Session } from '../src/server/session.js';
import { readForecastFile } from '../src/settings-files.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberFlag } from './args.js';

const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: {
    manifest: { type: 'string' },
    outcomes: { type: 'string' },
    impl: { type: 'string' },
    b: { type: 'string' },
    every: { type: 'string' },
    interval: { type: 'string' },
    n: { type: 'string' },
    flooder: { type: 'string' },
    victim: { type: 'string' },
  },
});
const B = numberFlag(values, 'b', 'positive integer', 3000);
const EVERY = numberFlag(values, 'every', 'positive integer', 20);
const INTERVAL = numberFlag(values, 'interval', 'positive integer', 1000);
const N = numberFlag(values, 'n', 'positive integer', 6);
// After the flags: a bad value is named before the missing folders (test/bench/bench-args.test.ts).
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration)');
const FLOODER = values.flooder ?? 'a-flood';
const VICTIM = values.victim ?? 'b-victim';
const impl = values.impl !== undefined ? path.resolve(values.impl) : new URL('../src/server/forecast-learner.js', import.meta.url).href;
const { ForecastLearner } = (await import(impl.startsWith('file:') ? impl : `file://${impl}`)) as typeof Learner;

const kept = (r: ForecastRun): ForecastRun => {
  const at = Int32Array.from(sampleSteps(r.length));
  const rows = new Float64Array(at.length * FEATURE_COUNT);
  at.forEach((t, k) => rows.set(r.rows.subarray((t - 1) * FEATURE_COUNT, t * FEATURE_COUNT), k * FEATURE_COUNT));
  return { ...r, at, rows };
};
let ids = 0;
/** A finished session with an outcome, as the learner reads one. */
const session = (r: ForecastRun, tenant: string): Session =>
  ({
    id: `s${++ids}`,
    task: r.task,
    agent: r.agent,
    model: r.model,
    passed: r.passed,
    tenant,
    principal: { tenant, role: 'agent' },
    forecastTrace: () => ({ length: r.length, at: r.at, rows: r.rows }),
  }) as unknown as Session;

const { found, naming } = readCorpusInput(positionals, { outcomes: values.outcomes, manifest: values.manifest }, process.cwd(), 'learn-fairness');
const named = nameRuns(nodeReportFs, found.trajectories, { ...naming, sources: [] });
const all = trainInput(named, await chooseReference(undefined), trainAnalyzers(defaultAnalyzers()), DEFAULT_CONFIG).runs.map(kept);
const bySource = new Map<string, ForecastRun[]>();
for (const r of all) bySource.set(sourceOf(r), [...(bySource.get(sourceOf(r)) ?? []), r]);
const sources = [...bySource.values()].sort((a, b) => b.length - a.length);
const [bRuns, aRuns] = [sources[0]!, sources.at(-1)!];
const holder = new ForecastHolder(await readForecastFile(bundledForecastFile()));
const learner = new ForecastLearner(holder, { intervalMs: INTERVAL, scope: 'tenant' }, pino({ level: 'silent' }));
for (let i = 0; i < B; i++) learner.add(session(bRuns[i % bRuns.length]!, FLOODER));
for (const r of aRuns) learner.add(session(r, VICTIM));
const triedBy = (t: string) => learner.attempts(t).filter((a) => a.tenant === t).length;
await learner.tick();
console.log(`${impl}: B ${FLOODER} ${B} sessions of ${sourceOf(bRuns[0]!)} (+1 every ${EVERY} ms), A ${VICTIM} ${aRuns.length} of ${sourceOf(aRuns[0]!)}; interval ${INTERVAL} ms`);
learner.start();
let k = 0;
const flood = setInterval(() => learner.add(session(bRuns[k++ % bRuns.length]!, FLOODER)), EVERY);
const latencies: number[] = [];
for (let i = 0; i < N; i++) {
  await new Promise((r) => setTimeout(r, Math.random() * 2 * INTERVAL));
  const before = triedBy(VICTIM);
  const t0 = performance.now();
  learner.add(session(aRuns[i % aRuns.length]!, VICTIM));
  while (triedBy(VICTIM) === before) await new Promise((r) => setTimeout(r, 5));
  latencies.push(performance.now() - t0);
}
clearInterval(flood);
await learner.stop();
const starts = learner
  .attempts(FLOODER)
  .filter((a) => a.tenant === FLOODER)
  .map((a) => Date.parse(a.at));
const gaps = starts.slice(1).map((t, i) => ((t - starts[i]!) / 1000).toFixed(1));
console.log(`A's report to refreshed attempt, ms: ${latencies.map((x) => x.toFixed(0)).join(' / ')}; B's attempts ${starts.length}, s between their starts: ${gaps.join(' / ')}`);

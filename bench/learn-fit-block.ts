/**
 * learn23 (issue 26 item 5, T103's "Left:"): how long a `serve --forecast-learn` attempt of fewer than
 * OFF_LOOP_FROM_ROWS rows holds the event loop every tenant's sockets share. Real runs with outcomes (one source,
 * the largest of the folders given) are kept as the learner keeps them (the sampled prefixes' rows); for each
 * target row count, the first sessions of that source up to it are fitted over the bundled forecaster, alternately
 * on the main thread (`main`), in a worker started for the fit (`once`, what `main` did from 512 rows) and in a worker
 * kept between fits (`kept`, retrain-thread.ts), while a 1 ms timer records the event loop's longest gap (what
 * another tenant's ping waits) and its active time. Also the fit's CPU on the main thread (`process.cpuUsage`).
 *
 *   npm run build && node dist/bench/learn-fit-block.js [--rows 100,200,300,400,511] [--pairs 4] \
 *     --manifest ../shared/calibration/manifest.jsonl ../shared/calibration
 */
import { readCorpusInput } from '../src/cli/corpus-input.js';
import { chooseReference } from '../src/cli/references.js';
import { trainAnalyzers, trainInput } from '../src/cli/train-runs.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { FEATURE_COUNT } from '../src/core/forecast/features.js';
import { retrainForecast } from '../src/core/forecast/retrain.js';
import { sampleSteps, sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { bundledForecastFile } from '../src/package-files.js';
import { nodeReportFs } from '../src/report/node-fs.js';
import { nameRuns } from '../src/report/run-naming.js';
import { retrainOffLoop, rowsOf } from '../src/server/retrain-off-loop.js';
import { RetrainThread } from '../src/server/retrain-thread.js';
import { readForecastFile } from '../src/settings-files.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberFlag, numberListFlag } from './args.js';

const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, rows: { type: 'string' }, pairs: { type: 'string' } },
});
const TARGETS = numberListFlag(values, 'rows', 'positive integer', [40, 100, 200, 300, 400, 511]);
const PAIRS = numberFlag(values, 'pairs', 'positive integer', 4);
// After the flags: a bad value is named before the missing folders (test/bench/bench-args.test.ts).
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration)');

/** What the learner keeps of a finished session: the rows at its sampled prefix lengths. */
function kept(r: ForecastRun): ForecastRun {
  const at = Int32Array.from(sampleSteps(r.length));
  const rows = new Float64Array(at.length * FEATURE_COUNT);
  at.forEach((t, k) => rows.set(r.rows.subarray((t - 1) * FEATURE_COUNT, t * FEATURE_COUNT), k * FEATURE_COUNT));
  return { id: r.id, task: r.task, agent: r.agent, model: r.model, passed: r.passed, length: r.length, at, rows };
}

/** The longest gap (ms) between turns of a 1 ms timer while `work` runs, and the loop's active time (ms) meanwhile. */
async function longestGap(work: () => Promise<unknown>): Promise<[number, number]> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  last = performance.now();
  worst = 0;
  const elu = performance.eventLoopUtilization();
  await work();
  const active = performance.eventLoopUtilization(elu).active;
  worst = Math.max(worst, performance.now() - last);
  clearInterval(timer);
  return [worst, active];
}

const { found, naming } = readCorpusInput(positionals, { outcomes: values.outcomes, manifest: values.manifest }, process.cwd(), 'learn-fit-block');
const named = nameRuns(nodeReportFs, found.trajectories, { ...naming, sources: [] });
const all = trainInput(named, await chooseReference(undefined), trainAnalyzers(defaultAnalyzers()), DEFAULT_CONFIG).runs.map(kept);
const bySource = new Map<string, ForecastRun[]>();
for (const r of all) bySource.set(sourceOf(r), [...(bySource.get(sourceOf(r)) ?? []), r]);
const [source, runs] = [...bySource.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
const current = await readForecastFile(bundledForecastFile());
const options = { now: '2026-12-07T00:00:00.000Z' };
const thread = new RetrainThread();
await retrainOffLoop(runs.slice(0, 30), current, options, 0, thread);
const VARIANTS = ['main', 'once', 'kept'] as const;
console.log(`source ${source}: ${runs.length} runs, ${rowsOf(runs)} rows; rounds ${PAIRS} (variants rotated)`);
console.log(`rows\tsessions\tresult\tfit CPU ms (main)\t${VARIANTS.map((v) => `longest gap ${v} ms`).join('\t')}\t${VARIANTS.map((v) => `loop active ${v} ms`).join('\t')}`);
for (const target of TARGETS) {
  const take: ForecastRun[] = [];
  for (const r of runs) if (rowsOf(take) + r.at.length <= target) take.push(r);
  const cpu: number[] = [];
  const gaps = new Map<string, number[]>(VARIANTS.map((v) => [v, []]));
  const actives = new Map<string, number[]>(VARIANTS.map((v) => [v, []]));
  let result = '';
  for (let p = 0; p < PAIRS; p++) {
    const c0 = process.cpuUsage();
    result = retrainForecast(take, current, options).kind;
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    // Rotated: main once kept, once kept main, kept main once, ...
    for (let k = 0; k < VARIANTS.length; k++) {
      const v = VARIANTS[(p + k) % VARIANTS.length]!;
      const fit = () => (v === 'main' ? retrainOffLoop(take, current, options, Number.POSITIVE_INFINITY) : retrainOffLoop(take, current, options, 0, v === 'kept' ? thread : undefined));
      const [gap, active] = await longestGap(fit);
      gaps.get(v)!.push(gap);
      actives.get(v)!.push(active);
    }
  }
  const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
  console.log(`${rowsOf(take)}\t${take.length}\t${result}\t${f(cpu)}\t${VARIANTS.map((v) => f(gaps.get(v)!)).join('\t')}\t${VARIANTS.map((v) => f(actives.get(v)!)).join('\t')}`);
}
await thread.close();

/**
 * Issue 26 item 3: why pPass orders most within-task (passing, failing) pairs right in the PTA-mode bench
 * (bench/pta-rules.ts, "within task") and yet closes little of the best-of-N gap in bench/rank.ts. Both figures,
 * with bootstrap intervals (core/stats separation and bestOfN, seed 1), for each forecaster on each set of groups:
 * - forecasters: the one bench/rank.ts reads (`--forecast-trials` scores SWE-agent 0.x + gpt-4, `--forecast-others`
 *   every other run: `steplens train`'s files, trained without the scored set) and the one the PTA benches fit
 *   (`leaveSourceOut` with DEFAULT_FIT: each run scored by a model fitted on every other source); the composite beside;
 * - sets: the runs of the PTA benches (a task with at least one other passing run, `ptaSamples`), all sources and
 *   SWE-agent 0.x + gpt-4 alone; SWE-agent 0.x + gpt-4's groups as bench/rank.ts ranks them (every task), and those
 *   of its groups the PTA benches leave out;
 * then, per group composition (1P2F: one passing, two failing), the pairs ordered right against the top picks.
 *
 *   npm run build && node dist/bench/rank-pairs.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv --forecast-trials F1 --forecast-others F2 ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { resolve } from 'node:path';
import { loadPtaDir } from '../src/cli/references.js';
import { ptaSamples } from '../src/cli/train-references.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { leaveSourceOut } from '../src/core/forecast/crossfit.js';
import { DEFAULT_FIT } from '../src/core/forecast/select.js';
import { priorFromPtas } from '../src/core/prior.js';
import { bestOfN } from '../src/core/stats/best-of-n.js';
import type { Interval } from '../src/core/stats/interval.js';
import { separation, type ScoredOutcome } from '../src/core/stats/separation.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { readForecastFile } from '../src/settings-files.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs } from './args.js';
import { ptaInput } from './pta-input.js';
import { gapOf, pairsAgainstTop } from './rank/pairs-top.js';
import { forecastEnd, loadRankRuns, type RankRun } from './rank/runs.js';
import { machineLine } from './report.js';
import { commandLine } from './timing.js';

const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, sources: { type: 'string' }, 'forecast-trials': { type: 'string' }, 'forecast-others': { type: 'string' } },
});
if (positionals.length !== 2 || values['forecast-trials'] === undefined || values['forecast-others'] === undefined)
  argsError('give --forecast-trials F1 --forecast-others F2 and the calibration and corpus folders');
const [calDir, corpusDir] = positionals.map((p) => resolve(p)) as [string, string];
const TRIALS = 'SWE-agent 0.x + gpt-4';

const { input, prior } = await ptaInput([calDir, corpusDir], values, 'rank-pairs');
const samples = ptaSamples(input.known, prior, defaultAnalyzers(), DEFAULT_CONFIG, 1);
const held = leaveSourceOut(input.runs, () => DEFAULT_FIT);
const zLoo = new Map<string, number>();
input.runs.forEach((r, i) => {
  const z = held.scores[i];
  if (z !== null && z !== undefined && z.length > 0) zLoo.set(r.id, z[z.length - 1]!);
});
const reference = { kind: 'prior' as const, prior: priorFromPtas(await loadPtaDir(bundledReferencesDir())) };
const { runs } = loadRankRuns({ paths: [calDir, corpusDir], manifest: values.manifest, sources: values.sources, reference, analyzers: defaultAnalyzers() });
const isTrials = (r: RankRun) => r.path.startsWith(`${calDir}/`) && r.source === TRIALS;
const pFile = new Map<string, number>();
for (const [file, pick] of [
  [values['forecast-trials'], isTrials],
  [values['forecast-others'], (r: RankRun) => !isTrials(r)],
] as const) {
  const rs = runs.filter(pick);
  forecastEnd(rs, await readForecastFile(file)).forEach((p, i) => pFile.set(rs[i]!.id, p));
}
const byId = new Map(runs.map((r) => [r.id, r]));
console.log(`command: ${commandLine(import.meta.url)}\n${machineLine()}`);
console.log(
  `${runs.length} runs ranked, ${samples.length} with a reference (PTA benches); load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

interface Run {
  id: string;
  source: string;
  task: string;
  passed: boolean;
}
const inSubset = new Set(samples.map((s) => s.id));
const informative = (rs: readonly RankRun[]) => {
  const tasks = new Map<string, boolean[]>();
  for (const r of rs) tasks.set(r.task, [...(tasks.get(r.task) ?? []), r.passed]);
  return new Set([...tasks].filter(([, o]) => o.includes(true) && o.includes(false)).map(([t]) => t));
};
const trials = runs.filter(isTrials);
const left = informative(trials);
const SETS: Array<[string, Run[]]> = [
  ['PTA benches: runs with a reference, all sources', samples.map((s) => ({ id: s.id!, source: s.source, task: s.task ?? '', passed: s.passed }))],
  [`PTA benches: runs with a reference, ${TRIALS}`, samples.filter((s) => s.source === TRIALS).map((s) => ({ id: s.id!, source: s.source, task: s.task ?? '', passed: s.passed }))],
  [`rank bench: ${TRIALS}, every task`, trials],
  [`rank bench: ${TRIALS}, the tasks the PTA benches leave out`, trials.filter((r) => left.has(r.task) && !trials.some((q) => q.task === r.task && inSubset.has(q.id)))],
];
const SCORES: Array<[string, (id: string) => number]> = [
  ["pPass, the rank bench's forecasters (train files)", (id) => pFile.get(id) ?? Number.NaN],
  ["pPass, the PTA benches' forecaster (DEFAULT_FIT, leave one source out)", (id) => zLoo.get(id) ?? Number.NaN],
  ['composite, reference-free', (id) => byId.get(id)?.composite ?? Number.NaN],
];
const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));
const iv = (i: Interval | null) => (i === null ? '' : ` [${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`);
const scoredOf = (rs: readonly Run[], f: (id: string) => number): ScoredOutcome[] => rs.map((r) => ({ source: r.source, task: r.task, pass: r.passed, score: f(r.id) }));

console.log('\n| set | score | within-task pairs right [95 % CI] (pairs, groups) | top pick / random / oracle | gap closed [95 % CI] (informative groups) |');
console.log('| --- | --- | --- | --- | --- |');
for (const [set, rs] of SETS)
  for (const [name, f] of SCORES) {
    const scored = scoredOf(rs, f);
    const wt = separation(scored, { seed: 1 }).withinTask;
    const b = bestOfN(scored, { seed: 1, reps: 1000 });
    console.log(
      `| ${set} | ${name} | ${f3(wt.auroc)}${iv(wt.interval)} (${wt.pairs}, ${wt.tasks}) | ${b.top.resolved?.toFixed(1) ?? '-'} / ${b.random.resolved.toFixed(1)} / ${b.oracle.resolved.toFixed(1)} | ${f3(b.gapClosed)}${iv(b.gapInterval)} (${b.informative}) |`,
    );
  }

console.log('\nPer group composition (groups with a passing and a failing run):\n');
console.log('| set | score | kind | groups | pairs right | groups with all / some / no pairs right | top tied | top pick / random / oracle | gap closed |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [set, rs] of SETS.slice(1, 3))
  for (const [name, f] of SCORES)
    for (const c of pairsAgainstTop(scoredOf(rs, f)))
      console.log(
        `| ${set} | ${name} | ${c.kind} | ${c.groups} | ${c.right} of ${c.pairs} (${f3(c.right / c.pairs)}) | ${c.allRight} / ${c.someRight} / ${c.noneRight} | ${c.tiedTop} | ${c.top.toFixed(1)} / ${c.random.toFixed(1)} / ${c.oracle} | ${f3(gapOf(c))} |`,
      );

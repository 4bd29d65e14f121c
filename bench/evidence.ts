/**
 * Issue 26, item 1: each content-aware evidence value measured alone, within source. For
 * every value (src/core/evidence, oriented the way it was expected to point before it was
 * measured) and for run length alone, by `separation` (src/core/stats, docs/method.md
 * section 16): AUROC within each source (agent + model) with n (pass/fail) and a seeded
 * bootstrap 95 % interval resampling tasks (as report and train do: a task's runs are not
 * independent, SWE-agent 0.x + gpt-4 ran each task three times), the within-source mean, within task, and pooled beside source
 * only; at the end of the run and after steps 10, 20, 40 (runs that reached them). Sources
 * under --min-runs runs get no column of their own (a table at the end lists them). Reads
 * only the paths it is given.
 *
 *   npm run build && node dist/bench/evidence.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--seed 1] [--resamples 1000] [--min-runs 20] [--json FILE] \
 *     ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { EVIDENCE_NAMES } from '../src/core/evidence/evidence.js';
import type { Interval } from '../src/core/stats/interval.js';
import { separation, type ScoredOutcome, type Separation } from '../src/core/stats/separation.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { HORIZONS, loadEvidenceRuns, type EvidenceRun } from './evidence/runs.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';
import { EXPECTED } from './evidence/expected.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, seed: { type: 'string' }, resamples: { type: 'string' }, 'min-runs': { type: 'string' } },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const seed = numberFlag(values, 'seed', 'non-negative integer', 1);
const resamples = numberFlag(values, 'resamples', 'positive integer', 1000);
const minRuns = numberFlag(values, 'min-runs', 'positive integer', 20);

const started = Date.now();
const { runs, skipped } = loadEvidenceRuns({ paths: positionals, manifest: values.manifest, outcomes: values.outcomes, sources: values.sources });
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${runs.length} runs (${runs.filter((r) => r.passed).length} passing), ${skipped} trajectories without a pass/fail outcome or steps skipped; loaded and fed in ${((Date.now() - started) / 1000).toFixed(1)} s; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

/** The columns: each source with --min-runs runs and both outcomes on its own, then the within-source mean (every source with 3 passing and 3 failing runs), within task and pooled (`separation`, src/core/stats). */
const bySource = new Map<string, EvidenceRun[]>();
for (const r of runs) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
const big = [...bySource]
  .filter(([, rs]) => rs.length >= minRuns && rs.some((r) => r.passed) && rs.some((r) => !r.passed))
  .sort((a, b) => b[1].length - a[1].length)
  .map(([s]) => s);

type Pick = (r: EvidenceRun) => number | undefined;
const measure = (pick: Pick, sign: number) => {
  const scored: ScoredOutcome[] = runs.flatMap((r) => {
    const v = pick(r);
    return v === undefined ? [] : [{ source: r.source, task: r.task, pass: r.passed, score: sign * v }];
  });
  return { sep: separation(scored, { reps: resamples, seed, unit: 'task' }), nonzero: scored.filter((s) => s.score !== 0).length, n: scored.length };
};
const iv = (a: number | null, i: Interval | null) => (a === null ? '-' : `${a.toFixed(3)} [${i === null ? '-' : `${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}`}]`);
const sourceCell = (sep: Separation, s: string) => {
  const x = sep.withinSource.sources.find((y) => y.source === s);
  return x === undefined ? '-' : iv(x.auroc, x.interval);
};

const figures: Record<string, number> = {};
const small: string[] = [];
const table = (title: string, at: 'end' | (typeof HORIZONS)[number]) => {
  const vec = (r: EvidenceRun) => (at === 'end' ? r.end : r.at[at]);
  console.log(`\n### ${title}\n`);
  const head = measure((r) => (vec(r) === undefined ? undefined : 0), 1).sep;
  const n = (s: string) => {
    const x = head.withinSource.sources.find((y) => y.source === s);
    return x === undefined ? '0 / 0' : `${x.nPass} / ${x.nFail}`;
  };
  console.log(
    `| evidence (expected direction) | ${big.map((s) => `${s} (${n(s)})`).join(' | ')} | within-source mean (${head.withinSource.counted} sources with ≥ 3 / 3) | within task (${head.withinTask.pairs} pairs, ${head.withinTask.tasks} tasks) | pooled [95 %] (source alone: a point) | not 0 (runs) |`,
  );
  console.log(`| --- | ${big.map(() => '---').join(' | ')} | --- | --- | --- | --- |`);
  const row = (label: string, pick: Pick, sign: number, key: string) => {
    const { sep, nonzero, n: runsOf } = measure(pick, sign);
    // The pooled AUROC with its interval and the share of non-zero values with its n (audit26: both were bare).
    console.log(
      `| ${label} | ${big.map((s) => sourceCell(sep, s)).join(' | ')} | ${iv(sep.withinSource.mean, sep.withinSource.interval)} | ${iv(sep.withinTask.auroc, sep.withinTask.interval)} | ${iv(sep.pooled.auroc, sep.pooled.interval)} (${sep.pooled.sourceOnly?.toFixed(3) ?? '-'}) | ${nonzero} / ${runsOf} (${Math.round((100 * nonzero) / Math.max(1, runsOf))} %) |`,
    );
    if (sep.withinSource.mean !== null) figures[`${at}.${key}.withinSourceMean`] = sep.withinSource.mean;
    for (const x of sep.withinSource.sources) if (x.auroc !== null) figures[`${at}.${key}.${x.source}`] = x.auroc;
    if (at === 'end')
      small.push(
        `| ${label} | ${sep.withinSource.sources
          .filter((x) => !big.includes(x.source) && x.auroc !== null)
          .map((x) => `${x.source} (${x.nPass}/${x.nFail}) ${x.auroc!.toFixed(2)}${x.interval === null ? ' [-]' : ` [${x.interval.lo.toFixed(2)}, ${x.interval.hi.toFixed(2)}]`}`)
          .join('; ')} |`,
      );
  };
  EVIDENCE_NAMES.forEach((name, k) => row(`${name} (${EXPECTED[name] > 0 ? '+' : '−'})`, (r) => vec(r)?.[k], EXPECTED[name], name));
  if (at === 'end') {
    // Tried: patch size among runs whose final patch changes source (an empty patch fails, and counts 0 files).
    const empty = EVIDENCE_NAMES.indexOf('patchEmpty');
    for (const name of ['patchFiles', 'patchLines'] as const) {
      const k = EVIDENCE_NAMES.indexOf(name);
      row(`${name}, non-empty patches only (−)`, (r) => (r.end[empty] === 1 ? undefined : r.end[k]), -1, `${name}.nonEmpty`);
    }
    // Run length: the steps so far at a horizon are the same for every run that reached it, so only the end has a length row.
    row('run length alone (shorter wins)', (r) => r.length, -1, 'length');
  }
};
console.log(
  `\nEach cell: AUROC of the value times its expected direction (> 0.5: it points the way expected) [bootstrap 95 % interval, tasks resampled, ${resamples} resamples, seed ${seed}]; "not 0": the runs where the value is not 0, of the runs that have it; pooled: every run of every source together, beside the AUROC of each run's source mean alone (a point: what telling sources apart earns).`,
);
table('At the end of the run', 'end');
for (const h of HORIZONS) table(`After step ${h} (runs that reached it)`, h);
console.log(`\n### Sources under ${minRuns} runs (AUROC at the end, in the within-source mean when ≥ 3 / 3)\n`);
console.log('| evidence | sources (pass/fail) AUROC |\n| --- | --- |');
for (const line of small) console.log(line);
const seen = (rs: readonly EvidenceRun[]) => rs.filter((r) => r.submitted).length;
console.log(`\nsubmitted diff seen (patch values from it): ${[...bySource].map(([s, rs]) => `${s} ${seen(rs)} / ${rs.length} (${Math.round((100 * seen(rs)) / rs.length)} %)`).join('; ')}`);
writeResult(jsonFile, { bench: 'evidence', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

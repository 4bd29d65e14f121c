/**
 * Issue 26, item 1: each content-aware evidence value measured alone, within source. For
 * every value (src/core/evidence, oriented the way it was expected to point before it was
 * measured) and for run length alone: AUROC of passing vs failing runs within each source
 * (agent + model) with n (pass/fail) and a seeded bootstrap 95 % interval, at the end of
 * the run and after steps 10, 20, 40 (runs that reached them); sources under --min-runs
 * runs are pooled as "small sources" counting only pairs within one source. Reads only
 * the paths it is given.
 *
 *   npm run build && node dist/bench/evidence.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--seed 1] [--resamples 1000] [--min-runs 20] [--json FILE] \
 *     ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { EVIDENCE_NAMES, type EvidenceName } from '../src/core/evidence/evidence.js';
import { HORIZONS, loadEvidenceRuns, type EvidenceRun } from './evidence/runs.js';
import { bootstrapInterval, withinGroupAuroc, type Sample } from './evidence/stats.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, seed: { type: 'string' }, resamples: { type: 'string' }, 'min-runs': { type: 'string' } },
});
if (positionals.length === 0) throw new Error('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const seed = Number(values.seed ?? 1);
const resamples = Number(values.resamples ?? 1000);
const minRuns = Number(values['min-runs'] ?? 20);

/** The direction each value was expected to point (+1: higher means passing more likely), fixed before measuring. */
const EXPECTED: Record<EvidenceName, 1 | -1> = {
  testSeen: 1,
  testPassed: 1,
  testFailed: -1,
  testPassShare: 1,
  checkAfterEdit: 1,
  reproFailedBeforeEdit: 1,
  reproFlipped: 1,
  errorSinceEdit: -1,
  errorLast: -1,
  patchEmpty: -1,
  patchTestOnly: -1,
  patchFiles: -1,
  patchLines: -1,
  editedReadShare: 1,
  editedTraceShare: 1,
};

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

/** The columns: each source with --min-runs runs and both outcomes, the small sources pooled (pairs within a source only), all sources (the same). */
const counts = new Map<string, EvidenceRun[]>();
for (const r of runs) counts.set(r.source, [...(counts.get(r.source) ?? []), r]);
const big = [...counts].filter(([, rs]) => rs.length >= minRuns && rs.some((r) => r.passed) && rs.some((r) => !r.passed)).map(([s]) => s);
big.sort((a, b) => counts.get(b)!.length - counts.get(a)!.length);
const columns: Array<{ name: string; runs: EvidenceRun[] }> = [
  ...big.map((s) => ({ name: s, runs: counts.get(s)! })),
  { name: `small sources (< ${minRuns} runs; pairs within a source)`, runs: runs.filter((r) => !big.includes(r.source)) },
  { name: 'all (pairs within a source)', runs },
];

type Pick = (r: EvidenceRun) => number | undefined;
const rowOf = (pick: Pick, sign: number, col: EvidenceRun[]) => {
  const samples: Sample[] = col.flatMap((r) => {
    const v = pick(r);
    return v === undefined ? [] : [{ group: r.source, passed: r.passed, value: sign * v }];
  });
  const a = withinGroupAuroc(samples);
  const ci = a === null ? null : bootstrapInterval(samples, resamples, seed);
  return { auroc: a, ci, pass: samples.filter((s) => s.passed).length, fail: samples.filter((s) => !s.passed).length, nonzero: samples.filter((s) => s.value !== 0).length };
};
const cell = (x: ReturnType<typeof rowOf>) => (x.auroc === null ? '-' : `${x.auroc.toFixed(3)} [${x.ci![0].toFixed(2)}, ${x.ci![1].toFixed(2)}]`);

const figures: Record<string, number> = {};
const table = (title: string, at: 'end' | (typeof HORIZONS)[number]) => {
  const vec = (r: EvidenceRun) => (at === 'end' ? r.end : r.at[at]);
  const reached = (r: EvidenceRun) => (at === 'end' ? true : r.length >= at);
  console.log(`\n### ${title}\n`);
  console.log(`| evidence (expected direction) | ${columns.map((c) => c.name).join(' | ')} |`);
  console.log(`| --- | ${columns.map(() => '---').join(' | ')} |`);
  const n = columns.map((c) => rowOf((r) => (reached(r) ? 0 : undefined), 1, c.runs));
  console.log(`| runs (pass / fail) | ${n.map((x) => `${x.pass} / ${x.fail}`).join(' | ')} |`);
  EVIDENCE_NAMES.forEach((name, k) => {
    const xs = columns.map((c) => rowOf((r) => vec(r)?.[k], EXPECTED[name], c.runs));
    xs.forEach((x, j) => {
      if (x.auroc !== null) figures[`${at}.${name}.${columns[j]!.name}`] = x.auroc;
    });
    console.log(`| ${name} (${EXPECTED[name] > 0 ? '+' : '−'}) | ${xs.map((x) => `${cell(x)} · ${x.pass + x.fail === 0 ? '-' : Math.round((100 * x.nonzero) / (x.pass + x.fail))} %`).join(' | ')} |`);
  });
  // Run length: the steps so far at a horizon are the same for every run that reached it, so only the end has a length row.
  if (at === 'end') {
    const xs = columns.map((c) => rowOf((r) => r.length, -1, c.runs));
    console.log(`| run length alone (shorter wins) | ${xs.map(cell).join(' | ')} |`);
    xs.forEach((x, j) => {
      if (x.auroc !== null) figures[`end.length.${columns[j]!.name}`] = x.auroc;
    });
  }
};
console.log(`\nEach cell: within-source AUROC of the value times its expected direction [bootstrap 95 % interval, ${resamples} resamples, seed ${seed}] · share of the runs where the value is not 0.`);
table('At the end of the run', 'end');
for (const h of HORIZONS) table(`After step ${h} (runs that reached it)`, h);
console.log(`\nsubmitted diff seen (patch values from it): ${columns.map((c) => `${c.name} ${Math.round((100 * c.runs.filter((r) => r.submitted).length) / c.runs.length)} %`).join('; ')}`);
writeResult(jsonFile, { bench: 'evidence', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

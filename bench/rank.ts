/**
 * Issue 26 item 3: which score should `steplens rank` order a group of runs of one task by, when
 * no run is known to pass and there is no reference? Best-of-N (`bestOfN`, src/core/stats,
 * docs/method.md section 16) for each candidate score, on each set of groups:
 * - within source: SWE-agent 0.x + gpt-4's three trials of each of 240 tasks (source + task groups);
 * - every other run (CodeR, mini-swe-agent, the corpus), grouped by task whatever its agent (what
 *   `rank` is given when a team compares agents on one task); the two sets share no run;
 * and, described only: calibration and corpus task groups, corpus groups within source.
 * The choice is held out: the candidate with the largest gap closed on one set is reported on the other.
 * pPass is the forecaster `steplens train` fits without the set's runs (`--forecast-trials`: trained
 * without SWE-agent 0.x + gpt-4; `--forecast-others`: trained on SWE-agent 0.x + gpt-4 only).
 *
 *   npm run build && node dist/bench/rank.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv --forecast-trials F1 --forecast-others F2 \
 *     ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { basename, resolve } from 'node:path';
import { loadPtaDir } from '../src/cli/references.js';
import { EVIDENCE_NAMES } from '../src/core/evidence/evidence.js';
import { priorFromPtas } from '../src/core/prior.js';
import { buildPta } from '../src/core/pta/index.js';
import { consensusScores, locationItems } from '../src/core/rank/consensus.js';
import { softVoteScores, voteScores } from '../src/core/rank/vote.js';
import { createScorer } from '../src/core/scorer.js';
import type { Analyzers } from '../src/core/ports.js';
import { bestOfN, type BestOfN } from '../src/core/stats/best-of-n.js';
import type { Interval } from '../src/core/stats/interval.js';
import { separation, type ScoredOutcome } from '../src/core/stats/separation.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { readForecastFile } from '../src/settings-files.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { comboGrid, comboName, comboScores } from './rank/combo.js';
import { bordaScores } from './rank/group-ranks.js';
import { oneForecasterPPass } from './rank/one-forecaster.js';
import { pairedGap } from './rank/paired-gap.js';
import { forecastEnd, loadRankRuns, type RankRun } from './rank/runs.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';
import { EXPECTED } from './evidence/expected.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: {
    manifest: { type: 'string' },
    sources: { type: 'string' },
    'forecast-trials': { type: 'string' },
    'forecast-others': { type: 'string' },
    'trials-source': { type: 'string' },
    seed: { type: 'string' },
    resamples: { type: 'string' },
  },
});
if (positionals.length !== 2) argsError('give the calibration and corpus folders (../shared/calibration ../shared/corpus)');
const seed = numberFlag(values, 'seed', 'non-negative integer', 1);
const reps = numberFlag(values, 'resamples', 'positive integer', 1000);
const [calDir, corpusDir] = positionals.map((p) => resolve(p)) as [string, string];

const started = Date.now();
const analyzers: Analyzers = defaultAnalyzers();
const reference = { kind: 'prior' as const, prior: priorFromPtas(await loadPtaDir(bundledReferencesDir())) };
const { runs, skipped } = loadRankRuns({ paths: [calDir, corpusDir], manifest: values.manifest, sources: values.sources, reference, analyzers });
const inCal = (r: RankRun) => r.path.startsWith(`${calDir}/`);
/** The source with repeated trials of each task (the within-source set); every other run is in the cross-agent set. */
const TRIALS = values['trials-source'] ?? 'SWE-agent 0.x + gpt-4';
const isTrials = (r: RankRun) => inCal(r) && r.source === TRIALS;
// pPass from a model that never saw the run's own set; a group scored by both files gets none (one-forecaster.ts).
const pPass = new Map<RankRun, number>();
const forecasterOf = new Map<RankRun, string>();
for (const [flag, pick] of [
  ['forecast-trials', isTrials],
  ['forecast-others', (r: RankRun) => !isTrials(r)],
] as const) {
  const file = values[flag];
  if (file === undefined) continue;
  const rs = runs.filter(pick);
  forecastEnd(rs, await readForecastFile(file)).forEach((p, i) => {
    pPass.set(rs[i]!, p);
    forecasterOf.set(rs[i]!, flag);
  });
}
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${runs.length} runs (${runs.filter((r) => r.passed).length} passing), ${skipped} skipped (no pass/fail outcome, no steps or no task); loaded in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

// The shipped consensus reads edit locations from the states; the labeler's own source edits must give the same.
const sameLocations = runs.filter((r) => {
  const a = locationItems(r.states);
  return a.size === r.footprint.location.length && r.footprint.location.every((k) => a.has(k));
}).length;
console.log(`edit locations from the states equal the labeler's source edits on ${sameLocations} of ${runs.length} runs`);

/** A candidate: the scores of one group's runs (higher = pick first). */
interface Candidate {
  name: string;
  score: (group: readonly RankRun[]) => number[];
}

/** Composite against a PTA built from the group's other runs (the group's own consensus reference). */
const groupPta = (group: readonly RankRun[]): number[] =>
  group.map((r, i) => {
    const others = group.filter((_, j) => j !== i).map((x) => x.states);
    const scorer = createScorer({ reference: { kind: 'pta', pta: buildPta(r.task, others) }, analyzers });
    for (const s of r.steps) scorer.push(s);
    return scorer.score().total;
  });

const then = (a: number[], b: number[]) => a.map((x, i) => x + 1e-6 * b[i]!);
const composite = (g: readonly RankRun[]) => g.map((r) => r.composite / 100);
const patchConsensus = (g: readonly RankRun[]) => consensusScores(g.map((r) => new Set(r.footprint.patch)));
// The shipped consensus (`rank --consensus`): edit locations read from the states.
const locationConsensus = (g: readonly RankRun[]) => consensusScores(g.map((r) => locationItems(r.states)));
const patchVote = (g: readonly RankRun[]) => voteScores(g.map((r) => r.finalPatch));
const softVote = (g: readonly RankRun[]) => softVoteScores(g.map((r) => r.finalPatch));
const evidenceOf = (g: readonly RankRun[], n: (typeof EVIDENCE_NAMES)[number]) => g.map((r) => r.evidence[EVIDENCE_NAMES.indexOf(n)]!);
const ppassOf = (g: readonly RankRun[]) => oneForecasterPPass(g, pPass, forecasterOf);
const borda = (g: readonly RankRun[]) => bordaScores([ppassOf(g), composite(g)]);
const votePPass = (g: readonly RankRun[]) => then(patchVote(g), ppassOf(g));
const voteCheckPPass = (g: readonly RankRun[]) => then(patchVote(g), then(evidenceOf(g, 'checkAfterEdit'), ppassOf(g)));
const bordaThenPPass = (g: readonly RankRun[]) => then(borda(g), ppassOf(g));
const voteBordaPPass = (g: readonly RankRun[]) => then(patchVote(g), then(borda(g), ppassOf(g)));
/**
 * The third round's candidates, named before they were measured, and the rule that decides (also fixed in advance):
 * the held-out choice and the choice on both sets are the bench's (largest gap closed; ties: within-task AUROC).
 * One ships as the default only if it is the held-out choice on both sets, beats the default (the reference-free
 * composite) held out on both, and its paired gap minus the default's (same resampled groups) has a 95 % interval
 * above 0 on both sets; otherwise as an option only if it is the choice on both sets together; otherwise not at all.
 */
const PREREGISTERED = ['(e) vote, then pPass', '(f) vote, then checkAfterEdit, then pPass', '(g) Borda of pPass and composite, then pPass', '(h) vote, then Borda of pPass and composite, then pPass'];
const CANDIDATES: Candidate[] = [
  { name: 'composite, reference-free', score: composite },
  { name: 'pPass (forecaster trained without the set)', score: ppassOf },
  { name: 'consensus: final patch lines', score: patchConsensus },
  { name: 'consensus: edit locations', score: locationConsensus },
  { name: 'consensus: patch lines, then composite', score: (g) => then(patchConsensus(g), composite(g)) },
  { name: 'consensus: locations, then composite', score: (g) => then(locationConsensus(g), composite(g)) },
  { name: 'patchCompact, then composite', score: (g) => then(evidenceOf(g, 'patchCompact'), composite(g)) },
  { name: 'patchCompact, then patch consensus', score: (g) => then(evidenceOf(g, 'patchCompact'), patchConsensus(g)) },
  { name: 'consensus: PTA of the other runs', score: groupPta },
  // Issue 26 item 3, fixed in advance (not chosen on these groups): a passing test or reproduction run after the last source edit first.
  { name: 'checkAfterEdit, then composite', score: (g) => then(evidenceOf(g, 'checkAfterEdit'), composite(g)) },
  { name: 'checkAfterEdit, then locations consensus, then composite', score: (g) => then(evidenceOf(g, 'checkAfterEdit'), then(locationConsensus(g), composite(g))) },
  // Issue 26 item 3, Agentless-style vote on normalised final patches (src/core/rank/final-patch.ts), fixed in advance
  // (commit named in docs/rank.md, before any was measured): the class size of identical patches (empty: 0), the
  // soft vote (mean Jaccard of changed-line sets), and the vote with a check after the last edit between.
  { name: 'vote: identical normalised patches, then composite', score: (g) => then(patchVote(g), composite(g)) },
  { name: 'soft vote: normalised changed lines, then composite', score: (g) => then(softVote(g), composite(g)) },
  { name: 'vote, then checkAfterEdit, then composite', score: (g) => then(patchVote(g), then(evidenceOf(g, 'checkAfterEdit'), composite(g))) },
  { name: 'vote, then soft vote, then composite', score: (g) => then(patchVote(g), then(softVote(g), composite(g))) },
  // Issue 26 item 3, third round, fixed in advance (commit named in docs/rank.md, before any was measured): the
  // forecaster's pPass (trained without the set) in place of the composite, and pPass combined with the composite by
  // their ranks within the group (Borda: scale-free; pPass ranked alone keeps its order, so it is not a candidate).
  ...PREREGISTERED.map((name, k) => ({ name, score: [votePPass, voteCheckPPass, bordaThenPPass, voteBordaPPass][k]! })),
  ...EVIDENCE_NAMES.map((n, k) => ({ name: `evidence ${n} (${EXPECTED[n] > 0 ? '+' : '−'})`, score: (g: readonly RankRun[]) => g.map((r) => EXPECTED[n] * r.evidence[k]!) })),
  { name: 'run length (shorter first)', score: (g) => g.map((r) => -r.length) },
];

/** A set of groups: which runs, and how they are grouped (by source + task, or by task alone). */
interface GroupSet {
  name: string;
  runs: RankRun[];
  byTask: boolean;
  /** Used to choose the shipped default (leave one set out). */
  chooses: boolean;
}
const SETS: GroupSet[] = [
  { name: `${TRIALS}: its trials of each task (within source)`, runs: runs.filter(isTrials), byTask: false, chooses: true },
  { name: 'every other run, by task (any agent)', runs: runs.filter((r) => !isTrials(r)), byTask: true, chooses: true },
  { name: `${basename(calDir)}, by task (any agent)`, runs: runs.filter(inCal), byTask: true, chooses: false },
  { name: `${basename(corpusDir)}, by task (any agent)`, runs: runs.filter((r) => !inCal(r)), byTask: true, chooses: false },
  { name: `${basename(corpusDir)}, within source`, runs: runs.filter((r) => !inCal(r)), byTask: false, chooses: false },
];

function groupsOf(set: GroupSet): RankRun[][] {
  const m = new Map<string, RankRun[]>();
  for (const r of set.runs) {
    const k = set.byTask ? r.task : `${r.source}\0${r.task}`;
    m.set(k, [...(m.get(k) ?? []), r]);
  }
  return [...m.values()].filter((g) => g.length >= 2);
}

interface Measured {
  best: BestOfN;
  withinTask: number | null;
  withinTaskInterval: Interval | null;
  informative: number;
  /** The scored runs (the paired gap against the default reads them). */
  scored: ScoredOutcome[];
}
function measure(set: GroupSet, c: Candidate): Measured | null {
  const scored: ScoredOutcome[] = [];
  for (const g of groupsOf(set)) {
    const s = c.score(g);
    if (s.some((x) => !Number.isFinite(x))) return null;
    g.forEach((r, i) => scored.push({ source: set.byTask ? 'group' : r.source, task: r.task, pass: r.passed, score: s[i]! }));
  }
  const best = bestOfN(scored, { reps, seed });
  const sep = separation(scored, { reps, seed });
  const informative = groupsOf(set).filter((g) => g.some((r) => r.passed) && g.some((r) => !r.passed)).length;
  return { best, withinTask: sep.withinTask.auroc, withinTaskInterval: sep.withinTask.interval, informative, scored };
}

const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));
// `[-]` where there is no interval (too few groups, or every draw alike), never a bare point.
const iv = (i: Interval | null) => (i === null ? ' [-]' : ` [${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`);
const rate = (x: BestOfN['top']) => `${x.resolved === null ? '-' : x.resolved.toFixed(1)} (${f3(x.rate)}${iv(x.interval)})`;
const results = new Map<string, Map<string, Measured | null>>();
const figures: Record<string, number> = {};
for (const set of SETS) {
  const groups = groupsOf(set);
  const m = new Map<string, Measured | null>();
  results.set(set.name, m);
  console.log(
    `\n### ${set.name}: ${groups.length} groups of ≥ 2 runs (${groups.reduce((a, g) => a + g.length, 0)} runs; sizes ${[...new Set(groups.map((g) => g.length))].sort((a, b) => a - b).join(', ')}), ${
      groups.filter((g) => g.some((r) => r.passed) && g.some((r) => !r.passed)).length
    } with a passing and a failing run\n`,
  );
  console.log('| candidate | top pick resolves (rate [95 % CI]) | random pick | oracle | gap closed [95 % CI] | within task AUROC [95 % CI] |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const c of CANDIDATES) {
    const x = measure(set, c);
    m.set(c.name, x);
    if (x === null) {
      console.log(`| ${c.name} | - | - | - | - | - |`);
      continue;
    }
    console.log(
      `| ${c.name} | ${rate(x.best.top)} | ${rate(x.best.random)} | ${rate(x.best.oracle)} | ${f3(x.best.gapClosed)}${iv(x.best.gapInterval)} | ${f3(x.withinTask)}${iv(x.withinTaskInterval)} |`,
    );
    if (x.best.gapClosed !== null) figures[`${set.name}.${c.name}.gapClosed`] = x.best.gapClosed;
  }
  const mixed = groups.filter((g) => new Set(g.map((r) => forecasterOf.get(r))).size > 1).length;
  if (mixed > 0)
    console.log(
      `\nNo pPass rows here: ${mixed} of these ${groups.length} groups hold runs scored by --forecast-trials and runs scored by --forecast-others (two forecasters in one group, each trained on the other part's source).`,
    );
}

// Per source: the groups of one agent + model's runs of one task (calibration and corpus), for the bases `rank` ships.
const PER_SOURCE = ['composite, reference-free', 'pPass (forecaster trained without the set)', 'consensus: locations, then composite', 'vote: identical normalised patches, then composite'];
const bySource = new Map<string, RankRun[]>();
for (const r of runs) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
console.log("\n### Per source: best-of-N among one source's runs of one task (groups of ≥ 2 runs)\n");
console.log('| source | basis | groups (runs) | with pass and fail | top pick resolves (rate [95 % CI]) | random pick | oracle | gap closed [95 % CI] |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [source, rs] of [...bySource].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  const set: GroupSet = { name: source, runs: rs, byTask: false, chooses: false };
  const groups = groupsOf(set);
  if (groups.length === 0) continue;
  const mixed = groups.filter((g) => g.some((r) => r.passed) && g.some((r) => !r.passed)).length;
  for (const name of PER_SOURCE) {
    const x = measure(
      set,
      CANDIDATES.find((c) => c.name === name)!,
    );
    if (x === null) continue;
    console.log(
      `| ${source} | ${name} | ${x.best.groups} (${x.best.runs}) | ${mixed} | ${rate(x.best.top)} | ${rate(x.best.random)} | ${rate(x.best.oracle)} | ${f3(x.best.gapClosed)}${iv(x.best.gapInterval)} |`,
    );
    if (x.best.gapClosed !== null) figures[`source.${source}.${name}.gapClosed`] = x.best.gapClosed;
  }
}

// Leave one set out: choose on the other choosing set(s) by gap closed (ties: within-task AUROC), report held out.
const choosing = SETS.filter((s) => s.chooses);
const key = (x: Measured | null | undefined): [number, number] => [x?.best.gapClosed ?? -Infinity, x?.withinTask ?? -Infinity];
const choose = (sets: readonly GroupSet[]): string => {
  const mean = (c: Candidate, k: 0 | 1) => sets.reduce((a, s) => a + key(results.get(s.name)!.get(c.name))[k], 0) / sets.length;
  return [...CANDIDATES].sort((a, b) => mean(b, 0) - mean(a, 0) || mean(b, 1) - mean(a, 1))[0]!.name;
};
console.log('\n### Held out: chosen on the other set, measured on this one\n');
console.log('| held-out set | chosen on the other | its gap closed held out | composite, reference-free, held out |');
console.log('| --- | --- | --- | --- |');
for (const held of choosing) {
  const chosen = choose(choosing.filter((s) => s !== held));
  const x = results.get(held.name)!.get(chosen);
  const c = results.get(held.name)!.get(CANDIDATES[0]!.name);
  console.log(`| ${held.name} | ${chosen} | ${f3(x?.best.gapClosed ?? null)}${iv(x?.best.gapInterval ?? null)} | ${f3(c?.best.gapClosed ?? null)}${iv(c?.best.gapInterval ?? null)} |`);
}
const bothSets = choose(choosing);
console.log(`\nchosen on both sets: ${bothSets}`);

// The third round's rule (PREREGISTERED, fixed before measuring): the paired gap against the default on each set, then the verdict.
console.log("\n### Third round (fixed in advance): paired gap closed minus the default's (same resampled groups)\n");
console.log(`| candidate | ${choosing.map((s) => s.name).join(' | ')} |`);
console.log(`| --- | ${choosing.map(() => '---').join(' | ')} |`);
const paired = (set: GroupSet, name: string) => {
  const x = results.get(set.name)!.get(name);
  const d = results.get(set.name)!.get(CANDIDATES[0]!.name);
  return x && d ? pairedGap(x.scored, d.scored, { reps, seed }) : null;
};
for (const name of [...PREREGISTERED, 'vote: identical normalised patches, then composite', 'vote, then checkAfterEdit, then composite', 'pPass (forecaster trained without the set)']) {
  console.log(
    `| ${name} | ${choosing
      .map((s) => {
        const p = paired(s, name);
        return p === null ? '-' : `${p.diff === null ? '-' : (p.diff >= 0 ? '+' : '') + p.diff.toFixed(3)}${iv(p.interval)}`;
      })
      .join(' | ')} |`,
  );
}
for (const name of PREREGISTERED) {
  const heldWins = choosing.every((held) => {
    const x = results.get(held.name)!.get(name)?.best.gapClosed ?? null;
    const d = results.get(held.name)!.get(CANDIDATES[0]!.name)?.best.gapClosed ?? null;
    return choose(choosing.filter((s) => s !== held)) === name && x !== null && d !== null && x > d;
  });
  const pairedAbove = choosing.every((s) => (paired(s, name)?.interval?.lo ?? -Infinity) > 0);
  const verdict = heldWins && pairedAbove ? 'the default' : bothSets === name ? 'an option' : 'not shipped';
  console.log(`${name}: held-out choice and ahead of the default on both sets: ${heldWins}; paired interval above 0 on both: ${pairedAbove}; choice on both sets: ${bothSets === name} -> ${verdict}`);
}
// Fourth round (calib14, issue 26 item 1; rank/combo.ts, grid and rule fixed before any point was measured): pPass
// plus the group's consensus (vote, locations) and checkAfterEdit by mid-ranks, the weights chosen on the other set.
const inputs = new Map<string, number[][]>();
const comboInputs = (g: readonly RankRun[]) => {
  const k = g.map((r) => r.path).join('\0');
  let x = inputs.get(k);
  if (x === undefined) inputs.set(k, (x = [ppassOf(g), patchVote(g), locationConsensus(g), evidenceOf(g, 'checkAfterEdit')]));
  return x;
};
const grid = comboGrid();
const comboResults = new Map(
  choosing.map((set) => [set.name, grid.map((w) => measure(set, { name: comboName(w), score: (g) => comboScores(w, ...(comboInputs(g) as [number[], number[], number[], number[]])) }))]),
);
const comboKey = (x: Measured | null): [number, number] => [x?.best.gapClosed ?? -Infinity, x?.withinTask ?? -Infinity];
/** The grid point with the largest mean gap closed on `sets` (ties: within-task AUROC, then the grid's order: fewer terms first). */
const chooseCombo = (sets: readonly GroupSet[]): number => {
  const mean = (k: number, j: 0 | 1) => sets.reduce((a, s) => a + comboKey(comboResults.get(s.name)![k]!)[j], 0) / sets.length;
  return grid.map((_, k) => k).sort((a, b) => mean(b, 0) - mean(a, 0) || mean(b, 1) - mean(a, 1) || a - b)[0]!;
};
console.log('\n### Fourth round (calib14, fixed in advance): pPass + consensus, weights chosen on the other set\n');
console.log(
  '| held-out set | weights chosen on the other | top pick resolves | gap closed held out [95 % CI] | within-task AUROC | pPass alone: gap closed | paired: chosen minus pPass alone [95 % CI] |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const held of choosing) {
  const k = chooseCombo(choosing.filter((s) => s !== held));
  const x = comboResults.get(held.name)![k]!;
  const p = comboResults.get(held.name)![0]!;
  const d = x && p ? pairedGap(x.scored, p.scored, { reps, seed }) : null;
  console.log(
    `| ${held.name} | ${comboName(grid[k]!)} | ${x ? rate(x.best.top) : '-'} | ${f3(x?.best.gapClosed ?? null)}${iv(x?.best.gapInterval ?? null)} | ${f3(x?.withinTask ?? null)}${iv(x?.withinTaskInterval ?? null)} | ${f3(p?.best.gapClosed ?? null)}${iv(p?.best.gapInterval ?? null)} | ${d?.diff == null ? '-' : (d.diff >= 0 ? '+' : '') + d.diff.toFixed(3)}${iv(d?.interval ?? null)} |`,
  );
  if (x?.best.gapClosed != null) figures[`combo.${held.name}.heldOut.gapClosed`] = x.best.gapClosed;
}
const comboBoth = chooseCombo(choosing);
console.log(`\nchosen on both sets (in-sample): ${comboName(grid[comboBoth]!)}: ${choosing.map((s) => `${s.name} ${f3(comboResults.get(s.name)![comboBoth]?.best.gapClosed ?? null)}`).join('; ')}`);
console.log(
  `best point on each set alone (in-sample, the ceiling of this grid): ${choosing.map((s) => `${s.name}: ${comboName(grid[chooseCombo([s])]!)} ${f3(comboResults.get(s.name)![chooseCombo([s])]?.best.gapClosed ?? null)}`).join('; ')}`,
);

writeResult(jsonFile, { bench: 'rank', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });

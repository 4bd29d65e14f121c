/**
 * What shadow mode costs (issue 14): for every real corpus trajectory, the
 * time to score its steps (`Scorer.push`, reference-free, what a session does
 * per step) against the time shadow mode spends on it when its session ends
 * with an outcome: the policy manager's `record` (each of the ~90 candidate
 * stops replayed over the run from one count profile per kind, the pair's
 * counters, the promotion rule) plus serialising the state it persists. Both
 * per step, measured in the same process, passes interleaved so drift hits
 * both alike; the figure is the median over passes of the per-pass ratio.
 * Target: shadow < 10 % of scoring.
 *
 *   npm run build && node dist/bench/shadow-cost.js [CORPUS_DIR] [PASSES=9] [--json FILE]
 */
import { pino } from 'pino';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { createScorer } from '../src/core/scorer.js';
import { PolicyManager } from '../src/server/policy-manager.js';
import { MemoryPolicyStateStore } from '../src/store/policy-state.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberArg } from './args.js';
import { findCorpus, loadCorpus } from './corpus.js';
import { machine, machineLine, takeJsonFlag, target, writeResult } from './report.js';
import { commandLine, fmt, printTable, ratio } from './timing.js';

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const { positionals } = benchArgs({ allowPositionals: true });
if (positionals.length > 2) argsError(`a corpus folder and a number of passes at most, not ${positionals.length} arguments`);
const passes = numberArg(positionals[1], 'PASSES', 'positive integer', 9);
const corpus = findCorpus(positionals[0]);
const { trajectories } = loadCorpus(corpus);
const runs = trajectories.filter((t) => t.steps.length > 0);
const steps = runs.reduce((s, t) => s + t.steps.length, 0);
const analyzers = defaultAnalyzers();
console.log(`command: ${command}`);
console.log(machineLine());
console.log(`${runs.length} trajectories, ${steps} steps; ${passes} passes after 1 warm-up pass`);

const manager = await PolicyManager.open(
  { groups: [], fallback: DEFAULT_POLICY },
  { share: 0.1, maxFalseStop: 0.05, confidence: 0.95, bound: 'clopper-pearson' },
  undefined,
  pino({ level: 'silent' }),
);
let scoreNs = 0n;
let recordNs = 0n;
const ratios: number[] = [];
const minScore = runs.map(() => Infinity);
const minRecord = runs.map(() => Infinity);
for (let pass = 0; pass <= passes; pass++) {
  let passScore = 0n;
  let passRecord = 0n;
  runs.forEach((t, i) => {
    // One pair per agent + model of the corpus (choosing the session's policy happens with or without shadow mode).
    const a = manager.assign('default', t.meta.agent ?? t.format, t.meta.model ?? 'unknown');
    const t0 = process.hrtime.bigint();
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const totals: number[] = [];
    for (const step of t.steps) totals.push(scorer.push({ ...step }).score.total);
    const t1 = process.hrtime.bigint();
    // Every run counted (outcomes alternate), as a shadow session's end would be.
    manager.record(a.key, { states: scorer.states(), totals, passed: i % 3 === 0 });
    const t2 = process.hrtime.bigint();
    passScore += t1 - t0;
    passRecord += t2 - t1;
    if (pass > 0) {
      minScore[i] = Math.min(minScore[i]!, Number(t1 - t0));
      minRecord[i] = Math.min(minRecord[i]!, Number(t2 - t1));
    }
  });
  if (pass === 0) continue;
  scoreNs += passScore;
  recordNs += passRecord;
  ratios.push(Number(passRecord) / Number(passScore));
}
const inOrder = [...ratios];
ratios.sort((x, y) => x - y);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const minShare = sum(minRecord) / sum(minScore);
// The persisted state is written at most once a second whatever the session rate: its cost per save.
const store = new MemoryPolicyStateStore();
const saves = 200;
const s0 = process.hrtime.bigint();
for (let i = 0; i < saves; i++) await store.save(JSON.parse(JSON.stringify(manager.snapshot())));
const saveUs = Number(process.hrtime.bigint() - s0) / 1000 / saves;
const perStep = (ns: bigint) => Number(ns) / 1000 / (steps * passes);
const score = perStep(scoreNs);
const record = perStep(recordNs);
printTable(
  ['per step', 'µs', 'vs scoring'],
  [
    ['scoring (Scorer.push, reference-free)', fmt(score, 1), '×1.00'],
    [`shadow counters: record at session end (${[...manager.pairs.values()][0]?.candidates.length ?? 0} candidates), per step`, fmt(record, 2), ratio(record, score)],
  ],
);
console.log(`state snapshot (${manager.pairs.size} pairs, written at most once a second): ${fmt(saveUs, 0)} µs per save = ${fmt(saveUs / 1e4, 3)} % of a second of one core`);
const share = ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
console.log(`record / scoring per pass, in order: ${inOrder.map((r) => `${fmt(100 * r, 1)} %`).join(', ')}; median ${fmt(100 * share, 1)} %`);
console.log(`per trajectory, fastest pass of each (what the code costs, without the machine's interruptions): record / scoring ${fmt(100 * minShare, 2)} %`);
const t = target('shadow counters per step / scoring per step (median pass)', 100 * share, '<', 10, '%');
writeResult(jsonFile, {
  bench: 'shadow-cost',
  command,
  machine: machine(),
  targets: [t],
  figures: { score_us_per_step: score, record_us_per_step: record, snapshot_us_per_save: saveUs, shadow_share_pct: 100 * share, shadow_share_fastest_pct: 100 * minShare, pairs: manager.pairs.size },
});

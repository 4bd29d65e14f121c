/**
 * Online vs batch: the per-step cost of the incremental scorer (`push`) at
 * steps 10, 100, 500 and 2,000 of a long trajectory, against the obvious
 * design, re-scoring the whole prefix (`scoreSteps(steps[0..c])`) at every step.
 * The trajectory is real corpus steps concatenated (long-trajectory.ts), with
 * the same 16 real steps (a probe) placed around every checkpoint, so each
 * checkpoint times the same steps at a different depth. Incremental: median of
 * the probe window's per-push times over `--runs` runs (after one warm-up run).
 * Batch: median over `--batch-runs` of one `scoreSteps` of the prefix up to the
 * checkpoint. Reference: the task's PTA from data/example (or `--reference prior`).
 * Target: incremental cost at step 2,000 <= 1.5 × at step 10.
 *
 *   node dist/bench/online-vs-batch.js [--checkpoints 10,100,500,2000] [--runs 7] [--batch-runs 3] [--reference pta|prior] [--json FILE]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { ptaFromJson } from '../src/core/pta/index.js';
import { createScorer, scoreSteps } from '../src/core/scorer.js';
import type { Reference } from '../src/core/scorer-api.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs, numberFlag, numberListFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus, loadCorpus, repoRoot } from './corpus.js';
import { longTrajectory } from './long-trajectory.js';
import { machine, machineLine, target, writeResult } from './report.js';
import { commandLine, fmt, printTable, ratio, summarize, usSince } from './timing.js';

const { values: args } = benchArgs({
  options: {
    checkpoints: { type: 'string', default: '10,100,500,2000' },
    runs: { type: 'string', default: '7' },
    'batch-runs': { type: 'string', default: '3' },
    reference: { type: 'string', default: 'pta' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const WINDOW = 16;
const PROBE_FROM = 8;

function reference(kind: string): Reference {
  if (kind === 'prior') return { kind: 'prior', prior: UNIFORM_PRIOR };
  const parsed = ptaFromJson(readFileSync(path.join(repoRoot(), 'data/example', `${SERVER_BENCH_TASK}.json`), 'utf8'));
  if (!parsed.ok) throw new Error(`data/example PTA: ${parsed.error}`);
  return { kind: 'pta', pta: parsed.value };
}

const checkpoints = numberListFlag(args, 'checkpoints', 'positive integer').sort((a, b) => a - b);
const runs = numberFlag(args, 'runs', 'positive integer');
const batchRuns = numberFlag(args, 'batch-runs', 'positive integer');
const { trajectories } = loadCorpus(findCorpus(args.corpus));
const source = trajectories.find((t) => t.file === SERVER_BENCH_FILE);
if (source === undefined) throw new Error(`${SERVER_BENCH_FILE} is not in the corpus`);
const probe = source.steps.slice(PROBE_FROM, PROBE_FROM + WINDOW);
const starts = checkpoints.map((c) => Math.max(0, c - WINDOW / 2));
const length = Math.max(...starts) + WINDOW;
const steps = longTrajectory(trajectories, length, probe, starts);
const ref = reference(args.reference ?? 'pta');
const analyzers = defaultAnalyzers();
const m = machine();

console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine(m));
console.log(
  `trajectory: ${length} real steps (${trajectories.length} corpus trajectories concatenated in order), probe = steps ${PROBE_FROM}-${PROBE_FROM + WINDOW - 1} of ${SERVER_BENCH_FILE} placed at ${starts.join(', ')}; reference: ${ref.kind === 'pta' ? `PTA ${SERVER_BENCH_TASK} (${ref.pta.nodes.length} nodes)` : 'prior'}`,
);

const windows = checkpoints.map(() => [] as number[]);
for (let r = 0; r <= runs; r++) {
  const scorer = createScorer({ reference: ref, analyzers });
  const times = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const t0 = process.hrtime.bigint();
    scorer.push(steps[i]!);
    times[i] = usSince(t0);
  }
  if (r > 0) starts.forEach((s, k) => windows[k]?.push(...times.subarray(s, s + WINDOW)));
}
const batch = checkpoints.map((c) => {
  const prefix = steps.slice(0, c + 1);
  scoreSteps(prefix.slice(0, Math.min(prefix.length, 50)), { reference: ref, analyzers });
  const out: number[] = [];
  for (let r = 0; r < batchRuns; r++) {
    const t0 = process.hrtime.bigint();
    scoreSteps(prefix, { reference: ref, analyzers });
    out.push(usSince(t0));
  }
  return summarize(out).median;
});

const incr = windows.map(summarize);
const base = incr[0]?.median ?? Number.NaN;
printTable(
  ['step', 'push median µs', 'push p90 µs', 'vs first', 're-score prefix ms', 're-score / push'],
  checkpoints.map((c, k) => {
    const s = incr[k];
    const xs = [...(windows[k] ?? [])].sort((a, b) => a - b);
    const p90 = xs[Math.floor(0.9 * (xs.length - 1))] ?? Number.NaN;
    return [
      String(c),
      fmt(s?.median ?? Number.NaN, 1),
      fmt(p90, 1),
      ratio(s?.median ?? Number.NaN, base),
      fmt((batch[k] ?? Number.NaN) / 1000, 2),
      ratio(batch[k] ?? Number.NaN, s?.median ?? Number.NaN),
    ];
  }),
);
const last = checkpoints.length - 1;
const figures: Record<string, number> = {};
checkpoints.forEach((c, k) => Object.assign(figures, { [`push_us_at_${c}`]: incr[k]?.median ?? Number.NaN, [`rescore_ms_at_${c}`]: (batch[k] ?? Number.NaN) / 1000 }));
const flat = (incr[last]?.median ?? Number.NaN) / base;
const targets = [target(`online-vs-batch push cost at step ${checkpoints[last]} / at step ${checkpoints[0]}`, flat, '<=', 1.5)];
console.log(`incremental beats re-scoring the prefix by ${ratio(batch[last] ?? Number.NaN, incr[last]?.median ?? Number.NaN)} at step ${checkpoints[last]}`);
writeResult(args.json, { bench: 'online-vs-batch', command: commandLine(import.meta.url), machine: m, targets, figures });

/**
 * Micro-benchmark: cost of `Scorer.push` per step over the longest real
 * trajectory of the shared corpus, reference-free (prior) and against PTAs,
 * with the server's unavoidable per-message cost as baseline measured in the
 * same run: `JSON.parse` of the `step` frame + zod `stepSchema.parse` of its
 * step. Prints median / p99 µs per step and ratios. No assertions.
 *
 *   npm run build && node dist/bench/push-per-step.js [CORPUS_DIR] [RUNS=200] [--json FILE]
 */
import path from 'node:path';
import { buildPta } from '../src/core/pta/index.js';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { createScorer } from '../src/core/scorer.js';
import type { Reference, Scorer } from '../src/core/scorer-api.js';
import type { State, Step } from '../src/core/types.js';
import { stepSchema } from '../src/formats/step-schema.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberArg } from './args.js';
import { findCorpus, loadCorpus, longest } from './corpus.js';
import { machine, takeJsonFlag, writeResult } from './report.js';
import { commandLine, fmt, printTable, ratio, summarize, usSince, type Summary } from './timing.js';

const WARMUP = 10;
const prior: Reference = { kind: 'prior', prior: UNIFORM_PRIOR };

/** One measured variant: a fresh context per pass and the per-step operation. */
interface Variant {
  label: string;
  fresh: () => unknown;
  op: (ctx: never, step: Step, i: number) => unknown;
}

/**
 * Per-step µs of each variant over `runs` passes after WARMUP passes; the
 * variants alternate pass by pass so machine drift hits them alike.
 */
function perStep(steps: readonly Step[], runs: number, variants: readonly Variant[]): Summary[] {
  const times = variants.map(() => [] as number[]);
  for (let r = 0; r < runs + WARMUP; r++) {
    variants.forEach((v, k) => {
      const ctx = v.fresh() as never;
      steps.forEach((step, i) => {
        const t0 = process.hrtime.bigint();
        v.op(ctx, step, i);
        const dt = usSince(t0);
        if (r >= WARMUP) times[k]?.push(dt);
      });
    });
  }
  return times.map(summarize);
}

function states(steps: readonly Step[]): State[] {
  const scorer = createScorer({ reference: prior, analyzers: defaultAnalyzers() });
  steps.forEach((s, i) => scorer.push({ ...s, t: i }));
  return [...scorer.states()];
}

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const { positionals } = benchArgs({ allowPositionals: true });
if (positionals.length > 2) argsError(`a corpus folder and a number of runs at most, not ${positionals.length} arguments`);
const runs = numberArg(positionals[1], 'RUNS', 'positive integer', 200);
const corpus = findCorpus(positionals[0]);
const { trajectories } = loadCorpus(corpus);
const target = longest(trajectories);
const steps = target.steps;
const task = target.meta.task ?? path.basename(target.file);
const siblings = trajectories.filter((t) => t !== target && t.meta.task === task);
const self = states(steps);

console.log(`command: ${command}`);
console.log(`trajectory: ${target.file} (${target.format}, ${steps.length} steps), ${runs} runs after ${WARMUP} warm-up runs`);

const frames = steps.map((step, seq) => JSON.stringify({ type: 'step', session: 'bench', seq, step }));
const variants: Variant[] = [
  {
    label: 'JSON.parse + stepSchema.parse',
    fresh: () => null,
    op: (_: never, __: Step, i: number) => stepSchema.parse((JSON.parse(frames[i]!) as { step: unknown }).step),
  },
];
const pushWith = (label: string, reference: Reference): Variant => ({
  label: `push, ${label}`,
  fresh: () => createScorer({ reference, analyzers: defaultAnalyzers() }),
  op: (scorer: Scorer, step: Step) => scorer.push(step),
});
variants.push(pushWith('prior (reference-free)', prior));
if (siblings.length > 0) {
  const pta = buildPta(
    task,
    siblings.map((t) => states(t.steps)),
  );
  variants.push(pushWith(`PTA: ${siblings.length} other runs of task (${pta.nodes.length - 1} nodes)`, { kind: 'pta', pta }));
}
const selfPta = buildPta(task, [self, self]);
variants.push(pushWith(`PTA: 2 self copies (${selfPta.nodes.length - 1} nodes)`, { kind: 'pta', pta: selfPta }));

const [base, ...pushes] = perStep(steps, runs, variants) as [Summary, ...Summary[]];
const priorMedian = pushes[0]?.median ?? Number.NaN;
printTable(
  ['per step', 'median µs', 'p99 µs', 'max µs', 'median/base', 'p99/base', 'median/prior'],
  [
    [variants[0]?.label ?? '', fmt(base.median, 2), fmt(base.p99, 2), fmt(base.max, 0), '×1.00', '×1.00', ''],
    ...pushes.map((s, k) => [variants[k + 1]?.label ?? '', fmt(s.median, 1), fmt(s.p99, 1), fmt(s.max, 0), ratio(s.median, base.median), ratio(s.p99, base.p99), ratio(s.median, priorMedian)]),
  ],
);
const figures: Record<string, number> = { base_median_us: base.median, base_p99_us: base.p99 };
pushes.forEach((s, k) => Object.assign(figures, { [`${variants[k + 1]?.label ?? k}: median_us`]: s.median, [`${variants[k + 1]?.label ?? k}: p99_us`]: s.p99 }));
writeResult(jsonFile, { bench: 'push-per-step', command, machine: machine(), targets: [], figures });

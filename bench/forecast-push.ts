/**
 * One sub-run of forecast.ts's push cost (bench/sub-runs.ts): the longest real corpus trajectory pushed through a
 * fresh scorer a pass, without and with the forecast model, in blocks of passes without, with, with, without
 * (bench/pass-schedule.ts) after warm-up blocks; prints, as one JSON line, each pass's wall µs (the sum of its
 * pushes' times) and CPU µs in schedule order, and the per-push summary of each variant's passes after one of
 * their own kind. forecast.ts runs it several times and reads the interval over the runs.
 *
 *   node dist/bench/forecast-push.js --model FORECAST_JSON [--corpus DIR] [--file CORPUS_FILE] [--runs N] [--warmup N]
 *   (--file: the corpus file of the trajectory, parsed alone; forecast.ts passes it, so a sub-run does not parse the
 *   whole corpus to find it; by default the longest trajectory of the corpus)
 */
import { readFileSync } from 'node:fs';
import { parseForecast } from '../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { createScorer } from '../src/core/scorer.js';
import type { Reference } from '../src/core/scorer-api.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { findCorpus, loadCorpus, loadFile, longest } from './corpus.js';
import { variantOfPass } from './pass-schedule.js';
import { summarize, usSince, type Summary } from './timing.js';

/** What a sub-run prints. */
export interface PushSubRun {
  file: string;
  steps: number;
  /** Per pass, in schedule order (warm-up blocks included: splitPasses drops them). */
  wall: number[];
  cpu: number[];
  /** Per push, the steady passes of each variant: [without, with]. */
  perStep: [Summary, Summary];
}

const { values } = benchArgs({ options: { model: { type: 'string' }, corpus: { type: 'string' }, file: { type: 'string' }, runs: { type: 'string' }, warmup: { type: 'string' } } });
const runs = numberFlag(values, 'runs', 'positive integer', 150);
const warmup = numberFlag(values, 'warmup', 'non-negative integer', 50);
if (values.model === undefined) argsError('--model FORECAST_JSON is required (the file `steplens train` wrote)');
const file = parseForecast(JSON.parse(readFileSync(values.model, 'utf8')));
if (!file.ok) argsError(`--model ${values.model}: ${file.error}`);
const model = file.value.models[0]!;
const t = longest(values.file !== undefined ? loadFile(findCorpus(values.corpus), values.file) : loadCorpus(findCorpus(values.corpus)).trajectories);
const prior: Reference = { kind: 'prior', prior: UNIFORM_PRIOR };
const analyzers = defaultAnalyzers();
const make = [() => createScorer({ reference: prior, analyzers }), () => createScorer({ reference: prior, analyzers, forecast: model })];
const wall: number[] = [];
const cpu: number[] = [];
const times: [number[], number[]] = [[], []];
for (let i = 0; i < 4 * (runs + warmup); i++) {
  const k = variantOfPass(i);
  const scorer = make[k]!();
  const steady = i >= 4 * warmup && (i % 4 === 0 || i % 4 === 2);
  let pass = 0;
  const c0 = process.cpuUsage();
  for (const step of t.steps) {
    const s0 = process.hrtime.bigint();
    scorer.push(step);
    const us = usSince(s0);
    pass += us;
    if (steady) times[k].push(us);
  }
  const c = process.cpuUsage(c0);
  wall.push(pass);
  cpu.push(c.user + c.system);
}
const out: PushSubRun = { file: t.file, steps: t.steps.length, wall, cpu, perStep: [summarize(times[0]), summarize(times[1])] };
console.log(JSON.stringify(out));

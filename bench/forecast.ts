/**
 * The forecaster's costs (issue 15): `steplens train` wall time on the
 * calibration set (the real CLI from dist, as a user runs it), and the
 * per-step `push` cost with the trained model loaded vs without, on the
 * longest real corpus trajectory, both variants alternating pass by pass in
 * one run.
 *
 *   npm run build && node dist/bench/forecast.js [--calibration DIR] [--corpus DIR] [--runs N] [--json FILE]
 *   (default: ../shared/calibration with its manifest.jsonl, else the corpus; 100 runs)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseForecast } from '../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { createScorer } from '../src/core/scorer.js';
import type { Reference } from '../src/core/scorer-api.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { findCorpus, loadCorpus, longest, repoRoot } from './corpus.js';
import { machine, target, takeJsonFlag, writeResult } from './report.js';
import { commandLine, fmt, printTable, summarize, usSince } from './timing.js';

const jsonFile = takeJsonFlag();
const { values } = parseArgs({ options: { calibration: { type: 'string' }, corpus: { type: 'string' }, runs: { type: 'string' } }, allowPositionals: true });
const corpus = findCorpus(values.corpus);
const calibration = values.calibration ?? path.resolve(corpus, '../calibration');
const useCalibration = existsSync(path.join(calibration, 'manifest.jsonl'));
const runs = Number(values.runs ?? 100);
const WARMUP = 10;

console.log(`command: ${commandLine(import.meta.url)}`);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'steplens-forecast-bench-'));
const out = path.join(tmp, 'forecast.json');
const args = useCalibration ? ['--manifest', path.join(calibration, 'manifest.jsonl'), calibration] : [corpus];
const main = path.join(repoRoot(), 'dist', 'src', 'cli', 'main.js');
const t0 = process.hrtime.bigint();
const train = spawnSync('node', [main, 'train', '--out', out, ...args], { encoding: 'utf8' });
const trainSeconds = usSince(t0) / 1e6;
if (train.status !== 0) throw new Error(`steplens train failed: ${train.stderr}`);
const file = parseForecast(JSON.parse(readFileSync(out, 'utf8')));
rmSync(tmp, { recursive: true, force: true });
if (!file.ok) throw new Error(file.error);
const model = file.value.models[0]!;
console.log(`train: steplens train --out F ${args.join(' ')}: ${trainSeconds.toFixed(1)} s wall (${file.value.models[0]!.trainedOn.runs} runs)`);

const { trajectories } = loadCorpus(corpus);
const t = longest(trajectories);
const prior: Reference = { kind: 'prior', prior: UNIFORM_PRIOR };
const analyzers = defaultAnalyzers();
const variants = [
  { label: 'push, no forecast model', make: () => createScorer({ reference: prior, analyzers }) },
  { label: 'push, forecast model loaded', make: () => createScorer({ reference: prior, analyzers, forecast: model }) },
];
const times = variants.map(() => [] as number[]);
for (let r = 0; r < runs + WARMUP; r++) {
  variants.forEach((v, k) => {
    const scorer = v.make();
    for (const step of t.steps) {
      const s0 = process.hrtime.bigint();
      scorer.push(step);
      if (r >= WARMUP) times[k]!.push(usSince(s0));
    }
  });
}
const [without, withModel] = times.map(summarize) as [ReturnType<typeof summarize>, ReturnType<typeof summarize>];
console.log(`trajectory: ${t.file} (${t.steps.length} steps), ${runs} runs after ${WARMUP} warm-up runs, variants alternating`);
printTable(['per step', 'median µs', 'mean µs', 'p99 µs'], [
  [variants[0]!.label, fmt(without.median, 2), fmt(without.mean, 2), fmt(without.p99, 1)],
  [variants[1]!.label, fmt(withModel.median, 2), fmt(withModel.mean, 2), fmt(withModel.p99, 1)],
]);
const ratioMean = withModel.mean / without.mean;
const ratioMedian = withModel.median / without.median;
const targets = [
  target('forecast push cost with a model / without (mean per step)', ratioMean, '<=', 1.2),
  target(`steplens train wall time on ${useCalibration ? 'the calibration set' : 'the corpus'}`, trainSeconds, '<', 30, 's'),
];
console.log(`machine: ${JSON.stringify(machine())}`);
writeResult(jsonFile, {
  bench: 'forecast', command: commandLine(import.meta.url), machine: machine(), targets,
  figures: { train_seconds: trainSeconds, push_mean_us_without: without.mean, push_mean_us_with: withModel.mean, ratio_mean: ratioMean, ratio_median: ratioMedian },
});

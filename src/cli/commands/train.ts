/**
 * `steplens train --out FORECAST.json [--outcomes F] [--manifest F] [--by agent|model] [--folds K] [--seed N] [--json] PATH...`:
 * fits the outcome forecaster P(pass | first t steps) on runs with known
 * outcomes, evaluates it held out (task-disjoint folds: AUROC at t = 10, 20,
 * 40 and at the end beside run length alone, reliability, per source), and
 * chooses the reference-free composite's weights by leave-one-source-out AUROC.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import { DEFAULT_CONFIG } from '../../core/config.js';
import { evaluateForecast, type ForecastEvaluation } from '../../core/forecast/evaluate.js';
import { fitForecastModel, PrefixVectorCache, type ForecastRun } from '../../core/forecast/fit.js';
import { FORECAST_FORMAT, FORECAST_SCHEMA, type ForecastFile, type ForecastModel } from '../../core/forecast/model.js';
import { choosePriorWeights } from '../../core/forecast/prior-weights.js';
import { readConfigFile } from '../../settings-files.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { readText } from '../../text-files.js';
import type { Command } from '../command.js';
import { CORPUS_OPTIONS, readCorpusInput } from '../corpus-input.js';
import { parseManifest } from '../../report/manifest.js';
import { chooseReference } from '../references.js';
import { forecastText, priorWeightsText } from '../train-text.js';
import { trainAnalyzers, trainInput } from '../train-runs.js';

/** A group needs this many runs, with at least MIN_CLASS of each outcome, for a model of its own. */
export const MIN_GROUP_RUNS = 20;
const MIN_CLASS = 5;

function intOf(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new SteplensError('usage', `${flag} must be an integer >= ${min}, got '${value}'`);
  return n;
}

const enough = (runs: readonly ForecastRun[]) => runs.length >= MIN_GROUP_RUNS && runs.filter((r) => r.passed).length >= MIN_CLASS && runs.filter((r) => !r.passed).length >= MIN_CLASS;

const command: Command = {
  name: 'train',
  usage:
    'usage: steplens train --out FORECAST.json [--outcomes FILE] [--manifest FILE] [--by agent|model] [--folds K] [--seed N]\n' +
    '                      [--config FILE] [--json] PATH...\n' +
    '  PATH and outcomes: as for `steplens report`; only runs with a pass/fail outcome count\n' +
    "  --manifest FILE  JSON Lines {file, agent, model, resolved}: names each run's agent and model (its source) and outcome\n" +
    '  --by agent|model also fit one model per agent (or model) with >= 20 runs and >= 5 of each outcome; serve picks it by start.agent/start.model\n' +
    '  --folds K        task-disjoint folds of the held-out evaluation (default 5); --seed N the fold split (default 1)\n' +
    '  --config FILE    scoring config the runs are scored with\n' +
    '  --out FILE       the model file (`serve --forecast FILE` loads it); --json prints the whole document',
  async run(args, io) {
    const started = Date.now();
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...CORPUS_OPTIONS,
        out: { type: 'string' },
        manifest: { type: 'string' },
        by: { type: 'string' },
        folds: { type: 'string' },
        seed: { type: 'string' },
        config: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    if (values.out === undefined) throw new SteplensError('usage', '--out FORECAST.json is required');
    const by = values.by;
    if (by !== undefined && by !== 'agent' && by !== 'model') throw new SteplensError('usage', `--by must be 'agent' or 'model', got '${by}'`);
    const folds = intOf(values.folds, '--folds', 5, 2);
    const seed = intOf(values.seed, '--seed', 1, 0);
    const { found, table } = readCorpusInput(positionals, values, io.cwd, 'train');
    const manifestPath = values.manifest !== undefined ? resolve(io.cwd, values.manifest) : undefined;
    const manifest = manifestPath !== undefined ? parseManifest(await readText(manifestPath), manifestPath) : undefined;
    const config = values.config !== undefined ? await readConfigFile(resolve(io.cwd, values.config)) : DEFAULT_CONFIG;
    const input = trainInput(found.trajectories, table, manifest, await chooseReference(undefined), trainAnalyzers(defaultAnalyzers()), config);
    const runs = input.runs;
    const passing = runs.filter((r) => r.passed).length;
    if (passing === 0 || passing === runs.length) {
      throw new SteplensError(
        'bad_input',
        `need runs of both outcomes to train: ${passing} passing and ${runs.length - passing} failing of ${found.trajectories.length} trajectories (give --outcomes FILE or --manifest FILE)`,
      );
    }
    // One prefix-vector cache for every fit below: the runs are scored and their window-free features computed once.
    const cache = new PrefixVectorCache();
    const evaluation = evaluateForecast(runs, folds, seed, fitForecastModel, cache);
    const models: ForecastModel[] = [fitForecastModel(runs, {}, undefined, cache)];
    const byGroup: Record<string, ForecastEvaluation> = {};
    if (by !== undefined) {
      for (const name of [...new Set(runs.map((r) => r[by]))].sort()) {
        const group = runs.filter((r) => r[by] === name);
        if (!enough(group)) continue;
        models.push(fitForecastModel(group, { [by]: name }, undefined, cache));
        byGroup[name] = evaluateForecast(group, folds, seed, fitForecastModel, cache);
      }
    }
    const referenceFree = choosePriorWeights(input.prior);
    const manifestMissing = manifest !== undefined ? [...manifest.keys()].filter((p) => !found.trajectories.some((t) => t.path === p)).length : 0;
    const tasks = new Set(runs.map((r) => r.task)).size;
    const doc: ForecastFile = {
      format: FORECAST_FORMAT,
      schema: FORECAST_SCHEMA,
      version: 1,
      createdAt: new Date().toISOString(),
      models,
      evaluation: {
        runs: runs.length,
        passing,
        tasks,
        skipped: { ...input.skipped, unparsedFiles: found.skipped.length, manifestRunsNotParsed: manifestMissing },
        forecast: evaluation,
        ...(by !== undefined ? { by, byGroup } : {}),
        referenceFree,
        seconds: (Date.now() - started) / 1000,
      },
    };
    const out = resolve(io.cwd, values.out);
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    if (values.json) {
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
      return 0;
    }
    io.stdout(
      [
        `${runs.length} runs (${passing} passing) on ${tasks} tasks; left out: ${input.skipped.noOutcome} without a pass/fail outcome, ${input.skipped.noSteps} without steps, ${input.skipped.noTask} naming no task, ${found.skipped.length} files not read as trajectories${manifest !== undefined ? `, ${manifestMissing} manifest runs not parsed` : ''}\n`,
        forecastText(evaluation, 'forecaster (one model for all runs)'),
        ...Object.entries(byGroup).map(([g, e]) => forecastText(e, `forecaster for ${by} ${g}`)),
        priorWeightsText(referenceFree),
        `wrote ${values.out} (${models.length} model${models.length > 1 ? 's' : ''}, version 1) in ${((Date.now() - started) / 1000).toFixed(1)} s; \`steplens serve --forecast ${values.out}\` loads it\n`,
      ].join('\n'),
    );
    return 0;
  },
};

export default command;

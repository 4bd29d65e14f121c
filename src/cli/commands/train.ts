/**
 * `steplens train --out FORECAST.json [--outcomes F] [--manifest F] [--folds K] [--seed N] [--json] PATH...`:
 * fits the outcome forecaster P(pass | first t steps) on runs with known
 * outcomes so that it ranks runs within a source (agent + model), chooses
 * its configuration and evaluates it held out (leave one source out, and
 * task-disjoint folds; core/forecast/train.ts), checks the lowForecast stop
 * under the calibrate rule, and chooses the reference-free composite's
 * weights (and, where tasks have references, the PTA-mode weights) leave one
 * source out. What it prints is what it writes.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import { DEFAULT_CONFIG } from '../../core/config.js';
import { plural } from '../../core/plural.js';
import { trainedRunsOf } from '../../core/forecast/fingerprint.js';
import { FORECAST_FORMAT, FORECAST_SCHEMA, type ForecastFile } from '../../core/forecast/model.js';
import { withPriorIntervals } from '../../core/forecast/prior-intervals.js';
import { choosePriorWeights } from '../../core/forecast/prior-weights.js';
import { withPtaIntervals } from '../../core/forecast/pta-intervals.js';
import { choosePtaWeights } from '../../core/forecast/pta-weights.js';
import { sourceOf } from '../../core/forecast/run.js';
import { isDefaultMapWeighting, trainForecast } from '../../core/forecast/train.js';
import { fitEndModel } from '../../core/forecast/end-fit.js';
import { endModelText } from '../train-end-text.js';
import { readConfigFile } from '../../settings-files.js';
import { parseSourcesTable, type SourceEntry } from '../../report/sources-table.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { printable } from '../../printable.js';
import { readText } from '../../text-files.js';
import { intFlag } from '../int-flag.js';
import type { Command } from '../command.js';
import { CORPUS_OPTIONS, readCorpusInput, reportCorpusInput } from '../corpus-input.js';
import { nodeReportFs } from '../../report/node-fs.js';
import { nameRuns } from '../../report/run-naming.js';
import { untiedEvaluationWarning } from '../../report/untied-evaluations.js';
import { chooseReference } from '../references.js';
import { ptaSamples } from '../train-references.js';
import { forecastText } from '../train-forecast-text.js';
import { priorWeightsText, ptaWeightsText } from '../train-weights-text.js';
import { trainAnalyzers, trainInput } from '../train-runs.js';
import { prepareOutputFile, writeOutputFile } from '../output-files.js';

async function readSources(path: string, name: string): Promise<SourceEntry[]> {
  const parsed = parseSourcesTable(await readText(path), name);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** --pair-weights: comma-separated weights, each 0 or more, each once (undefined: the flag not given). */
function pairWeightsFlag(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((t) => t.trim());
  const weights = parts.map(Number);
  const bad = parts.findIndex((t, i) => t === '' || !Number.isFinite(weights[i]!) || weights[i]! < 0);
  if (bad >= 0) throw new SteplensError('usage', `--pair-weights must be weights of 0 or more separated by commas, got '${parts[bad]}' in '${text}'`);
  if (new Set(weights).size !== weights.length) throw new SteplensError('usage', `--pair-weights names a weight twice: '${text}'`);
  // Ascending: on a tie the choice keeps the earlier, smaller weight (select.ts).
  return weights.sort((a, b) => a - b);
}

const command: Command = {
  name: 'train',
  usage:
    'usage: steplens train --out FORECAST.json [--outcomes FILE] [--manifest FILE] [--sources FILE] [--model NAME] [--run NAME] [--lenient] [--folds K] [--seed N] [--source-max R] [--pair-weights W,...] [--default-map runs|sources] [--end-model] [--config FILE] [--json] PATH...\n' +
    '  PATH, --outcomes, --manifest, --model, --run, skipped files and --lenient: as for `steplens report` (runs are named the same way);\n' +
    '                   only runs with a pass/fail outcome count\n' +
    "  --manifest FILE  JSON Lines {file, agent, model, resolved}: names each run's agent and model (its source) and outcome\n" +
    '  --sources FILE   CSV (run,agent,model) or JSON Lines: the agent and model of the runs of each run folder (as for calibrate)\n' +
    '  --folds K        task-disjoint folds (default 5), also those of the per-source recalibration; --seed N the folds and the bootstrap (default 1)\n' +
    "  --source-max R   the lowForecast stop is recommended only if it stops at most this share of each source's passing runs\n" +
    "                   (default 0.02: calibrate --portable's rule)\n" +
    '  --pair-weights W,... weights of a within-task pairwise term (pass vs fail runs of one source and task) tried\n' +
    '                   beside the pointwise fit, chosen leave one source out with the rest (default 0: pointwise only)\n' +
    "  --default-map runs|sources  how the default model's map (the pPass of a source the file has no model of, before any\n" +
    '                   outcome of it) weighs the runs: every run once (runs, the default) or every source alike (sources)\n' +
    '  --end-model      also fit the end-of-run model (features mapped by their ECDF among the runs) that\n' +
    '                   rank/report --rank-model end read; an option, not the default (docs/forecast.md "End-of-run model")\n' +
    '  --config FILE    scoring config the runs are scored with\n' +
    '  --out FILE       the model file: a default model and one per source (agent + model) seen; `serve --forecast FILE` loads it\n' +
    '  --json           print the whole document',
  async run(args, io) {
    const started = Date.now();
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...CORPUS_OPTIONS,
        out: { type: 'string' },
        sources: { type: 'string' },
        folds: { type: 'string' },
        seed: { type: 'string' },
        'source-max': { type: 'string' },
        'pair-weights': { type: 'string' },
        'default-map': { type: 'string' },
        config: { type: 'string' },
        'end-model': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    if (values.out === undefined) throw new SteplensError('usage', '--out FORECAST.json is required');
    const out = resolve(io.cwd, values.out);
    // Before the training: a file that cannot be written is found now, not after it.
    prepareOutputFile(out, `--out ${values.out}`);
    const folds = intFlag(values.folds, '--folds', 5, 2);
    const seed = intFlag(values.seed, '--seed', 1, 0);
    const sourceMaxText = values['source-max'];
    const sourceMax = sourceMaxText === undefined ? undefined : Number(sourceMaxText);
    if (sourceMax !== undefined && (sourceMaxText!.trim() === '' || !(sourceMax >= 0 && sourceMax <= 1)))
      throw new SteplensError('usage', `--source-max must be a rate between 0 and 1, got '${sourceMaxText}'`);
    const pairWeights = pairWeightsFlag(values['pair-weights']);
    const defaultMap = values['default-map'];
    if (defaultMap !== undefined && !isDefaultMapWeighting(defaultMap)) throw new SteplensError('usage', `--default-map must be runs or sources, got '${defaultMap}'`);
    // The walk passes over the command's own files: a forecaster written into PATH (--out) is not read back as a run.
    const { found, manifest, naming, warnings } = readCorpusInput(positionals, values, io.cwd, 'train', [values.out, values.sources, values.config]);
    const exit = reportCorpusInput(found, values.lenient, io.stderr, warnings);
    const config = values.config !== undefined ? await readConfigFile(resolve(io.cwd, values.config)) : DEFAULT_CONFIG;
    const prior = await chooseReference(undefined);
    const sourcesTable = values.sources !== undefined ? await readSources(resolve(io.cwd, values.sources), values.sources) : [];
    // Runs are named as `report` and `calibrate` name them (report/run-naming.ts): --model, --manifest, --sources, the log, --outcomes.
    const named = nameRuns(nodeReportFs, found.trajectories, { ...naming, sources: sourcesTable });
    const untied = untiedEvaluationWarning(nodeReportFs, found.skipped, named);
    if (untied !== null) io.stderr(`${printable(untied)}\n`);
    const input = trainInput(named, prior, trainAnalyzers(defaultAnalyzers()), config);
    const runs = input.runs;
    const passing = runs.filter((r) => r.passed).length;
    if (passing === 0 || passing === runs.length) {
      throw new SteplensError(
        'bad_input',
        `need runs of both outcomes to train: ${passing} passing and ${runs.length - passing} failing of ${found.trajectories.length} trajectories (give --outcomes FILE or --manifest FILE)`,
      );
    }
    const { models, evaluation } = trainForecast(runs, {
      folds,
      seed,
      ...(sourceMax !== undefined ? { sourceMax } : {}),
      ...(pairWeights !== undefined ? { pairWeights } : {}),
      ...(defaultMap !== undefined ? { defaultMap } : {}),
    });
    // The end-of-run model beside the prefix ones (core/forecast/end-fit.ts), only when asked: it is an option of rank and
    // report, costs about a ninth more fit, and a file with it is refused by steplens versions before it.
    const end = values['end-model'] ? fitEndModel(runs, evaluation.selection.chosen, folds, seed, defaultMap) : undefined;
    const referenceFree = withPriorIntervals(choosePriorWeights(input.prior), input.prior, { seed });
    const references = ptaSamples(input.known, prior, defaultAnalyzers(), config);
    const referenceMode = references.length > 0 ? withPtaIntervals(choosePtaWeights(references, config.weights), references, config.weights, { seed }) : undefined;
    const manifestMissing = manifest !== undefined ? [...manifest.keys()].filter((p) => !found.trajectories.some((t) => t.path === p)).length : 0;
    const tasks = new Set(runs.map((r) => r.task)).size;
    // Every source trained on, with its n, whether or not a held-out figure could be taken for it.
    const sourceCounts = new Map<string, { source: string; nPass: number; nFail: number }>();
    for (const r of runs) {
      const c = sourceCounts.get(sourceOf(r)) ?? { source: sourceOf(r), nPass: 0, nFail: 0 };
      if (r.passed) c.nPass += 1;
      else c.nFail += 1;
      sourceCounts.set(c.source, c);
    }
    const sources = [...sourceCounts.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
    const chosen = evaluation.selection.chosen;
    // Which runs it was fitted on, so `report` can say which pPass figures are in-sample (core/forecast/fingerprint.ts).
    const trainedRuns = trainedRunsOf(input.known.map((k) => k.trajectory.steps));
    const doc: ForecastFile = {
      format: FORECAST_FORMAT,
      schema: FORECAST_SCHEMA,
      version: 1,
      createdAt: new Date().toISOString(),
      models,
      config: { lambda: chosen.lambda, endWeight: chosen.endWeight, groupSd: chosen.groupSd, kappa: chosen.kappa, ...(chosen.pairWeight !== undefined ? { pairWeight: chosen.pairWeight } : {}) },
      evaluation: {
        runs: runs.length,
        passing,
        tasks,
        sources,
        skipped: { ...input.skipped, unparsedFiles: found.skipped.length, manifestRunsNotParsed: manifestMissing },
        forecast: evaluation,
        referenceFree,
        ...(referenceMode !== undefined ? { referenceMode } : {}),
        seconds: (Date.now() - started) / 1000,
      },
      trainedRuns,
      ...(end !== undefined ? { end } : {}),
    };
    await writeOutputFile(out, `${JSON.stringify(doc, null, 2)}\n`, `--out ${values.out}`);
    if (values.json) {
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
      return exit;
    }
    io.stdout(
      [
        `${plural(runs.length, 'run')} (${passing} passing) on ${plural(tasks, 'task')}; left out: ${input.skipped.noOutcome} without a pass/fail outcome, ${input.skipped.noSteps} without steps, ${input.skipped.noTask} naming no task, ${found.skipped.length} files not read as trajectories${manifest !== undefined ? `, ${manifestMissing} manifest runs not parsed` : ''}\n`,
        `sources (agent + model; pass / fail): ${sources.map((c) => printable(`${c.source} ${c.nPass} / ${c.nFail}`)).join('; ')}\n`,
        forecastText(evaluation, models),
        ...(end !== undefined ? [endModelText(end, runs.length)] : []),
        priorWeightsText(referenceFree),
        referenceMode !== undefined ? ptaWeightsText(referenceMode, config.weights) : 'PTA-mode weights: no task has 2 or more passing runs to build a leave-one-out reference from\n',
        `wrote ${values.out} (${models.length} model${models.length > 1 ? 's' : ''}: the default and one per source; version 1; its ${trainedRuns.runs.length} training runs listed by fingerprint, for report's in-sample check) in ${((Date.now() - started) / 1000).toFixed(1)} s; \`steplens serve --forecast ${values.out}\` loads it\n`,
      ].join('\n'),
    );
    return exit;
  },
};

export default command;

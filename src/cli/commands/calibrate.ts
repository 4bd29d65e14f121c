/**
 * `steplens calibrate [--outcomes FILE] [--max-false-stop R] [--mode M] [--split half|none] [--holdout R] [--seed N]
 *  [--weights] [--config FILE] [--config-out FILE] [--out FILE] [--out-dir DIR] [--json] PATH...`:
 * chooses the early-stop policy (and optionally the composite weights) from
 * finished runs with known outcomes, with the price stated: per combined
 * policy, the passing runs it would stop against the failing-run steps and
 * tokens it would save, with references (leave-one-out) and reference-free.
 */
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import { calibrate, calibrateTradeoff, calibrateWeights, splitCalibration, type ModeName, type SplitReport, type WeightsReport } from '../../core/calibrate/index.js';
import { DEFAULT_CONFIG } from '../../core/config.js';
import { DEFAULT_POLICY, resolvePolicy } from '../../core/policy.js';
import { nodeReportFs } from '../../report/node-fs.js';
import { resolveOutcome } from '../../report/resolve-outcome.js';
import { readConfigFile } from '../../settings-files.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { perKindText } from '../calibrate-kinds-text.js';
import { writeCalibrateOutputs } from '../calibrate-outputs.js';
import { calibrationInput } from '../calibrate-runs.js';
import { splitText, tradeoffText, weightsText } from '../calibrate-text.js';
import type { Command } from '../command.js';
import { CORPUS_OPTIONS, readCorpusInput, reportCorpusInput } from '../corpus-input.js';
import { chooseReference } from '../references.js';

function rate(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1) throw new SteplensError('usage', `${flag} must be a rate between 0 and 1, got '${value}'`);
  return x;
}

const MODES: Record<string, ModeName[]> = { both: ['reference', 'referenceFree'], reference: ['reference'], 'reference-free': ['referenceFree'] };

function holdoutOf(split: string | undefined, holdout: string | undefined): number | undefined {
  if (split !== undefined && split !== 'half' && split !== 'none') throw new SteplensError('usage', `--split must be 'half' or 'none', got '${split}'`);
  if (split === 'none') return undefined;
  const h = rate(holdout, '--holdout', 0.5);
  if (h <= 0 || h >= 1) throw new SteplensError('usage', `--holdout must be strictly between 0 and 1, got '${holdout}'`);
  return h;
}

function seedOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new SteplensError('usage', `--seed must be a non-negative integer, got '${value}'`);
  return n;
}

const command: Command = {
  name: 'calibrate',
  summary: 'choose the early-stop policy (and composite weights) from runs with known outcomes, with the price stated',
  usage:
    'usage: steplens calibrate [--outcomes FILE] [--max-false-stop R] [--max-false-warn R] [--mode both|reference|reference-free]\n' +
    '                          [--split half|none] [--holdout R] [--seed N] [--weights] [--config FILE] [--config-out FILE]\n' +
    '                          [--out POLICY.json] [--out-dir DIR] [--json] [--lenient] PATH...\n' +
    '  PATH, outcomes, skipped files and --lenient: as for `steplens report`; only runs with a pass/fail outcome count\n' +
    '  --max-false-stop R  largest share of passing runs the chosen policy may stop, in each --mode (default 0.05)\n' +
    '  --max-false-warn R  the same for the warn levels of the single-kind tables (default 0.25)\n' +
    '  --mode M            which scoring the bound must hold in: both (default), reference (leave-one-out PTAs), reference-free\n' +
    '  --split half|none   also choose on half the tasks and measure on the other half, both ways (default half);\n' +
    '                      --holdout R sets the held-out share of tasks, --seed N the split (default 1)\n' +
    '  --weights           fit the composite weights (simplex grid, leave-one-task-out AUROC); --config-out FILE writes {"weights": ...}\n' +
    '  --config FILE       scoring config to score with (its weights set the running score the low-score stop reads)\n' +
    '  --out FILE          the chosen policy: {"policy": ..., "calibration": ...} (`serve --policy FILE` loads it)\n' +
    '  --out-dir DIR       writes tradeoff.svg, tradeoff.csv and calibration.json; --json prints the whole calibration',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...CORPUS_OPTIONS,
        out: { type: 'string' },
        'out-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        'max-false-stop': { type: 'string' },
        'max-false-warn': { type: 'string' },
        mode: { type: 'string' },
        split: { type: 'string' },
        holdout: { type: 'string' },
        seed: { type: 'string' },
        weights: { type: 'boolean', default: false },
        config: { type: 'string' },
        'config-out': { type: 'string' },
      },
    });
    const { found, table } = readCorpusInput(positionals, values, io.cwd, 'calibrate');
    const maxFalseStop = rate(values['max-false-stop'], '--max-false-stop', 0.05);
    const maxFalseWarn = rate(values['max-false-warn'], '--max-false-warn', 0.25);
    const constrained = MODES[values.mode ?? 'both'];
    if (constrained === undefined) throw new SteplensError('usage', `--mode must be both, reference or reference-free, got '${values.mode}'`);
    const holdout = holdoutOf(values.split, values.holdout);
    const seed = seedOf(values.seed);
    if (values['config-out'] !== undefined && !values.weights) throw new SteplensError('usage', '--config-out writes fitted weights: give --weights too');
    const config = values.config !== undefined ? await readConfigFile(values.config) : DEFAULT_CONFIG;
    const exit = reportCorpusInput(found, values.lenient, io.stderr);
    const ctx = { fs: nodeReportFs, cache: new Map(), ...(table ? { table } : {}) };
    const known = found.trajectories
      .map((t) => ({ trajectory: t, outcome: resolveOutcome(ctx, t).outcome }))
      .filter((x) => (x.outcome === 'pass' || x.outcome === 'fail') && x.trajectory.steps.length > 0)
      .flatMap((x) => (x.trajectory.task === null ? [] : [{ trajectory: x.trajectory, task: x.trajectory.task, passed: x.outcome === 'pass' }]));
    if (known.length === 0) throw new SteplensError('bad_input', `none of the ${found.trajectories.length} trajectories has a known pass/fail outcome (give --outcomes FILE)`);
    const prior = await chooseReference(undefined);
    const input = calibrationInput(known, prior, defaultAnalyzers(), config);
    const perKind = calibrate(input.perKind, { maxFalseStop, maxFalseWarn });
    if (!perKind.ok) throw new SteplensError('usage', perKind.error);
    const warnSource = resolvePolicy(perKind.value.policy);
    if (!warnSource.ok) throw new Error(`single-kind recommendation does not validate: ${warnSource.error}`);
    const options = { maxFalseStop, constrained, baseline: DEFAULT_POLICY, warnSource: warnSource.value };
    const tradeoff = calibrateTradeoff(input.tradeoff, options);
    if (!tradeoff.ok) throw new SteplensError('usage', tradeoff.error);
    let split: SplitReport | undefined;
    if (holdout !== undefined) {
      const s = splitCalibration(input.tradeoff, seed, holdout, options);
      if (!s.ok) throw new SteplensError('bad_input', s.error);
      split = s.value;
    }
    const weights: WeightsReport | undefined = values.weights ? calibrateWeights(input.weights, DEFAULT_CONFIG.weights) : undefined;
    const t = tradeoff.value;
    const check = resolvePolicy(t.chosen.policy);
    if (!check.ok) throw new Error(`chosen policy does not validate: ${check.error}`);
    const doc = { ...perKind.value, perKindPolicy: perKind.value.policy, policy: t.chosen.policy, tradeoff: t, ...(split ? { split } : {}), ...(weights ? { weights } : {}) };
    const written = writeCalibrateOutputs(io.cwd, { out: values.out, configOut: values['config-out'], outDir: values['out-dir'] }, t, split, weights?.recommended, doc);
    if (values.json) {
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
      return exit;
    }
    const priorRefs = prior.kind === 'prior' ? prior.prior.references : 0;
    io.stdout([
      perKindText(perKind.value, found.trajectories.length - known.length, priorRefs),
      tradeoffText(t),
      ...(split ? [splitText(split)] : []),
      ...(weights ? [weightsText(weights)] : []),
      `recommended policy (--out FILE writes it; \`serve --policy FILE\` loads it as the default):\n${JSON.stringify(t.chosen.policy, null, 2)}\n`,
      ...(written.length > 0 ? [`wrote ${written.join(', ')}\n`] : []),
    ].join('\n'));
    return exit;
  },
};

export default command;

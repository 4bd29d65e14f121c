/**
 * `steplens calibrate [flags] PATH... | --runs FILE`: chooses the early-stop
 * policy (and optionally the composite weights) from finished runs with known
 * outcomes, with the price stated: per combined policy, the passing runs it
 * would stop (point and upper confidence bound) against the failing-run steps
 * and tokens it would save, with references (leave-one-out) and
 * reference-free; per source (agent + model), per group (`--by`), held out by
 * task or by source, or as a portable policy for sources it never saw.
 */
import {
  calibrate,
  calibrateTradeoff,
  confirmTradeoff,
  evaluatePolicy,
  runFacts,
  settingsOf,
  type ConfirmedTradeoff,
  type HeldOutCheck,
  calibrateWeights,
  portableCalibration,
  portableOptions,
  repeatedSplits,
  sourceSplitCheck,
  splitBySource,
  taskSplitCheck,
  type PortableResult,
  type SourceSplitReport,
  type SplitReport,
  type TradeoffOptions,
  type TradeoffResult,
  type WeightsReport,
} from '../../core/calibrate/index.js';
import { DEFAULT_CONFIG } from '../../core/config.js';
import { plural } from '../../core/plural.js';
import { DEFAULT_POLICY, resolvePolicy } from '../../core/policy.js';
import { SteplensError } from '../../errors.js';
import { readConfigFile } from '../../settings-files.js';
import { parseCalibrateArgs } from '../calibrate-args.js';
import { calibrateGroups, groupsText } from '../calibrate-groups.js';
import { sourceFronts, sourceFrontsText } from '../calibrate-source-fronts.js';
import { perKindText } from '../calibrate-kinds-text.js';
import { loadCalibrationRuns } from '../calibrate-load.js';
import { policySetDocument, prepareCalibrateOutputs, writeCalibrateOutputs } from '../calibrate-outputs.js';
import { calibrationInput } from '../calibrate-runs.js';
import { confirmationText, writtenPolicyText } from '../calibrate-policy-text.js';
import { portableText, sourceSplitText, splitText, tradeoffText, weightsText } from '../calibrate-text.js';
import type { Command } from '../command.js';
import { writeScoredRuns } from '../scored-runs.js';
import { resolve } from 'node:path';

const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: string }, code: 'usage' | 'bad_input' = 'usage'): T => {
  if (!r.ok) throw new SteplensError(code, r.error);
  return r.value;
};

const command: Command = {
  name: 'calibrate',
  usage:
    'usage: steplens calibrate [--outcomes FILE] [--manifest FILE] [--sources FILE] [--model NAME] [--run NAME] [--runs FILE]... [--save-runs FILE]\n' +
    '                          [--max-false-stop R] [--confidence C] [--bound clopper-pearson|wilson] [--source-max R]\n' +
    '                          [--max-false-warn R] [--mode both|reference|reference-free] [--split half|source|none]\n' +
    '                          [--holdout R] [--splits K] [--seed N] [--by agent|model|source | --portable] [--weights] [--config FILE]\n' +
    '                          [--config-out FILE] [--out POLICY.json] [--out-dir DIR] [--json] [--lenient] [PATH...]\n' +
    '  PATH, --outcomes, --manifest, --model, --run, skipped files and --lenient: as for `steplens report` (runs are named the same way);\n' +
    '                      only runs with a pass/fail outcome, a task and at least one step count\n' +
    '  --sources FILE      CSV (run,agent,model) or JSON Lines naming the agent and model of each run folder (a source = agent + model)\n' +
    '  --runs FILE         runs scored before (--save-runs FILE writes them; .gz compresses): calibrate again without rescoring\n' +
    '  --max-false-stop R  largest upper confidence bound of the share of passing runs the chosen policy may stop (default 0.05);\n' +
    '                      too few passing runs for any stop to meet it: the written policy only warns\n' +
    '  --confidence C      confidence of that bound (default 0.95); --bound: clopper-pearson (default, exact) or wilson\n' +
    "  --source-max R      also: at most this share of each source's passing runs stopped (point estimate; none by default,\n" +
    '                      0.02 with --portable)\n' +
    '  --max-false-warn R  the bound of the warn levels of the single-kind tables (default 0.25)\n' +
    '  --mode M            which scoring the bound must hold in: both (default), reference (leave-one-out PTAs), reference-free\n' +
    '  --split half|source|none  half (the default): also choose on half the tasks and measure on the other half, both\n' +
    '                      ways, for each of --splits K (default 5) splits drawn from --seed N (default 1; it also seeds the\n' +
    '                      bootstrap; --holdout R the held-out share, default 0.5); source: leave one source out at a time. The\n' +
    '                      written policy stops only where every split confirmed it (each fold chose that stop, at the most\n' +
    "                      conservative of their settings, and each split's pooled held-out false stops meet the bound); else\n" +
    '                      it only warns. --split none writes the in-sample choice, marked unconfirmed\n' +
    '  --by G              one policy per agent, model or source (agent + model) plus a fallback, in one --out file\n' +
    '  --portable          one policy for agents and models it never saw: leave-one-source-out, kinds that stop more than\n' +
    "                      --source-max (default 0.02) of a held-out source's passing runs only warn; its stops are confirmed like\n" +
    '                      any other: by the task splits, or with --split source by its own leave-one-source-out folds (how\n' +
    '                      DEFAULT_POLICY is chosen)\n' +
    '  --weights           fit the composite weights (simplex grid, leave-one-task-out AUROC); --config-out FILE writes {"weights": ...}\n' +
    '  --config FILE       scoring config to score with (its weights set the running score the low-score stop reads)\n' +
    '  --out FILE          the chosen policy (or policy set with --by); `serve --policy FILE` loads it\n' +
    '  --out-dir DIR       writes tradeoff.svg, tradeoff.csv and calibration.json; --json prints the whole calibration',
  async run(args, io) {
    const a = parseCalibrateArgs(args);
    // Before the scoring (the slow part): a file that cannot be written is found now, not after it.
    prepareCalibrateOutputs(io.cwd, { out: a.out, configOut: a.configOut, outDir: a.outDir, saveRuns: a.saveRuns });
    const config = a.config !== undefined ? await readConfigFile(resolve(io.cwd, a.config)) : DEFAULT_CONFIG;
    const loaded = await loadCalibrationRuns(a, io.cwd, config, io.stderr);
    const exit = loaded.exit;
    if (a.saveRuns !== undefined) writeScoredRuns(resolve(io.cwd, a.saveRuns), loaded.runs, `steplens calibrate ${args.join(' ')}`, a.saveRuns);
    const input = calibrationInput(loaded.runs);
    const boundSpec = { method: a.bound, confidence: a.confidence };
    const perKind = unwrap(calibrate(input.perKind, { maxFalseStop: a.maxFalseStop, maxFalseWarn: a.maxFalseWarn, bound: boundSpec }));
    const warnSource = resolvePolicy(perKind.policy);
    if (!warnSource.ok) throw new Error(`single-kind recommendation does not validate: ${warnSource.error}`);
    // Each kind's level was chosen alone: replayed together their stops add up, which the per-kind tables cannot show.
    const perKindReplay = evaluatePolicy(input.tradeoff, input.tradeoff.map(runFacts), warnSource.value, settingsOf(warnSource.value), boundSpec).modes;
    const options: TradeoffOptions = {
      maxFalseStop: a.maxFalseStop,
      confidence: a.confidence,
      bound: a.bound,
      constrained: a.constrained,
      baseline: DEFAULT_POLICY,
      warnSource: warnSource.value,
      ...(a.sourceMax !== undefined ? { sourceMax: a.sourceMax } : {}),
    };
    const weights: WeightsReport | undefined = a.weights ? calibrateWeights(input.weights, DEFAULT_CONFIG.weights, undefined, { seed: a.seed }) : undefined;
    const halfSplit = a.split === 'half' ? { seed: a.seed, holdout: a.holdout, count: a.splits } : undefined;
    const head =
      (loaded.empty > 0 ? `${plural(loaded.empty, 'trajectory', 'trajectories')} with an outcome but no step the parser could read ${loaded.empty === 1 ? 'was' : 'were'} left out\n` : '') +
      (loaded.noTask > 0 ? `${loaded.noTask} trajectories with an outcome but no task named in the log were left out\n` : '') +
      perKindText(perKind, loaded.withoutOutcome, loaded.priorReferences, boundSpec, { modes: perKindReplay, maxFalseStop: a.maxFalseStop });

    if (a.by !== undefined) {
      const g = calibrateGroups(
        loaded.runs.map((r) => r.run),
        a.by,
        options,
        halfSplit,
      );
      const doc = { perKind, by: a.by, groups: g.groups, fallback: g.fallback, ...(weights ? { weights } : {}) };
      const written = writeCalibrateOutputs(
        io.cwd,
        { out: a.out, outDoc: policySetDocument(g.groups, g.fallback), configOut: a.configOut, outDir: a.outDir },
        g.fallback.tradeoff,
        g.fallback.split,
        weights?.recommended,
        doc,
      );
      if (a.json) io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
      else io.stdout([head, groupsText(a.by, g), ...(weights ? [weightsText(weights)] : []), ...(written.length > 0 ? [`wrote ${written.join(', ')}\n`] : [])].join('\n'));
      return exit;
    }

    let full: TradeoffResult;
    let portable: PortableResult | undefined;
    if (a.portable) {
      portable = unwrap(portableCalibration(input.tradeoff, options));
      full = portable.result;
    } else full = unwrap(calibrateTradeoff(input.tradeoff, options));
    // Under --portable the splits choose as the portable policy was chosen (its per-source cap, its demoted kinds
    // left out), and the split confirms its stops as it does any other (review s41: it used to be skipped).
    const splitOptions = portable
      ? portableOptions(
          options,
          portable.demoted.map((d) => d.kind),
          portable.sourceMax,
        )
      : options;
    const splits = halfSplit ? unwrap(repeatedSplits(input.tradeoff, halfSplit.seed, halfSplit.holdout, halfSplit.count, splitOptions), 'bad_input') : undefined;
    const split: SplitReport | undefined = splits?.[0];
    let bySource: SourceSplitReport | undefined;
    if (a.split === 'source' && !portable) bySource = unwrap(splitBySource(input.tradeoff, options), 'bad_input');
    // --portable --split source: its last round's leave-one-source-out folds are the check (printed with it).
    const sourceCheck = portable && a.split === 'source' ? portable.heldOut : bySource;
    const check: HeldOutCheck | undefined = splits ? taskSplitCheck(splits) : sourceCheck ? sourceSplitCheck(sourceCheck) : undefined;
    const t: ConfirmedTradeoff = confirmTradeoff(input.tradeoff, full, check, options, a.seed);
    if (portable) t.confirmation = { ...t.confirmation, rule: `${t.confirmation.rule}; ${portableRule(portable)}` };
    // Each source's own front beside the pooled one (the same grid on its runs alone; in-sample, as the pooled).
    const fronts = sourceFronts(input.tradeoff, options);
    const check2 = resolvePolicy(t.chosen.policy);
    if (!check2.ok) throw new Error(`chosen policy does not validate: ${check2.error}`);
    const doc = {
      ...perKind,
      perKindPolicy: perKind.policy,
      perKindPolicyReplay: perKindReplay,
      policy: t.chosen.policy,
      tradeoff: t,
      ...(split ? { split, splits } : {}),
      ...(bySource ? { sourceSplit: bySource } : {}),
      ...(portable ? { portable: { ...portable, result: undefined } } : {}),
      ...(weights ? { weights } : {}),
      ...(fronts.length > 1 ? { sourceFronts: fronts } : {}),
    };
    const written = writeCalibrateOutputs(io.cwd, { out: a.out, configOut: a.configOut, outDir: a.outDir }, t, split, weights?.recommended, doc);
    if (a.json) {
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
      return exit;
    }
    io.stdout(
      [
        head,
        tradeoffText(t),
        ...(fronts.length > 1 ? [sourceFrontsText(fronts)] : []),
        ...(portable ? [portableText(portable)] : []),
        ...(split ? [splitText(split)] : []),
        ...(bySource ? [sourceSplitText(bySource)] : []),
        confirmationText(t),
        ...(weights ? [weightsText(weights)] : []),
        writtenPolicyText(t.chosen.policy, a.out),
        ...(written.length > 0 ? [`wrote ${written.join(', ')}\n`] : []),
      ].join('\n'),
    );
    return exit;
  },
};

const portableRule = (p: PortableResult): string =>
  `--portable also demoted ${p.demoted.length} ${p.demoted.length === 1 ? 'kind' : 'kinds'} to warn only before choosing (a kind whose stop, chosen without a source, ` +
  `stopped more than ${(100 * p.sourceMax).toFixed(1)}% of that source's passing runs)`;

export default command;

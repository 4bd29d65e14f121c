/** Files `steplens calibrate` writes: the policy file, the weights config, and the trade-off chart, table and JSON. */
import { join, resolve } from 'node:path';
import type { Confirmation, SplitReport, TradeoffResult } from '../core/calibrate/index.js';
import { describeSettings } from '../core/calibrate/index.js';
import type { Weights } from '../core/config.js';
import type { PolicyInput } from '../core/policy.js';
import type { PolicyMatch } from '../core/policy-set.js';
import type { Interval } from '../core/stats/interval.js';
import { escapeControl } from '../printable.js';
import { csvCell } from '../report/render/format-table.js';
import { tradeoffChart } from '../report/tradeoff-chart.js';
import { prepareOutputDir, prepareOutputFile, writeOutputFileSync } from './output-files.js';

/**
 * The policy file: `policy` (what `readPolicyFile`, `serve --policy` and a
 * session's `start.policy` load) and `calibration`, the measured trade-off
 * it was chosen for (ignored by the loaders).
 */
export function policyDocument(r: TradeoffResult & { confirmation?: Confirmation }, split: SplitReport | undefined): { policy: PolicyInput; calibration: Record<string, unknown> } {
  return {
    policy: r.chosen.policy,
    calibration: {
      generatedBy: 'steplens calibrate',
      maxFalseStop: r.choice.maxFalseStop,
      bound: r.choice.bound,
      confidence: r.choice.confidence,
      ...(r.choice.sourceMax !== undefined ? { sourceMax: r.choice.sourceMax } : {}),
      constrained: r.choice.constrained,
      stops: describeSettings(r.chosen.settings),
      warnOnly: r.choice.warnOnly,
      ...(r.confirmation ? { confirmation: r.confirmation } : {}),
      ...(r.choice.note !== undefined ? { note: r.choice.note } : {}),
      runs: r.runs,
      inSample: r.chosen.modes,
      ...(r.chosen.bySource ? { bySource: r.chosen.bySource } : {}),
      ...(split ? { heldOut: { seed: split.seed, holdout: split.holdout, pooled: split.pooledOutOfSample } } : {}),
    },
  };
}

/** The policy-set file of `--by`: one entry per group, then the fallback; `serve --policy` loads it. */
export function policySetDocument(
  groups: ReadonlyArray<{ match: PolicyMatch; tradeoff: TradeoffResult; split?: SplitReport }>,
  fallback: { tradeoff: TradeoffResult; split?: SplitReport },
): Record<string, unknown> {
  return {
    policies: groups.map((g) => ({ match: g.match, ...policyDocument(g.tradeoff, g.split) })),
    fallback: policyDocument(fallback.tradeoff, fallback.split),
  };
}

/** An interval's two ends as cells (empty without one). */
const ends = (i: Interval | null): Array<number | null> => [i?.lo ?? null, i?.hi ?? null];

/**
 * The Pareto fronts as CSV (one row per front point and mode), every figure with the n and the 95 % interval the
 * tables print beside it (`_lo`/`_hi`, empty where the table prints `[-]`; they were bare points; audit28).
 */
export function tradeoffCsv(r: TradeoffResult): string {
  const head = [
    'mode,passing_stopped,passing,passing_rate,passing_upper,within_bound',
    'failing_stopped,failing,failing_rate,failing_rate_lo,failing_rate_hi',
    'failing_steps,failing_steps_saved,failing_steps_share,failing_steps_share_lo,failing_steps_share_hi',
    'failing_tokens,failing_tokens_saved,failing_token_share,failing_token_share_lo,failing_token_share_hi',
    'runs,all_token_share,all_token_share_lo,all_token_share_hi',
    'stopped,median_stop_step,median_stop_step_lo,median_stop_step_hi,median_stop_step_tied,policy',
  ].join(',');
  const rows = (['referenceFree', 'reference'] as const).flatMap((m) =>
    r.front[m].map((p) => {
      const q = p.modes[m];
      return [
        m,
        q.passingStopped,
        q.passing,
        q.passingRate,
        q.passingUpper,
        (q.passingUpper ?? 1) <= r.choice.maxFalseStop + 1e-12 ? 'yes' : 'no',
        q.failingStopped,
        q.failing,
        q.failingRate,
        ...ends(q.failingInterval),
        q.failingSteps,
        q.failingStepsSaved,
        q.failingStepsShare,
        ...ends(q.failingStepsShareInterval),
        q.failingTokens,
        q.failingTokensSaved,
        q.failingTokenShare,
        ...ends(q.failingTokenShareInterval),
        q.passing + q.failing,
        q.allTokenShare,
        ...ends(q.allTokenShareInterval),
        q.passingStopped + q.failingStopped,
        q.medianStopStep,
        ...ends(q.medianStopStepInterval),
        q.medianStopStepTied,
        describeSettings(p.settings),
      ]
        .map(csvCell)
        .join(',');
    }),
  );
  return `${[head, ...rows].join('\n')}\n`;
}

/** Writes one file (creating its folder); log text in it (task and source names) is escaped as on the terminal. */
function write(path: string, text: string, name: string): void {
  writeOutputFileSync(path, escapeControl(text), name);
}

/** Checks, before the work, that every file asked for can be written (folders created now): one line naming the flag otherwise. */
export function prepareCalibrateOutputs(cwd: string, o: CalibrateOutputs & { saveRuns?: string | undefined }): void {
  if (o.outDir !== undefined) prepareOutputDir(resolve(cwd, o.outDir), `--out-dir ${o.outDir}`);
  for (const [flag, file] of [
    ['--out', o.out],
    ['--config-out', o.configOut],
    ['--save-runs', o.saveRuns],
  ] as const) {
    if (file !== undefined) prepareOutputFile(resolve(cwd, file), `${flag} ${file}`);
  }
}

export interface CalibrateOutputs {
  out?: string | undefined;
  /** What `out` holds (default the policy document of `r`). */
  outDoc?: unknown;
  configOut?: string | undefined;
  outDir?: string | undefined;
}

/** Writes the requested files; returns what was written, for the summary line. */
export function writeCalibrateOutputs(cwd: string, o: CalibrateOutputs, r: TradeoffResult, split: SplitReport | undefined, weights: Weights | undefined, fullJson: unknown): string[] {
  const written: string[] = [];
  if (o.outDir !== undefined) {
    const dir = resolve(cwd, o.outDir);
    prepareOutputDir(dir, `--out-dir ${o.outDir}`);
    const chart = tradeoffChart(r);
    write(join(dir, chart.file), chart.svg, `--out-dir ${join(o.outDir, chart.file)}`);
    write(join(dir, 'tradeoff.csv'), tradeoffCsv(r), `--out-dir ${join(o.outDir, 'tradeoff.csv')}`);
    write(join(dir, 'calibration.json'), `${JSON.stringify(fullJson, null, 2)}\n`, `--out-dir ${join(o.outDir, 'calibration.json')}`);
    written.push(...[chart.file, 'tradeoff.csv', 'calibration.json'].map((f) => join(o.outDir!, f)));
  }
  if (o.out !== undefined) {
    write(resolve(cwd, o.out), `${JSON.stringify(o.outDoc ?? policyDocument(r, split), null, 2)}\n`, `--out ${o.out}`);
    written.push(o.out);
  }
  if (o.configOut !== undefined && weights !== undefined) {
    write(resolve(cwd, o.configOut), `${JSON.stringify({ weights }, null, 2)}\n`, `--config-out ${o.configOut}`);
    written.push(o.configOut);
  }
  return written;
}

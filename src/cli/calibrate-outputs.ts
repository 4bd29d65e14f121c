/** Files `steplens calibrate` writes: the policy file, the weights config, and the trade-off chart, table and JSON. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Confirmation, SplitReport, TradeoffResult } from '../core/calibrate/index.js';
import { describeSettings } from '../core/calibrate/index.js';
import type { Weights } from '../core/config.js';
import type { PolicyInput } from '../core/policy.js';
import type { PolicyMatch } from '../core/policy-set.js';
import { SteplensError } from '../errors.js';
import { escapeControl } from '../printable.js';
import { csvCell } from '../report/render/format-table.js';
import { tradeoffChart } from '../report/tradeoff-chart.js';

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

/** The Pareto fronts as CSV (one row per front point and mode). */
export function tradeoffCsv(r: TradeoffResult): string {
  const head =
    'mode,passing_stopped,passing,passing_rate,passing_upper,within_bound,failing_stopped,failing,failing_rate,failing_steps_saved,failing_steps_share,failing_tokens_saved,failing_token_share,all_token_share,median_stop_step,policy';
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
        q.failingStepsSaved,
        q.failingStepsShare,
        q.failingTokensSaved,
        q.failingTokenShare,
        q.allTokenShare,
        q.medianStopStep,
        describeSettings(p.settings),
      ]
        .map(csvCell)
        .join(',');
    }),
  );
  return `${[head, ...rows].join('\n')}\n`;
}

/** Writes one file; log text in it (task and source names) is escaped as on the terminal. */
function write(path: string, text: string, flag: string): void {
  try {
    writeFileSync(path, escapeControl(text));
  } catch (e) {
    throw new SteplensError('bad_input', `cannot write ${flag} ${path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
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
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new SteplensError('bad_input', `cannot create --out-dir ${o.outDir}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    const chart = tradeoffChart(r);
    write(join(dir, chart.file), chart.svg, '--out-dir');
    write(join(dir, 'tradeoff.csv'), tradeoffCsv(r), '--out-dir');
    write(join(dir, 'calibration.json'), `${JSON.stringify(fullJson, null, 2)}\n`, '--out-dir');
    written.push(...[chart.file, 'tradeoff.csv', 'calibration.json'].map((f) => join(o.outDir!, f)));
  }
  if (o.out !== undefined) {
    write(resolve(cwd, o.out), `${JSON.stringify(o.outDoc ?? policyDocument(r, split), null, 2)}\n`, '--out');
    written.push(o.out);
  }
  if (o.configOut !== undefined && weights !== undefined) {
    write(resolve(cwd, o.configOut), `${JSON.stringify({ weights }, null, 2)}\n`, '--config-out');
    written.push(o.configOut);
  }
  return written;
}

/** The end of `steplens calibrate`'s output: the held-out confirmation, the written policy as a predictor, and the policy itself. */
import { describeSettings, GRID_KINDS, type ConfirmedTradeoff, type ModeName, type SourceMean, type SplitConfirmation, type StopSettings } from '../core/calibrate/index.js';
import { plural } from '../core/plural.js';
import type { Policy } from '../core/policy.js';
import type { Separation } from '../core/stats/separation.js';
import { renderTable } from './table.js';

const pct = (r: number | null | undefined): string => (r === null || r === undefined ? '-' : `${(100 * r).toFixed(1)}%`);
const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));
const ci = (x: number | null, iv: { lo: number; hi: number } | null) => (x === null ? '-' : iv ? `${f3(x)} [${f3(iv.lo)}, ${f3(iv.hi)}]` : `${f3(x)} [-]`);
const MODE: Record<ModeName, string> = { referenceFree: 'reference-free', reference: 'with references' };
const get = (s: StopSettings, key: string): unknown => (s as unknown as Record<string, unknown>)[key] ?? null;

/** A mode's stop counts: a policy that stops no run (or every run) predicts the same for all of them. */
type StopCounts = Record<ModeName, { passing: number; failing: number; passingStopped: number; failingStopped: number }>;

/**
 * The separation of the written policy's stop decision, one line per mode (docs/method.md section 16). A policy that
 * stops no run (or every run) tells no run from another: its AUROC is 0.5 by construction, and a zero-width interval
 * around it would read as a measured certainty, so the line says so plainly instead.
 */
export function stopSeparationLines(s: Record<ModeName, Separation>, stops: StopCounts): string[] {
  return (['referenceFree', 'reference'] as const).map((m) => {
    const c = stops[m];
    const stopped = c.passingStopped + c.failingStopped;
    if (stopped === 0 || stopped === c.passing + c.failing)
      return (
        `  ${MODE[m]}: stops ${stopped === 0 ? 'no run' : 'every run'} (${c.passingStopped}/${c.passing} passing, ${c.failingStopped}/${c.failing} failing): ` +
        `it predicts the same for every run, so its AUROC is 0.5 by construction (no interval: nothing is measured)`
      );
    const x = s[m];
    const ws = x.withinSource;
    const within =
      ws.mean === null
        ? `within source: ${ws.sources.length === 1 ? `the one source has fewer than ${ws.minPerClass} passing or ${ws.minPerClass} failing runs` : `none of the ${ws.sources.length} sources has >= ${ws.minPerClass} passing and failing runs`}`
        : `within source ${ci(ws.mean, ws.interval)} (mean over ${ws.counted} of ${plural(ws.sources.length, 'source')}; tasks resampled)`;
    return (
      `  ${MODE[m]}: AUROC of "not stopped" for passing vs failing runs: ${within}; within task ${ci(x.withinTask.auroc, x.withinTask.interval)} ` +
      `(${plural(x.withinTask.pairs, 'pair')}, ${plural(x.withinTask.tasks, 'task')}); pooled ${ci(x.pooled.auroc, x.pooled.interval)} on ${x.pooled.nPass}/${x.pooled.nFail}, source alone ${ws.sources.length === 1 ? `${f3(x.pooled.sourceOnly)} (one source: by construction)` : ci(x.pooled.sourceOnly, x.pooled.sourceOnlyInterval)}`
    );
  });
}

/** What the held-out check confirmed, by the rule it states: per split (task splits) or per fold, then how stable it was. */
export function confirmationText(t: ConfirmedTradeoff): string {
  const c = t.confirmation;
  const out = [`held-out check: ${c.rule}`];
  if (c.check !== 'none') {
    out.push(`  in-sample choice on every run: ${describeSettings(c.inSample)}`);
    if (c.check === 'half') {
      const held = (s: SplitConfirmation) => t.choice.constrained.map((m) => `${s.pooled[m].passingStopped}/${s.pooled[m].passing} (upper ${pct(s.pooled[m].passingUpper)}) ${MODE[m]}`).join(', ');
      c.splits.forEach((s, i) =>
        out.push(
          `  split ${i + 1}${s.label ? ` (${s.label})` : ''}: ${s.folds.map((f, j) => `fold ${j + 1} chose ${describeSettings(f)}`).join('; ')}; ` +
            `pooled held-out false stops ${held(s)}: ${s.heldOutWithinBound ? 'within' : 'over'} the bound → confirms ${describeSettings(s.confirmed)}`,
        ),
      );
    } else {
      c.folds.forEach((f, i) => out.push(`  fold ${i + 1} chose: ${describeSettings(f)}`));
      out.push(`  folds' pooled held-out false stops within the bound: ${c.heldOutWithinBound ? 'yes' : 'no'}`);
    }
    const stops = GRID_KINDS.filter((k) => get(c.inSample, k.key) !== null);
    if (c.splits.length > 1 && stops.length > 0) {
      const perKind = stops.map((k) => `${k.describe(get(c.inSample, k.key))} ${c.splits.filter((s) => get(s.confirmed, k.key) !== null).length}/${c.splits.length}`);
      out.push(
        `  stability: the in-sample choice (${describeSettings(c.inSample)}) was confirmed whole on ${c.confirmedOn} of ${c.splits.length} task splits (a stop needs all ${c.required}); per kind: ${perKind.join(', ')}`,
      );
    }
    for (const d of c.dropped) out.push(`  not confirmed: ${d.inSample} (${d.reason})`);
  }
  out.push(`  written: ${c.warnOnly || t.choice.warnOnly ? 'warn only (no stop is confirmed)' : describeSettings(t.chosen.settings)}${c.check === 'none' ? ' (UNCONFIRMED: in-sample only)' : ''}`);
  const p = t.chosen.modes.referenceFree;
  out.push(`  in-sample on every run, reference-free: stops ${p.passingStopped}/${p.passing} passing (${pct(p.passingRate)}, upper ${pct(p.passingUpper)}), ${p.failingStopped}/${p.failing} failing`);
  const w = t.chosen.withinSource?.referenceFree;
  if (w !== undefined) {
    // Each mean with its interval (core/calibrate/within-source.ts); it was a bare point (audit26).
    const fig = (x: SourceMean) => `${pct(x.mean)}${x.interval === null ? ' [-]' : ` [${pct(x.interval.lo)}, ${pct(x.interval.hi)}]`}`;
    out.push(
      `  mean within source (${w.counted} of ${plural(w.sources, 'source')} with passing and failing runs, ${w.runs} runs; per source above; 95%: rates Price-Bonett, tokens a bootstrap of each source's failing runs, [-] where a source has under 5): ` +
        `passing stopped ${fig(w.passingRate)}, failing stopped ${fig(w.failingRate)}, failing tokens saved ${fig(w.failingTokenShare)}`,
    );
  }
  out.push('the written policy as a predictor of failure (a stopped run is predicted to fail):', ...stopSeparationLines(t.separation, t.chosen.modes));
  return `${out.join('\n')}\n`;
}

const levels = (v: { warn: number | null; stop: number | null }) => [v.warn === null ? '-' : String(v.warn), v.stop === null ? '-' : String(v.stop)];

/** The written policy, one row per kind, read from the very object written to --out and printed as JSON. */
export function writtenPolicyText(policy: Policy, out: string | undefined): string {
  const rows = [
    ['blindRetry', ...levels(policy.blindRetry), 'retries in one blind-retry episode'],
    ['regressionLoop', ...levels(policy.regressionLoop), 'failed edit → verify cycles on one file'],
    ['cycle', ...levels(policy.cycle), `repetitions in a row of a block of ${policy.cycle.minBlock}-${policy.cycle.maxBlock} states`],
    ['explorationStreak', ...levels(policy.explorationStreak), `exploration steps in a row${policy.explorationStreak.resetOnWrite ? ' (a step writing a file ends one)' : ''}`],
    ['noAction', ...levels(policy.noAction), 'steps in a row with no action to run'],
    ['lowScore', ...sev(policy.lowScore.severity), `running score below ${policy.lowScore.floor} after ${policy.lowScore.minSteps} steps`],
    ['lowForecast', ...sev(policy.lowForecast.severity), `forecast P(pass) below ${policy.lowForecast.floor} after ${policy.lowForecast.minSteps} steps`],
    [
      'budget',
      ...sev(policy.budget.maxSteps === null && policy.budget.maxTokens === null ? null : policy.budget.severity),
      `steps ${policy.budget.maxSteps ?? '-'}, tokens ${policy.budget.maxTokens ?? '-'}`,
    ],
  ];
  return (
    `written policy (${out !== undefined ? `--out ${out}` : '--out FILE writes it'}; \`serve --policy FILE\` loads it; the same object as \`policy\` in --json):\n` +
    renderTable(['kind', 'warn', 'stop', 'at'], rows) +
    `${JSON.stringify(policy)}\n`
  );
}

function sev(severity: 'warn' | 'stop' | null): string[] {
  return [severity === 'warn' ? 'yes' : '-', severity === 'stop' ? 'yes' : '-'];
}

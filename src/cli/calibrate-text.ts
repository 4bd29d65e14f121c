/** Human-readable sections of `steplens calibrate`: the trade-off table, the split (the weights: calibrate-weights-text.ts). */
import type { ModeName, PortableResult, SourcePoint, SourceSplitReport, SplitReport, StopSettings, TradeoffPoint, TradeoffResult } from '../core/calibrate/index.js';
import { describeSettings } from '../core/calibrate/index.js';
import { pctInterval } from './calibrate-kinds-text.js';
import { renderTable } from './table.js';

const pct = (r: number | null): string => (r === null ? '-' : `${(100 * r).toFixed(1)}%`);
const num = (x: number | null): string => (x === null ? '-' : Number.isInteger(x) ? String(x) : x.toFixed(1));
const numInterval = (i: { lo: number; hi: number } | null): string => (i === null ? ' [-]' : ` [${num(i.lo)}, ${num(i.hi)}]`);
const MODE: Record<ModeName, string> = { referenceFree: 'reference-free', reference: 'with references' };

export const HEADER = [
  'false stops (95% upper)',
  'failing stopped [Wilson 95%]',
  "failing steps saved / all failing runs' [95%]",
  "failing tokens saved / all failing runs' [95%]",
  "failing tokens saved / all runs' [95%]",
  'median stop step [95%]',
];

/** What the intervals of {@link pointCells} are, printed once under a table of them. */
export const INTERVALS_NOTE =
  "intervals: failing stopped, Wilson 95% over the failing runs; steps and tokens saved, a share of the failing runs' sums with a 95% bootstrap interval resampling those runs ([-]: under 5 failing runs, or every draw alike); tokens saved / all runs', the same resampling every run; median stop step, over the stopped runs (n), its distribution-free 95% interval (order statistics; [-] under 6 stopped runs; an interval of one step when so many stopped runs tie there that both ends fall on it: the row says how many, (n N; K tie at S), and the other stops still spread)";

export { weightsText } from './calibrate-weights-text.js';

/** An interval of one value says so: that many stopped runs tie at that step (it read as certainty; audit28). */
const tied = (p: TradeoffPoint): string => (p.medianStopStepTied === null ? '' : `; ${p.medianStopStepTied} tie at ${num(p.medianStopStepInterval?.lo ?? null)}`);

/** The numbers of one point as table cells. */
export function pointCells(p: TradeoffPoint): string[] {
  return [
    `${p.passingStopped}/${p.passing} (${pct(p.passingRate)}, ≤${pct(p.passingUpper)})`,
    `${p.failingStopped}/${p.failing} (${pct(p.failingRate)}${pctInterval(p.failingInterval)})`,
    `${p.failingStepsSaved}/${p.failingSteps} (${pct(p.failingStepsShare)}${pctInterval(p.failingStepsShareInterval)})`,
    `${Math.round(p.failingTokensSaved)}/${Math.round(p.failingTokens)} (${pct(p.failingTokenShare)}${pctInterval(p.failingTokenShareInterval)})`,
    // Both with an interval and n (they were bare; audit27).
    `${pct(p.allTokenShare)}${pctInterval(p.allTokenShareInterval)} (n ${p.passing + p.failing})`,
    `${num(p.medianStopStep)}${numInterval(p.medianStopStepInterval)} (n ${p.passingStopped + p.failingStopped}${tied(p)})`,
  ];
}

/** The Pareto fronts, the baseline and the written policy (`confirmation`: the in-sample choice it came from). */
export function tradeoffText(r: TradeoffResult & { confirmation?: { inSample: StopSettings } }): string {
  const k = r.kept;
  const kept =
    `blindRetry [${k.blindRetry.join(', ')}], regressionLoop [${k.regressionLoop.join(', ')}], cycle [${k.cycle.join(', ')}], ` +
    `explorationStreak [${k.explorationStreak.join(', ')}], lowScore [${k.lowScore.map((l) => `<${l.floor}@${l.minSteps}`).join(', ')}]`;
  const out = [
    `combined stop policies: ${r.evaluated} evaluated (each kind off or one of the candidates kept after pre-filtering: ${kept})`,
    `runs: ${r.runs.passing} passing, ${r.runs.failing} failing; ${r.runs.withReference} with a leave-one-out reference (the others are scored against the prior in both modes)`,
    INTERVALS_NOTE,
    '',
  ];
  for (const m of ['referenceFree', 'reference'] as const) {
    out.push(`trade-off, ${MODE[m]} (Pareto front: the most tokens saved for each number of false stops, up to 3 × the bound)`);
    out.push(
      renderTable(
        [...HEADER, 'within bound', 'policy'],
        r.front[m].map((p) => [...pointCells(p.modes[m]), (p.modes[m].passingUpper ?? 1) <= r.choice.maxFalseStop + 1e-12 ? 'yes' : 'no', describeSettings(p.settings)]),
      ),
    );
  }
  const rows = (label: string, e: TradeoffResult['chosen']) => (['referenceFree', 'reference'] as const).map((m) => [`${label}, ${MODE[m]}`, ...pointCells(e.modes[m])]);
  // `chosen` is the policy written after the held-out check, which may differ from the in-sample choice: named so.
  const written = describeSettings(r.chosen.settings);
  const inSample = r.confirmation ? describeSettings(r.confirmation.inSample) : written;
  const unlike = inSample !== written ? `; the in-sample choice, ${inSample}, was not confirmed whole held out` : '';
  out.push(`default policy (${describeSettings(r.baseline.settings)}) vs the written policy (${written}${unlike}), both measured on every run (in-sample):`);
  out.push(renderTable(['policy', ...HEADER], [...rows('default', r.baseline), ...rows('written', r.chosen)]));
  const c = r.choice;
  const perSource = c.sourceMax !== undefined ? ` and at most ${pct(c.sourceMax)} of any one source's passing runs` : '';
  out.push(
    `chosen: the most failing-run tokens saved with the ${c.bound} ${Math.round(100 * c.confidence)}% upper bound of the false-stop rate at most ${pct(c.maxFalseStop)}${perSource} (${c.constrained.map((m) => MODE[m]).join(' and ')}): ${c.maxPassingStopped < 0 ? `no stop can meet it with ${r.runs.passing} passing runs (${c.passingNeeded} needed)` : `at most ${c.maxPassingStopped} of ${r.runs.passing} passing runs stopped`}; ${c.feasible} of ${r.evaluated} policies qualify${c.warnOnly ? '; REFUSED: the written policy only warns' : ''}`,
  );
  if (r.chosen.bySource && r.chosen.bySource.length > 1)
    out.push(sourceText(`the written policy (${written}) per source, on each source's runs (in-sample; one policy for all, not chosen per source)`, r.chosen.bySource));
  if (r.choice.note) out.push(`note: ${r.choice.note}`);
  return `${out.join('\n')}\n`;
}

/** Both folds of the split, in-sample and held-out side by side. */
export function splitText(s: SplitReport): string {
  const out = [`split by task (seed ${s.seed}, hold-out share ${s.holdout}): choose on one half, measure on the other; in-sample numbers are NOT a forecast`];
  const rows: string[][] = [];
  s.folds.forEach((f, i) => {
    for (const m of ['referenceFree', 'reference'] as const) {
      rows.push([`fold ${i + 1} in-sample, ${MODE[m]}`, ...pointCells(f.inSample[m])]);
      rows.push([`fold ${i + 1} held-out, ${MODE[m]}`, ...pointCells(f.outOfSample[m])]);
    }
    out.push(`fold ${i + 1}: chosen on ${f.calibrationTasks.length} tasks → ${describeSettings(f.settings)}; held out: ${f.holdoutTasks.length} tasks${f.note ? ` (${f.note})` : ''}`);
  });
  for (const m of ['referenceFree', 'reference'] as const) rows.push([`both folds held-out, ${MODE[m]}`, ...pointCells(s.pooledOutOfSample[m])]);
  return `${out.join('\n')}\n${renderTable(['', ...HEADER], rows)}`;
}

/** One row per source of a policy's numbers, reference-free and with references. */
export function sourceText(title: string, rows: readonly SourcePoint[]): string {
  const body = rows.flatMap((s) => (['referenceFree', 'reference'] as const).map((m) => [m === 'referenceFree' ? s.source : '', MODE[m], ...pointCells(s.modes[m])]));
  return `${title}\n${renderTable(['source', 'mode', ...HEADER], body).trimEnd()}`;
}

/** Leave-one-source-out: per held-out source, the policy chosen on the others and what it did there. */
export function sourceSplitText(s: SourceSplitReport): string {
  const rows = s.folds.flatMap((f) =>
    (['referenceFree', 'reference'] as const).map((m) => [
      m === 'referenceFree' ? f.holdout : '',
      MODE[m],
      ...pointCells(f.outOfSample[m]),
      m === 'referenceFree' ? `${describeSettings(f.settings)}${f.warnOnly ? ' (warn only)' : ''}` : '',
    ]),
  );
  for (const m of ['referenceFree', 'reference'] as const) rows.push(['all sources held out', MODE[m], ...pointCells(s.pooledOutOfSample[m]), '']);
  return `leave-one-source-out: each source judged by the policy chosen on the other sources (held-out numbers)\n${renderTable(['held-out source', 'mode', ...HEADER, 'chosen without it'], rows)}`;
}

/** The portable choice: the kinds demoted to warn and why, then the folds of the last round. */
export function portableText(p: PortableResult): string {
  const lines = [`portable policy: a kind whose stop, chosen without a source, stops more than ${pct(p.sourceMax)} of that source's passing runs only warns (${p.rounds} rounds)`];
  for (const d of p.demoted)
    lines.push(`  round ${d.round}: ${d.kind} only warns: ${d.setting}, chosen without ${d.source}, stopped ${d.passingStopped}/${d.passing} of its passing runs (${MODE[d.mode]})`);
  if (p.demoted.length === 0) lines.push('  every kind held on every held-out source');
  return `${lines.join('\n')}\n${sourceSplitText(p.heldOut)}`;
}

/** Human-readable per-kind section of `steplens calibrate` (one threshold table per signal kind). */
import {
  CALIBRATION_KINDS,
  DEFAULT_BOUND,
  type BoundSpec,
  type Calibration,
  type CalibrationKind,
  type LevelChoice,
  type ModeName,
  type RowSources,
  type ThresholdRow,
  type TradeoffPoint,
} from '../core/calibrate/index.js';
import { wilsonInterval, type Interval } from '../core/stats/interval.js';
import type { PathCount } from './calibrate-load.js';
import { renderTable } from './table.js';

const MEANING: Record<CalibrationKind, string> = {
  blindRetry: 'retries in one blind-retry episode',
  regressionLoop: 'failed edit → verify cycles on one file',
  cycle: 'repetitions in a row of one block of states',
  explorationStreak: 'exploration steps in a row',
  noAction: 'steps in a row with no action to run',
  lowScore: 'running score floor (after minSteps steps)',
};

const pct = (r: number | null): string => (r === null ? '-' : `${(100 * r).toFixed(1)}%`);
/**
 * A mean with its interval and n, in as many decimals (1 to 3) as keep the interval's ends apart: a mean of 0.02
 * steps over 810 runs read `0.0 [0.0, 0.0]`, an interval of zero width that its draws did not have.
 */
function meanCell(x: number | null, i: Interval | null, n: number): string {
  let d = 1;
  while (i !== null && i.lo !== i.hi && d < 3 && i.lo.toFixed(d) === i.hi.toFixed(d)) d++;
  const f = (v: number | null): string => (v === null ? '-' : v.toFixed(d));
  return `${f(x)}${i === null ? ' [-]' : ` [${f(i.lo)}, ${f(i.hi)}]`} (n ${n})`;
}
/** A rate's interval in percent, as the naive rule's line prints it; ` [-]` when there is none (too few runs, or no spread). */
export const pctInterval = (i: Interval | null): string => (i === null ? ' [-]' : ` [${pct(i.lo)}, ${pct(i.hi)}]`);

function levelText(name: string, c: LevelChoice): string {
  return c.threshold !== null ? `${name} ${c.threshold}` : `${name} none (${c.reason?.replace(/_/g, ' ')}: ${c.note ?? ''})`;
}

/** The rows' sources where they pool two or more with passing runs (one source's worst is the row itself). */
function pooledSources(c: Calibration): RowSources | undefined {
  const s = c.kinds.blindRetry.rows[0]?.bySource;
  return s !== undefined && s.withPassing >= 2 ? s : undefined;
}

/** A row's worst source: its passing runs stopped, rate and upper bound ('-' without a source with passing runs). */
function worstCell(r: ThresholdRow): string {
  const w = r.bySource?.worst;
  return w == null ? '-' : `${w.passingStopped}/${w.passing} (${pct(w.passingRate)}, ≤${pct(w.passingUpper)})`;
}

function kindText(kind: CalibrationKind, c: Calibration): string {
  const t = c.kinds[kind];
  const pooled = pooledSources(c);
  const mark = (r: ThresholdRow) => [r.threshold === t.warn.threshold ? 'warn' : '', r.threshold === t.stop.threshold ? 'stop' : ''].filter(Boolean).join('+');
  const rows = t.rows.map((r) => [
    r.threshold,
    // The passing side with its n, as the failing side beside it (it was `2 (40.0%, ≤81.1%)`; audit25).
    `${r.passingStopped}/${r.passing} (${pct(r.passingRate)}, ≤${pct(r.passingUpper)})`,
    `${r.failingStopped}/${r.failing} (${pct(r.failingRate)}${pctInterval(r.failingInterval)})`,
    // The means with their n and bootstrap interval (they were bare points; audit26).
    meanCell(r.meanStepsSaved, r.meanStepsSavedInterval, r.failing),
    meanCell(r.meanStepsSavedWhenStopped, r.meanStepsSavedWhenStoppedInterval, r.failingStopped),
    ...(pooled !== undefined ? [worstCell(r)] : []),
    mark(r),
  ]);
  // The rates are pooled over the sources: the worst source's beside them, with its n (audit27); --json names it.
  const worstHead = pooled !== undefined ? [`worst of ${pooled.withPassing} sources' passing stopped (95% upper)`] : [];
  const header = ['threshold', 'passing stopped (95% upper)', 'failing stopped [Wilson 95%]', 'steps saved/failing run [95%]', 'steps saved/stopped run [95%]', ...worstHead, 'pick'];
  return `${kind}: ${MEANING[kind]}\n${renderTable(header, rows)}this kind alone: ${levelText('warn', t.warn)}; ${levelText('stop', t.stop)}\n`;
}

/** "N without one left out" and the prior line: counts of PATH... only; a --runs file does not carry them (never printed as 0). */
function countsText(left: PathCount, priorRefs: PathCount): [string, string] {
  if (left.paths === null || priorRefs.paths === null)
    return [
      'the number without one left out is not known for saved runs (--runs)',
      'reference-free scores: as saved (--runs); how many bundled reference trajectories their temporal prior pooled is not known',
    ];
  const saved = left.saved ? ' (of PATH; not known for the --runs files)' : '';
  return [`${left.paths} without one left out${saved}`, `reference-free scores: temporal prior pooled from ${priorRefs.paths} bundled reference trajectories${saved}`];
}

/** The single-kind policy replayed whole (every kind at its level at once), per mode. */
export interface PerKindReplay {
  modes: Record<ModeName, TradeoffPoint>;
  /** The false-stop bound the stops were chosen under (`--max-false-stop`). */
  maxFalseStop: number;
}

/**
 * Its false stops with their upper bound, and whether they meet the bound: each kind's stop meets it alone, but their
 * stops add up (../shared/calibration: 5 kinds each within 5 % alone stop 9 of 157 passing runs together, upper 9.8 %).
 */
function replayText(r: PerKindReplay): string {
  const stops = (m: TradeoffPoint) => `${m.passingStopped}/${m.passing} passing (upper ${pct(m.passingUpper)}), ${m.failingStopped}/${m.failing} failing`;
  const over = (m: TradeoffPoint) => m.passingUpper !== null && m.passingUpper > r.maxFalseStop + 1e-12;
  const { reference, referenceFree } = r.modes;
  const verdict =
    reference.passingStopped + referenceFree.passingStopped + reference.failingStopped + referenceFree.failingStopped === 0
      ? 'no stop'
      : over(reference) || over(referenceFree)
        ? `OVER the ${pct(r.maxFalseStop)} bound: not a policy to use (each stop meets the bound alone, not together)`
        : `within the ${pct(r.maxFalseStop)} bound in-sample (not confirmed held out)`;
  return `  replayed together: reference-free ${stops(referenceFree)}; with references ${stops(reference)}: ${verdict}\n`;
}

/** How many sources the tables pool, where the runs name them (the tables of one source each: `--by source`). */
function pooledNote(c: Calibration): string {
  const s = pooledSources(c);
  if (s === undefined) return '';
  return `; pooled over ${s.sources} sources, ${s.withPassing} with passing runs: the worst one's passing stopped beside each row, the tables of each source with --by source`;
}

/** The per-kind tables (reference-free), their single-kind recommendations and the naive repeat rule. */
export function perKindText(c: Calibration, left: PathCount, priorRefs: PathCount, bound: BoundSpec = DEFAULT_BOUND, replay?: PerKindReplay): string {
  const b = c.baseline;
  const [leftOut, prior] = countsText(left, priorRefs);
  const head =
    `${c.runs.passing + c.runs.failing} runs with a known outcome (${c.runs.passing} passing, ${c.runs.failing} failing); ${leftOut}\n` +
    `${prior}\n` +
    `bounds: stop when the ${bound.method} ${Math.round(100 * bound.confidence)}% upper bound of the passing runs stopped is at most ${pct(c.kinds.blindRetry.stop.bound)}, warn at most ${pct(c.kinds.blindRetry.warn.bound)}\n\n` +
    `single kinds (reference-free; each kind alone, the others off${pooledNote(c)}):\n\n`;
  // Each rate with its n and Wilson 95 % interval, as every other rate (core/stats interval.ts).
  const rate = (k: number, n: number) => (n === 0 ? `${k}/0 (-)` : `${k}/${n} (${pct(k / n)} [${pct(wilsonInterval(k, n).lo)}, ${pct(wilsonInterval(k, n).hi)}])`);
  const naive =
    `naive rule "stop at occurrence #${b.n} of one exact action" (anything in between; Wilson 95% intervals): stops ${rate(b.passingStopped, c.runs.passing)} passing, ` +
    `${rate(b.failingStopped, c.runs.failing)} failing\n`;
  return (
    head +
    CALIBRATION_KINDS.map((k) => kindText(k, c)).join('\n') +
    '\n' +
    naive +
    `single kinds combined (the written policy takes its warn levels from it where they lie below its stops; the written policy itself is printed last):\n${JSON.stringify(c.policy)}\n` +
    (replay !== undefined ? replayText(replay) : '')
  );
}

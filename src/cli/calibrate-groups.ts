/**
 * `steplens calibrate --by agent|model|source`: one calibration per group of
 * runs (each under the same bound; a group with too few passing runs gets a
 * warn-only policy) and the fallback calibrated on every run, for the
 * policy-set file `serve --policy` loads.
 */
import {
  calibrateTradeoff,
  confirmTradeoff,
  describeSettings,
  repeatedSplits,
  taskSplitCheck,
  type ConfirmedTradeoff,
  type HeldOutCheck,
  type SplitReport,
  type TradeoffOptions,
  type TradeoffRun,
} from '../core/calibrate/index.js';
import type { PolicyMatch } from '../core/policy-set.js';
import { plural } from '../core/plural.js';
import { SteplensError } from '../errors.js';
import type { GroupBy } from './calibrate-args.js';
import { HEADER, INTERVALS_NOTE, pointCells } from './calibrate-text.js';
import { renderTable } from './table.js';

type NamedRun = TradeoffRun & { agent: string; model: string };

export interface GroupResult {
  match: PolicyMatch;
  /** The group's calibration, its stops confirmed by its split (or unconfirmed without one: confirm.ts). */
  tradeoff: ConfirmedTradeoff;
  /** Chosen on half the group's tasks, measured on the other half, both ways (the first of the splits). */
  split?: SplitReport;
  /** Every task split the group's stops were confirmed on. */
  splits?: SplitReport[];
}

const matchOf = (r: NamedRun, by: GroupBy): PolicyMatch => (by === 'agent' ? { agent: r.agent } : by === 'model' ? { model: r.model } : { agent: r.agent, model: r.model });

type HalfSplit = { seed: number; holdout: number; count: number };

function calibrated(runs: readonly TradeoffRun[], options: TradeoffOptions, split: HalfSplit | undefined): Omit<GroupResult, 'match'> {
  const t = calibrateTradeoff(runs, options);
  if (!t.ok) throw new SteplensError('usage', t.error);
  if (split === undefined) return { tradeoff: confirmTradeoff(runs, t.value, undefined, options) };
  const s = new Set(runs.map((r) => r.task)).size < 2 ? undefined : repeatedSplits(runs, split.seed, split.holdout, split.count, options);
  if (s?.ok) return { tradeoff: confirmTradeoff(runs, t.value, taskSplitCheck(s.value), options, split.seed), split: s.value[0]!, splits: s.value };
  // A group its splits cannot check (one task, or a half without runs) has nothing held out to confirm a stop.
  const unavailable = s === undefined ? 'the group has one task, so a split by task holds nothing out' : s.error;
  const none: HeldOutCheck = { kind: 'half', splits: [], unavailable };
  return { tradeoff: confirmTradeoff(runs, t.value, none, options, split.seed) };
}

/** Per group (largest first), then the fallback over every run. */
export function calibrateGroups(runs: readonly NamedRun[], by: GroupBy, options: TradeoffOptions, split?: HalfSplit): { groups: GroupResult[]; fallback: Omit<GroupResult, 'match'> } {
  const byKey = new Map<string, { match: PolicyMatch; runs: NamedRun[] }>();
  for (const r of runs) {
    const match = matchOf(r, by);
    const key = JSON.stringify(match);
    const g = byKey.get(key) ?? { match, runs: [] };
    g.runs.push(r);
    byKey.set(key, g);
  }
  const groups = [...byKey.values()].sort((a, b) => b.runs.length - a.runs.length).map((g) => ({ match: g.match, ...calibrated(g.runs, options, split) }));
  return { groups, fallback: calibrated(runs, options, split) };
}

const name = (m: PolicyMatch): string => [m.agent, m.model].filter((x) => x !== undefined).join(' + ');

/** One row per group and the fallback: what each chosen policy stops in-sample and (with a split) held out, reference-free. */
export function groupsText(by: GroupBy, r: { groups: GroupResult[]; fallback: Omit<GroupResult, 'match'> }): string {
  const rows = [...r.groups.map((g) => [name(g.match), g]), ['fallback (every run)', r.fallback]] as Array<[string, Omit<GroupResult, 'match'>]>;
  const body = rows.flatMap(([label, g]) => {
    const t = g.tradeoff;
    const policy = t.choice.warnOnly
      ? t.runs.passing < t.choice.passingNeeded
        ? `warn only (${plural(t.runs.passing, 'passing run')} < ${t.choice.passingNeeded} needed)`
        : describeSettings(t.confirmation.inSample) === 'no stop'
          ? 'warn only (no stop chosen in-sample)'
          : `warn only (not confirmed held out${g.split ? `: the in-sample stops confirmed on ${t.confirmation.confirmedOn} of ${t.confirmation.required} task splits` : ': no split possible'})`
      : `${describeSettings(t.chosen.settings)}${t.confirmation.check === 'none' ? ' (unconfirmed: --split none)' : ''}`;
    const out = [[label, `${t.runs.passing}/${t.runs.failing}`, 'in-sample', ...pointCells(t.chosen.modes.referenceFree).slice(0, 4), policy]];
    if (g.split) out.push(['', '', `held out (task split 1 of ${g.splits?.length ?? 1})`, ...pointCells(g.split.pooledOutOfSample.referenceFree).slice(0, 4), '']);
    return out;
  });
  return `policies by ${by} (reference-free numbers; --json has both modes and every fold)\n${renderTable([by, 'passing/failing', '', ...HEADER.slice(0, 4), 'policy'], body)}${INTERVALS_NOTE}\n`;
}

/**
 * The held-out confirmation of a calibrated stop policy (`steplens calibrate`, issue 23): a stop is written
 * only where the held-out check confirmed it. The check is the split's folds (by task, or leave one source
 * out): each fold chose a policy without some runs and was measured on them. The rule:
 * - a kind stops in the written policy only if the in-sample choice and EVERY fold's choice stop with it, at
 *   the most aggressive setting at least as conservative as all of them (their meet: on each held-out part it
 *   stops no run earlier, and no run the fold's own policy did not stop);
 * - and only if the folds' pooled held-out false stops have an upper bound (the calibration's method and
 *   confidence) within `maxFalseStop` in every constrained mode.
 * Otherwise the written policy only warns (where the in-sample choice would have stopped). Without a
 * check (`--split none`) the in-sample choice is kept and marked unconfirmed.
 */
import { warnOnly } from '../policy.js';
import { DEFAULT_BOUND, runFacts } from './evaluate.js';
import { evaluatePolicy } from './evaluate-policy.js';
import { GRID_KINDS, noStops } from './grid-kinds.js';
import { describeSettings, policyFor } from './stop-settings.js';
import type { TradeoffOptions } from './tradeoff.js';
import type { ModeName, StopSettings, TradeoffPoint, TradeoffResult, TradeoffRun } from './tradeoff-types.js';
import { DEFAULT_POLICY } from '../policy.js';
import type { Separation } from '../stats/separation.js';
import { stopSeparation } from './stop-separation.js';

/** What was checked held out: the folds' chosen settings and their pooled held-out numbers. */
export interface HeldOutCheck {
  kind: 'half' | 'source';
  folds: readonly StopSettings[];
  pooled: Record<ModeName, TradeoffPoint>;
  /** Why no fold could be run (e.g. a group with one task): nothing is confirmed. */
  unavailable?: string;
}

export interface Confirmation {
  /** How the choice was checked (`none`: not checked, the in-sample choice is written unconfirmed). */
  check: 'half' | 'source' | 'none';
  /** The rule, in one sentence (printed and written as is). */
  rule: string;
  inSample: StopSettings;
  folds: StopSettings[];
  /** The stops the check confirmed (what the written policy stops at; all off when `warnOnly`). */
  confirmed: StopSettings;
  /** The folds' pooled held-out false stops are within the bound in every constrained mode (null: no check). */
  heldOutWithinBound: boolean | null;
  /** Kinds the in-sample choice stopped with and the written policy does not, and why. */
  dropped: Array<{ kind: string; inSample: string; reason: string }>;
  /** True when a check ran and confirmed no stop: the written policy only warns. */
  warnOnly: boolean;
}

type Loose = Record<string, unknown>;
const get = (s: StopSettings, key: string): unknown => (s as unknown as Loose)[key] ?? null;

/** Per kind, the meet of every setting (off when any is off). */
export function meetSettings(all: readonly StopSettings[]): StopSettings {
  return Object.fromEntries(
    GRID_KINDS.map((k) => {
      const vs = all.map((s) => get(s, k.key));
      return [k.key, vs.some((v) => v === null) ? null : vs.reduce((a, b) => k.meet(a, b))];
    }),
  ) as unknown as StopSettings;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The confirmed result: `full` with its chosen policy replaced by what the check confirmed (re-measured on every run). */
export type ConfirmedTradeoff = TradeoffResult & {
  confirmation: Confirmation;
  /** The written policy's stop decision as a predictor of failure, per mode (stop-separation.ts). */
  separation: Record<ModeName, Separation>;
};

/** {@link confirm}, plus the written policy's within-source separation (bootstrap seeded by `seed`). */
export function confirmTradeoff(runs: readonly TradeoffRun[], full: TradeoffResult, check: HeldOutCheck | undefined, options: TradeoffOptions = {}, seed = 1): ConfirmedTradeoff {
  const c = confirm(runs, full, check, options);
  return { ...c, separation: stopSeparation(runs, c.chosen, { seed }) };
}

function confirm(runs: readonly TradeoffRun[], full: TradeoffResult, check: HeldOutCheck | undefined, options: TradeoffOptions): TradeoffResult & { confirmation: Confirmation } {
  const bound = { method: options.bound ?? DEFAULT_BOUND.method, confidence: options.confidence ?? DEFAULT_BOUND.confidence };
  const c = full.choice;
  const inSample = full.chosen.settings;
  const stated = `${c.bound} ${Math.round(100 * c.confidence)}% upper bound of false stops at most ${pct(c.maxFalseStop)}`;
  if (check === undefined) {
    const rule = `not checked held out (--split none): the in-sample choice under the ${stated} is written unconfirmed`;
    return { ...full, confirmation: { check: 'none', rule, inSample, folds: [], confirmed: inSample, heldOutWithinBound: null, dropped: [], warnOnly: c.warnOnly } };
  }
  const rule =
    `a kind stops only where the in-sample choice and every held-out fold (${check.kind === 'half' ? 'split by task' : 'leave one source out'}) stop with it, ` +
    `at the most conservative of their settings, and only if the folds' pooled held-out ${stated} (${c.constrained.join(' and ')})`;
  const within = check.unavailable === undefined && c.constrained.every((m) => (check.pooled[m].passingUpper ?? 1) <= c.maxFalseStop + 1e-12);
  const meet = within && !c.warnOnly ? meetSettings([inSample, ...check.folds]) : noStops();
  const dropped = GRID_KINDS.flatMap((k) => {
    const v = get(inSample, k.key);
    if (v === null || get(meet, k.key) !== null) return [];
    const off = check.folds.filter((f) => get(f, k.key) === null).length;
    const reason = check.unavailable
      ? `no held-out check: ${check.unavailable}`
      : !within
        ? `the held-out false stops exceed the bound (${c.constrained.map((m) => `${check.pooled[m].passingStopped}/${check.pooled[m].passing}, upper ${pct(check.pooled[m].passingUpper ?? 1)}`).join('; ')})`
        : `${off} of ${check.folds.length} folds chose no ${k.key} stop`;
    return [{ kind: k.key, inSample: k.describe(v), reason }];
  });
  const tightened = GRID_KINDS.some((k) => get(meet, k.key) !== null && JSON.stringify(get(meet, k.key)) !== JSON.stringify(get(inSample, k.key)));
  const warnSource = options.warnSource ?? options.baseline ?? DEFAULT_POLICY;
  const anyStop = GRID_KINDS.some((k) => get(meet, k.key) !== null);
  const unchanged = !tightened && dropped.length === 0;
  const policy = anyStop ? policyFor(meet, warnSource) : warnOnly(policyFor(c.warnOnly && c.pointChoice ? c.pointChoice : inSample, warnSource));
  const chosen = unchanged && !c.warnOnly ? full.chosen : evaluatePolicy(runs, runs.map(runFacts), policy, meet, bound);
  const notes = [
    ...(c.note !== undefined ? [c.note] : []),
    ...(dropped.length > 0 ? [`not confirmed held out, written as warn only: ${dropped.map((d) => `${d.inSample} (${d.reason})`).join('; ')}`] : []),
    ...(tightened ? [`made as conservative as every held-out fold: ${describeSettings(inSample)} → ${describeSettings(meet)}`] : []),
  ];
  return {
    ...full,
    choice: { ...c, warnOnly: c.warnOnly || !anyStop, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) },
    chosen,
    confirmation: { check: check.kind, rule, inSample, folds: [...check.folds], confirmed: meet, heldOutWithinBound: within, dropped, warnOnly: !anyStop },
  };
}

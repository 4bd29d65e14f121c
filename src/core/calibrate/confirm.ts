/**
 * The held-out confirmation of a calibrated stop policy (`steplens calibrate`, issue 23): a stop is written
 * only where the held-out check confirmed it. The check is one or more splits (by task, repeated K times from
 * the seed; or one round of leave one source out), each of folds: each fold chose a policy without some runs
 * and was measured on them. The rule:
 * - a split confirms a kind if the in-sample choice and EVERY one of its folds' choices stop with it, and its
 *   folds' pooled held-out false stops have an upper bound (the calibration's method and confidence) within
 *   `maxFalseStop` in every constrained mode;
 * - a kind stops in the written policy only if EVERY split confirmed it, at the most aggressive setting at
 *   least as conservative as all of them (their meet: on each held-out part it stops no run earlier, and no
 *   run a fold's own policy did not stop). One split by task decided alone before (review s41): the written
 *   policy flipped between seeds; requiring all K rather than a majority keeps the written stops those no draw
 *   of the tasks rejects, the same "every fold" rule one split already had.
 * Otherwise the written policy only warns (where the in-sample choice would have stopped). Without a
 * check (`--split none`) the in-sample choice is kept and marked unconfirmed.
 */
import { DEFAULT_BOUND, runFacts } from './evaluate.js';
import { evaluatePolicy } from './evaluate-policy.js';
import { GRID_KINDS, noStops } from './grid-kinds.js';
import { describeSettings, policyFor, warnOnlyPolicyFor } from './stop-settings.js';
import type { TradeoffOptions } from './tradeoff.js';
import type { ModeName, StopSettings, TradeoffPoint, TradeoffResult, TradeoffRun } from './tradeoff-types.js';
import { DEFAULT_POLICY } from '../policy.js';
import type { Separation } from '../stats/separation.js';
import { stopSeparation } from './stop-separation.js';

/** One split of the held-out check: its folds' chosen settings and their pooled held-out numbers. */
export interface CheckSplit {
  /** How the split was drawn (e.g. `seed 2/1`), for the printout. */
  label?: string;
  folds: readonly StopSettings[];
  pooled: Record<ModeName, TradeoffPoint>;
}

/** What was checked held out: one or more splits (`half`: repeated task splits; `source`: one leave-one-source-out round). */
export interface HeldOutCheck {
  kind: 'half' | 'source';
  splits: readonly CheckSplit[];
  /** Why no fold could be run (e.g. a group with one task): nothing is confirmed. */
  unavailable?: string;
}

/** What one split confirmed on its own: the meet of the in-sample choice and its folds, if its held-out numbers met the bound. */
export interface SplitConfirmation {
  label?: string;
  folds: StopSettings[];
  pooled: Record<ModeName, TradeoffPoint>;
  heldOutWithinBound: boolean;
  confirmed: StopSettings;
}

export interface Confirmation {
  /** How the choice was checked (`none`: not checked, the in-sample choice is written unconfirmed). */
  check: 'half' | 'source' | 'none';
  /** The rule, in one sentence (printed and written as is). */
  rule: string;
  inSample: StopSettings;
  /** Every split's folds, in order. */
  folds: StopSettings[];
  splits: SplitConfirmation[];
  /** Splits that must confirm a kind for it to stop (all of them). */
  required: number;
  /** Splits that confirmed every stop of the in-sample choice (at its setting or a more conservative one). */
  confirmedOn: number;
  /** The stops the check confirmed (what the written policy stops at; all off when `warnOnly`). */
  confirmed: StopSettings;
  /** Every split's pooled held-out false stops are within the bound in every constrained mode (null: no check). */
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
  return { ...c, separation: stopSeparation(runs, c.chosen, { seed, unit: 'task' }) };
}

const unitOf = (c: HeldOutCheck) => (c.kind === 'half' ? 'task splits' : 'leave-one-source-out rounds');

function confirm(runs: readonly TradeoffRun[], full: TradeoffResult, check: HeldOutCheck | undefined, options: TradeoffOptions): TradeoffResult & { confirmation: Confirmation } {
  const bound = { method: options.bound ?? DEFAULT_BOUND.method, confidence: options.confidence ?? DEFAULT_BOUND.confidence };
  const c = full.choice;
  const inSample = full.chosen.settings;
  const stated = `${c.bound} ${Math.round(100 * c.confidence)}% upper bound of false stops at most ${pct(c.maxFalseStop)}`;
  if (check === undefined) {
    const rule = `not checked held out (--split none): the in-sample choice under the ${stated} is written unconfirmed`;
    const confirmation: Confirmation = {
      check: 'none',
      rule,
      inSample,
      folds: [],
      splits: [],
      required: 0,
      confirmedOn: 0,
      confirmed: inSample,
      heldOutWithinBound: null,
      dropped: [],
      warnOnly: c.warnOnly,
    };
    return { ...full, confirmation };
  }
  const n = check.splits.length;
  const rule =
    check.kind === 'half'
      ? `a kind stops only where the in-sample choice and every held-out fold of all ${n} splits by task (each way; the splits drawn from --seed) stop with it, ` +
        `at the most conservative of their settings, and only if each split's pooled held-out ${stated} (${c.constrained.join(' and ')})`
      : `a kind stops only where the in-sample choice and every held-out fold (leave one source out) stop with it, ` +
        `at the most conservative of their settings, and only if the folds' pooled held-out ${stated} (${c.constrained.join(' and ')})`;
  const withinOf = (pooled: Record<ModeName, TradeoffPoint>) => c.constrained.every((m) => (pooled[m].passingUpper ?? 1) <= c.maxFalseStop + 1e-12);
  // Each split confirms on its own; a kind stops only if every split confirmed it, so no one draw of tasks decides.
  const splits: SplitConfirmation[] = check.splits.map((s) => {
    const within = withinOf(s.pooled);
    const confirmed = within && !c.warnOnly ? meetSettings([inSample, ...s.folds]) : noStops();
    return { ...(s.label !== undefined ? { label: s.label } : {}), folds: [...s.folds], pooled: s.pooled, heldOutWithinBound: within, confirmed };
  });
  const within = check.unavailable === undefined && n > 0 && splits.every((s) => s.heldOutWithinBound);
  const meet = check.unavailable === undefined && n > 0 ? meetSettings(splits.map((s) => s.confirmed)) : noStops();
  const stops = GRID_KINDS.filter((k) => get(inSample, k.key) !== null);
  const confirmedOn = stops.length === 0 ? 0 : splits.filter((s) => stops.every((k) => get(s.confirmed, k.key) !== null)).length;
  const folds = check.splits.flatMap((s) => [...s.folds]);
  const over = splits.filter((s) => !s.heldOutWithinBound);
  const worst = over.reduce<SplitConfirmation | undefined>((w, s) => (w === undefined || worstUpper(s, c.constrained) > worstUpper(w, c.constrained) ? s : w), undefined);
  const dropped = stops.flatMap((k) => {
    const v = get(inSample, k.key);
    if (get(meet, k.key) !== null) return [];
    if (check.unavailable !== undefined) return [{ kind: k.key, inSample: k.describe(v), reason: `no held-out check: ${check.unavailable}` }];
    const off = folds.filter((f) => get(f, k.key) === null).length;
    const on = splits.filter((s) => get(s.confirmed, k.key) !== null).length;
    const why = [
      ...(off > 0 ? [`${off} of ${folds.length} folds chose no ${k.key} stop`] : []),
      ...(worst !== undefined
        ? [
            `the held-out false stops exceed the bound${n > 1 ? ` on ${over.length} of ${n} splits (worst ${worst.label ?? 'split'}: ` : ' ('}` +
              `${c.constrained.map((m) => `${worst.pooled[m].passingStopped}/${worst.pooled[m].passing}, upper ${pct(worst.pooled[m].passingUpper ?? 1)}`).join('; ')})`,
          ]
        : []),
    ].join('; ');
    return [{ kind: k.key, inSample: k.describe(v), reason: n > 1 ? `confirmed on ${on} of ${n} ${unitOf(check)}: ${why}` : why }];
  });
  const tightened = GRID_KINDS.some((k) => get(meet, k.key) !== null && JSON.stringify(get(meet, k.key)) !== JSON.stringify(get(inSample, k.key)));
  const warnSource = options.warnSource ?? options.baseline ?? DEFAULT_POLICY;
  const anyStop = GRID_KINDS.some((k) => get(meet, k.key) !== null);
  const unchanged = !tightened && dropped.length === 0;
  const policy = anyStop ? policyFor(meet, warnSource) : warnOnlyPolicyFor(c.warnOnly && c.pointChoice ? c.pointChoice : inSample, warnSource);
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
    confirmation: { check: check.kind, rule, inSample, folds, splits, required: n, confirmedOn, confirmed: meet, heldOutWithinBound: within, dropped, warnOnly: !anyStop },
  };
}

/** The largest held-out upper bound of a split over the constrained modes. */
const worstUpper = (s: SplitConfirmation, modes: readonly ModeName[]) => Math.max(...modes.map((m) => s.pooled[m].passingUpper ?? 1));

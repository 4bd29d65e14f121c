/**
 * The kinds the calibration grid combines, one entry each: default
 * candidates, where one candidate alone stops a run, how a candidate reads
 * from and writes into a policy, and which candidate is the more
 * conservative. Adding a stop kind to calibration is one entry here plus its
 * field in `StopSettings` (and in `Policy`).
 */
import { countProfile, countStopKind, type CountKindKey } from '../early-stop/index.js';
import type { Levels, Policy } from '../policy.js';
import type { State } from '../types.js';
import type { GridKindName, LowScoreStop, StopSettings } from './tradeoff-types.js';

/** A run as one kind's stops read it: its states and the running composite in one mode. */
export interface KindRun {
  states: readonly State[];
  totals: readonly number[];
}

export interface GridKind<V> {
  key: GridKindName;
  /** Default candidates, any order. */
  candidates: readonly V[];
  /** True when the stops read the running score (so differ between reference modes). */
  modeDependent: boolean;
  /** Why a candidate is invalid, or undefined. */
  check(v: V): string | undefined;
  /** Per candidate, the index of the state at which this kind alone first stops `run` (null = never). */
  stops(run: KindRun, values: readonly V[], base: Policy): Array<number | null>;
  /** The stop setting of `policy` (null = this kind does not stop). */
  of(policy: Policy): V | null;
  /** `policy` with this kind stopping at `v`, or (null) only warning at `warnSource`'s level. */
  apply(policy: Policy, v: V | null, warnSource: Policy): Policy;
  /** Negative when `a` is the more conservative candidate. */
  conservative(a: V, b: V): number;
  /** The most aggressive setting at least as conservative as both: it stops a run only where both do, never earlier. */
  meet(a: V, b: V): V;
  describe(v: V): string;
}

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let x = from; x <= to; x += step) out.push(x);
  return out;
}

const levels = (stop: number | null, warnFrom: Levels): Levels => ({
  warn: warnFrom.warn !== null && (stop === null || warnFrom.warn < stop) ? warnFrom.warn : null,
  stop,
});

/** A count kind: stop when one episode reaches `n`; larger counts are more conservative. */
function countGridKind(key: CountKindKey, candidates: number[]): GridKind<number> {
  const spec = countStopKind(key);
  return {
    key,
    candidates,
    modeDependent: false,
    check: (v) => (Number.isInteger(v) && v >= spec.min ? undefined : `bad ${key} candidate ${v}`),
    stops(run, values, base) {
      const first = countProfile(run.states, spec.counter(base));
      return values.map((v) => first.get(v) ?? null);
    },
    of: (p) => p[key].stop,
    apply: (p, v, w) => ({ ...p, [key]: { ...p[key], ...levels(v, w[key]) } }),
    conservative: (a, b) => b - a,
    meet: (a, b) => Math.max(a, b),
    describe: (v) => `${key} ${v}`,
  };
}

/** The low-score floor: stop when the running score is below `floor` once `minSteps` steps were pushed. */
const lowScoreKind: GridKind<LowScoreStop> = {
  key: 'lowScore',
  candidates: range(10, 50, 5).flatMap((floor) => [5, 10, 15, 20, 30].map((minSteps) => ({ floor, minSteps }))),
  modeDependent: true,
  check: (l) => (l.floor >= 0 && l.floor <= 100 && Number.isInteger(l.minSteps) && l.minSteps >= 0 ? undefined : `bad lowScore candidate ${JSON.stringify(l)}`),
  stops(run, values) {
    return values.map((l) => {
      for (let i = Math.max(0, l.minSteps - 1); i < run.totals.length; i++) if (run.totals[i]! < l.floor) return i;
      return null;
    });
  },
  of: (p) => (p.lowScore.severity === 'stop' ? { floor: p.lowScore.floor, minSteps: p.lowScore.minSteps } : null),
  apply(p, v, w) {
    const low = w.lowScore;
    return {
      ...p,
      lowScore: v !== null ? { ...v, severity: 'stop' } : { floor: low.floor, minSteps: low.minSteps, severity: low.severity === null ? null : 'warn' },
    };
  },
  conservative: (a, b) => a.floor - b.floor || b.minSteps - a.minSteps,
  // A lower floor and a later start: below both floors, after both starts.
  meet: (a, b) => ({ floor: Math.min(a.floor, b.floor), minSteps: Math.max(a.minSteps, b.minSteps) }),
  describe: (l) => `lowScore <${l.floor} after ${l.minSteps}`,
};

/** Every grid kind, in the order the grid enumerates them (and settings print). */
export const GRID_KINDS: ReadonlyArray<GridKind<unknown>> = [
  countGridKind('blindRetry', range(2, 12)),
  countGridKind('regressionLoop', range(2, 8)),
  countGridKind('cycle', range(2, 8)),
  countGridKind('explorationStreak', range(10, 80, 5)),
  countGridKind('noAction', range(2, 5)),
  lowScoreKind,
];

/** Default candidates of every kind. */
export const DEFAULT_GRID = Object.freeze(Object.fromEntries(GRID_KINDS.map((k) => [k.key, k.candidates]))) as unknown as {
  readonly [K in GridKindName]: ReadonlyArray<NonNullable<StopSettings[K]>>;
};

/** Settings with every kind off. */
export function noStops(): StopSettings {
  return Object.fromEntries(GRID_KINDS.map((k) => [k.key, null])) as unknown as StopSettings;
}

/**
 * The candidate stop rules shadow mode keeps counters for: every default
 * grid candidate of every kind alone (e.g. `blindRetry 5`), and the
 * configured policy's own stops as one candidate (`configured`), so an
 * offline calibration that could not back a stop can be confirmed online.
 * Where each candidate would have stopped a finished run comes from one
 * profile pass per kind (a plan built once per pair says which values).
 */
import { GRID_KINDS, noStops, type GridKind } from '../calibrate/grid-kinds.js';
import { activeStops, settingsOf } from '../calibrate/stop-settings.js';
import type { StopSettings } from '../calibrate/tradeoff-types.js';
import type { Policy } from '../policy.js';
import type { State } from '../types.js';

export const CONFIGURED = 'configured';

export interface ShadowCandidate {
  id: string;
  settings: StopSettings;
}

/** Which values each kind must be replayed at, and where each candidate's stops are. */
export interface ShadowPlan {
  candidates: readonly ShadowCandidate[];
  kinds: Array<{ kind: GridKind<unknown>; values: unknown[] }>;
  /** Per candidate, its (kind index, value index) pairs. */
  refs: Array<Array<[number, number]>>;
}

type Loose = Record<string, unknown>;

/** The candidates for a pair whose configured policy is `configured`. */
export function shadowCandidates(configured: Policy): ShadowCandidate[] {
  const out: ShadowCandidate[] = [];
  const own = settingsOf(configured);
  if (activeStops(own) > 0) out.push({ id: CONFIGURED, settings: own });
  for (const kind of GRID_KINDS) {
    for (const v of kind.candidates) out.push({ id: kind.describe(v), settings: { ...noStops(), [kind.key]: v } });
  }
  return out;
}

/** The replay plan of a candidate list. */
export function shadowPlan(candidates: readonly ShadowCandidate[]): ShadowPlan {
  const kinds: ShadowPlan['kinds'] = [];
  const refs = candidates.map(() => [] as Array<[number, number]>);
  GRID_KINDS.forEach((kind) => {
    const keys: string[] = [];
    const values: unknown[] = [];
    candidates.forEach((c, ci) => {
      const v = (c.settings as unknown as Loose)[kind.key];
      if (v === null || v === undefined) return;
      const key = JSON.stringify(v);
      let j = keys.indexOf(key);
      if (j < 0) {
        j = keys.length;
        keys.push(key);
        values.push(v);
      }
      refs[ci]!.push([kinds.length, j]);
    });
    if (values.length > 0) kinds.push({ kind, values });
  });
  return { candidates, kinds, refs };
}

/** Per candidate (aligned with the plan's), the index of the state at which it would first have stopped the run, or null. */
export function candidateStops(plan: ShadowPlan, states: readonly State[], totals: readonly number[], base: Policy): Array<number | null> {
  const stops = plan.kinds.map(({ kind, values }) => kind.stops({ states, totals }, values, base));
  return plan.refs.map((refs) => {
    let best: number | null = null;
    for (const [k, j] of refs) {
      const s = stops[k]![j] ?? null;
      if (s !== null && (best === null || s < best)) best = s;
    }
    return best;
  });
}

/**
 * The candidate stop rules shadow mode keeps counters for: every default
 * grid candidate of every kind alone (e.g. `blindRetry 5`), and the
 * configured policy's own stops as one candidate (`configured`), so an
 * offline calibration that could not back a stop can be confirmed online.
 * Where each candidate would have stopped a finished run comes from one
 * profile pass per kind.
 */
import { GRID_KINDS, noStops } from '../calibrate/grid-kinds.js';
import { settingsOf, activeStops } from '../calibrate/stop-settings.js';
import type { StopSettings } from '../calibrate/tradeoff-types.js';
import type { Policy } from '../policy.js';
import type { State } from '../types.js';

export const CONFIGURED = 'configured';

export interface ShadowCandidate {
  id: string;
  settings: StopSettings;
}

type Loose = Record<string, unknown>;

/** The candidates for a pair whose configured policy is `configured`. */
export function shadowCandidates(configured: Policy): ShadowCandidate[] {
  const out: ShadowCandidate[] = [];
  const own = settingsOf(configured);
  if (activeStops(own) > 0) out.push({ id: CONFIGURED, settings: own });
  for (const kind of GRID_KINDS) {
    for (const v of kind.candidates) out.push({ id: kind.describe(v), settings: { ...noStops(), [kind.key]: v } as StopSettings });
  }
  return out;
}

/** Per candidate (aligned), the index of the state at which it would first have stopped the run, or null. */
export function candidateStops(candidates: readonly ShadowCandidate[], states: readonly State[], totals: readonly number[], base: Policy): (number | null)[] {
  const firstAt = new Map<string, Map<string, number | null>>();
  for (const kind of GRID_KINDS) {
    const values = new Map<string, unknown>();
    for (const c of candidates) {
      const v = (c.settings as unknown as Loose)[kind.key];
      if (v !== null && v !== undefined) values.set(JSON.stringify(v), v);
    }
    if (values.size === 0) continue;
    const keys = [...values.keys()];
    const stops = kind.stops({ states, totals }, [...values.values()], base);
    firstAt.set(kind.key, new Map(keys.map((k, i) => [k, stops[i] ?? null])));
  }
  return candidates.map((c) => {
    let best: number | null = null;
    for (const kind of GRID_KINDS) {
      const v = (c.settings as unknown as Loose)[kind.key];
      if (v === null || v === undefined) continue;
      const s = firstAt.get(kind.key)?.get(JSON.stringify(v)) ?? null;
      if (s !== null && (best === null || s < best)) best = s;
    }
    return best;
  });
}

/**
 * The detectors of the early-stop signals, one per policy kind, fed one
 * state and the running composite at a time; each returns the signals that
 * fire at that state.
 */
import type { Levels, Policy } from '../policy.js';
import type { Signal, SignalKind, State } from '../types.js';
import type { Counter } from './counters.js';
import { signalsFor } from './levels.js';

/** Fed each state with the composite after it and, when a forecast model is loaded, P(pass | prefix). */
export type StepDetector = (state: State, total: number, pPass?: number) => readonly Signal[];

/** What a detector returns at most steps: one shared empty list (detectors run on every step of every session). */
const NO_SIGNALS: readonly Signal[] = Object.freeze([]);

/** Fires when one of `counter`'s episodes reaches the `warn` / `stop` level (once per episode and level). */
export function countDetector(kind: SignalKind, levels: Levels, counter: Counter): StepDetector {
  if (levels.warn === null && levels.stop === null) return () => NO_SIGNALS;
  return (state) => {
    const counts = counter(state);
    if (counts.length === 0) return NO_SIGNALS;
    const out: Signal[] = [];
    for (const c of counts) out.push(...signalsFor(kind, levels, c.n - 1, c.n, state.t, c.steps(), c.message));
    return out;
  };
}

/** Fires when the composite is below the floor once `minSteps` steps were pushed; re-arms when it climbs back. */
export function lowScoreDetector(policy: Policy): StepDetector {
  const low = policy.lowScore;
  let steps = 0;
  let below = false;
  return (state, total) => {
    steps += 1;
    if (low.severity !== null && steps >= low.minSteps && total < low.floor) {
      const fire = !below;
      below = true;
      return fire ? [{ kind: 'low_score', severity: low.severity, t: state.t, steps: [state.t], message: `score ${total.toFixed(1)} below the floor ${low.floor} after ${steps} steps` }] : NO_SIGNALS;
    }
    if (total >= low.floor) below = false;
    return NO_SIGNALS;
  };
}

/** Fires when the forecast P(pass) is below the floor once `minSteps` steps were pushed (only with a forecast model); re-arms when it climbs back. */
export function lowForecastDetector(policy: Policy): StepDetector {
  const lf = policy.lowForecast;
  let steps = 0;
  let below = false;
  return (state, _total, pPass) => {
    steps += 1;
    if (pPass === undefined) return NO_SIGNALS;
    if (lf.severity !== null && steps >= lf.minSteps && pPass < lf.floor) {
      const fire = !below;
      below = true;
      return fire
        ? [{ kind: 'low_forecast', severity: lf.severity, t: state.t, steps: [state.t], message: `forecast P(pass) ${pPass.toFixed(3)} below ${lf.floor} after ${steps} steps` }]
        : NO_SIGNALS;
    }
    if (pPass >= lf.floor) below = false;
    return NO_SIGNALS;
  };
}

/** Fires once when the step budget, once when the token budget (sum of state costs) is exceeded. */
export function budgetDetector(policy: Policy): StepDetector {
  const b = policy.budget;
  let steps = 0;
  let tokens = 0;
  let stepsFired = false;
  let tokensFired = false;
  return (state) => {
    steps += 1;
    tokens += state.cost;
    if ((stepsFired || b.maxSteps === null || steps <= b.maxSteps) && (tokensFired || b.maxTokens === null || tokens <= b.maxTokens)) return NO_SIGNALS;
    const out: Signal[] = [];
    if (!stepsFired && b.maxSteps !== null && steps > b.maxSteps) {
      stepsFired = true;
      out.push({ kind: 'budget', severity: b.severity, t: state.t, steps: [state.t], message: `step budget exceeded: ${steps} steps > ${b.maxSteps}` });
    }
    if (!tokensFired && b.maxTokens !== null && tokens > b.maxTokens) {
      tokensFired = true;
      out.push({ kind: 'budget', severity: b.severity, t: state.t, steps: [state.t], message: `token budget exceeded: ~${Math.round(tokens)} tokens > ${b.maxTokens}` });
    }
    return out;
  };
}

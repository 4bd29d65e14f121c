/**
 * Early-stop signals (method.md section 8), fed one state and the running
 * score at a time. Each signal fires once per episode, at the step whose
 * state crosses its threshold; a warn and a stop on the same episode are two
 * signals. Low score re-arms when the score climbs back to the floor; each
 * budget fires once.
 */
import type { Policy } from '../policy.js';
import type { Signal, State } from '../types.js';
import {
  blindRetryDetector, cycleDetector, explorationStreakDetector, regressionLoopDetector, type StateDetector,
} from './detectors.js';

export { crossed } from './levels.js';

export interface EarlyStop {
  /** Adds the next state with the composite (and the forecast pPass, if any) after it; returns the signals that fire now. */
  add(state: State, total: number, pPass?: number): Signal[];
  /** Every signal fired so far, in order. */
  signals(): readonly Signal[];
}

export function createEarlyStop(policy: Policy): EarlyStop {
  const detectors: StateDetector[] = [
    blindRetryDetector(policy),
    regressionLoopDetector(policy),
    cycleDetector(policy),
    explorationStreakDetector(policy),
  ];
  const fired: Signal[] = [];
  let steps = 0;
  let tokens = 0;
  let below = false;
  let belowForecast = false;
  let stepsFired = false;
  let tokensFired = false;
  return {
    add(state, total, pPass) {
      const out: Signal[] = [];
      for (const d of detectors) out.push(...d(state));
      steps += 1;
      tokens += state.cost;
      const low = policy.lowScore;
      if (low.severity !== null && steps >= low.minSteps && total < low.floor) {
        if (!below) {
          out.push({ kind: 'low_score', severity: low.severity, t: state.t, steps: [state.t], message: `score ${total.toFixed(1)} below the floor ${low.floor} after ${steps} steps` });
        }
        below = true;
      } else if (total >= low.floor) below = false;
      const lf = policy.lowForecast;
      if (pPass !== undefined && lf.severity !== null && steps >= lf.minSteps && pPass < lf.floor) {
        if (!belowForecast) {
          out.push({ kind: 'low_forecast', severity: lf.severity, t: state.t, steps: [state.t], message: `forecast P(pass) ${pPass.toFixed(3)} below ${lf.floor} after ${steps} steps` });
        }
        belowForecast = true;
      } else if (pPass !== undefined && pPass >= lf.floor) belowForecast = false;
      const b = policy.budget;
      if (!stepsFired && b.maxSteps !== null && steps > b.maxSteps) {
        stepsFired = true;
        out.push({ kind: 'budget', severity: b.severity, t: state.t, steps: [state.t], message: `step budget exceeded: ${steps} steps > ${b.maxSteps}` });
      }
      if (!tokensFired && b.maxTokens !== null && tokens > b.maxTokens) {
        tokensFired = true;
        out.push({ kind: 'budget', severity: b.severity, t: state.t, steps: [state.t], message: `token budget exceeded: ~${Math.round(tokens)} tokens > ${b.maxTokens}` });
      }
      fired.push(...out);
      return out;
    },
    signals: () => fired,
  };
}

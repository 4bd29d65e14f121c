/**
 * The `lowForecast` stop rule (pPass < θ after N steps) evaluated held out:
 * each run's out-of-fold pPass is checked against the rule for every (θ, N)
 * of a grid (at the step where the early-stop engine's `low_forecast` stop
 * would fire); per point, the passing runs it would stop (false stops)
 * against the failing runs' steps and tokens it would save; the best point
 * within the false-stop bound (most failing-run tokens saved).
 */
import type { ForecastRun } from './fit.js';

export interface StopPoint {
  floor: number;
  minSteps: number;
  passingStopped: number;
  failingStopped: number;
  /** Share of the failing runs' tokens after the stop step. */
  failingTokensSaved: number;
  /** Share of the failing runs' steps after the stop step. */
  failingStepsSaved: number;
}

export interface StopEvaluation {
  passing: number;
  failing: number;
  maxFalseStop: number;
  points: StopPoint[];
  /** Best point within the bound, or null when none stops a failing run within it. */
  chosen: StopPoint | null;
}

export const STOP_FLOORS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3];
export const STOP_MIN_STEPS = [5, 10, 20, 30];

/**
 * Index of the state at which the rule stops a run given its pPass per step,
 * or null: the first step t (1-based) with t >= minSteps and pPass < floor,
 * which is where the early-stop engine's `low_forecast` stop fires
 * (test/forecast/stop-eval.test.ts replays the engine to check it).
 */
export function forecastStop(pPass: readonly number[], floor: number, minSteps: number): number | null {
  for (let i = Math.max(0, minSteps - 1); i < pPass.length; i++) if (pPass[i]! < floor) return i;
  return null;
}

/** Evaluates the grid on held-out predictions (runs without one are left out). */
export function evaluateForecastStop(runs: readonly ForecastRun[], preds: ReadonlyArray<readonly number[] | null>, maxFalseStop = 0.05): StopEvaluation {
  const idx = runs.map((_, i) => i).filter((i) => preds[i] !== null);
  const passing = idx.filter((i) => runs[i]!.passed).length;
  const failing = idx.length - passing;
  // Tokens after each step of each run, summed once: tokensAfter[i][t] = cost of states t.. of run i.
  const tokensAfter = new Map<number, Float64Array>();
  for (const i of idx) {
    const st = runs[i]!.states;
    const after = new Float64Array(st.length + 1);
    for (let t = st.length - 1; t >= 0; t--) after[t] = after[t + 1]! + st[t]!.cost;
    tokensAfter.set(i, after);
  }
  const failTokens = idx.filter((i) => !runs[i]!.passed).reduce((s, i) => s + tokensAfter.get(i)![0]!, 0);
  const failSteps = idx.filter((i) => !runs[i]!.passed).reduce((s, i) => s + runs[i]!.states.length, 0);
  const points: StopPoint[] = [];
  for (const floor of STOP_FLOORS) {
    for (const minSteps of STOP_MIN_STEPS) {
      let ps = 0,
        fs = 0,
        tok = 0,
        steps = 0;
      for (const i of idx) {
        const r = runs[i]!;
        const at = forecastStop(preds[i]!, floor, minSteps);
        if (at === null) continue;
        if (r.passed) ps += 1;
        else {
          fs += 1;
          tok += tokensAfter.get(i)![at + 1]!;
          steps += r.states.length - at - 1;
        }
      }
      points.push({ floor, minSteps, passingStopped: ps, failingStopped: fs, failingTokensSaved: failTokens > 0 ? tok / failTokens : 0, failingStepsSaved: failSteps > 0 ? steps / failSteps : 0 });
    }
  }
  const within = points.filter((p) => passing === 0 || p.passingStopped / passing <= maxFalseStop + 1e-12).filter((p) => p.failingStopped > 0);
  const chosen = within.reduce<StopPoint | null>((best, p) => (best === null || p.failingTokensSaved > best.failingTokensSaved + 1e-12 ? p : best), null);
  return { passing, failing, maxFalseStop, points, chosen };
}

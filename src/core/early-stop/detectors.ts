/**
 * The detectors of the early-stop signals, one per policy kind, fed one
 * state and the running composite at a time; each returns the signals that
 * fire at that state.
 */
import type { Levels, Policy } from '../policy.js';
import type { Signal, SignalKind, State } from '../types.js';
import type { Counter } from './counters.js';
import { anyCrossed, signalsFor } from './levels.js';
import type { WasteHistory } from '../waste/history.js';

/**
 * Fed each state with the composite after it and, when a forecast model is loaded, P(pass | prefix). An object with
 * a method, not a closure: every session keeps one per kind, and a class shares its method (a closure and its
 * context cost ~150 B each, ~1 KB a session over the eight kinds).
 */
export interface StepDetector {
  add(state: State, total: number, pPass?: number): readonly Signal[];
  /** What its counter found so far (Counter.found), when it has one that keeps it. */
  found?(): WasteHistory;
}

/** What a detector returns at most steps: one shared empty list (detectors run on every step of every session). */
const NO_SIGNALS: readonly Signal[] = Object.freeze([]);

/** The detector of a kind its policy turns off: one for every session. */
const NEVER: StepDetector = Object.freeze({ add: () => NO_SIGNALS });

/** Fires when one of `counter`'s episodes reaches the `warn` / `stop` level (once per episode and level). */
export function countDetector(kind: SignalKind, levels: Levels, counter: Counter): StepDetector {
  return levels.warn === null && levels.stop === null ? NEVER : new CountDetector(kind, levels, counter);
}

class CountDetector implements StepDetector {
  constructor(
    private readonly kind: SignalKind,
    private readonly levels: Levels,
    private readonly counter: Counter,
  ) {}

  found(): WasteHistory {
    return this.counter.found?.() ?? {};
  }

  add(state: State): readonly Signal[] {
    const counts = this.counter.add(state);
    if (counts.length === 0) return NO_SIGNALS;
    // Most counts cross no level (a cycle's first occurrence, a retry below warn): no list is made for them.
    let out: Signal[] | undefined;
    for (const c of counts) if (anyCrossed(this.levels, c.n - 1, c.n)) (out ??= []).push(...signalsFor(this.kind, this.levels, c.n - 1, c.n, state.t, c.steps, c.message));
    return out ?? NO_SIGNALS;
  }
}

/** Fires when the composite is below the floor once `minSteps` steps were pushed; re-arms when it climbs back. */
export function lowScoreDetector(policy: Policy): StepDetector {
  return new LowScore(policy.lowScore);
}

class LowScore implements StepDetector {
  private steps = 0;
  private below = false;

  constructor(private readonly low: Policy['lowScore']) {}

  add(state: State, total: number): readonly Signal[] {
    const low = this.low;
    this.steps += 1;
    if (low.severity !== null && this.steps >= low.minSteps && total < low.floor) {
      const fire = !this.below;
      this.below = true;
      return fire
        ? [{ kind: 'low_score', severity: low.severity, t: state.t, steps: [state.t], message: `score ${total.toFixed(1)} below the floor ${low.floor} after ${this.steps} steps` }]
        : NO_SIGNALS;
    }
    if (total >= low.floor) this.below = false;
    return NO_SIGNALS;
  }
}

/** Fires when the forecast P(pass) is below the floor once `minSteps` steps were pushed (only with a forecast model); re-arms when it climbs back. */
export function lowForecastDetector(policy: Policy): StepDetector {
  // Off (severity null): it never fires, whatever it counts.
  return policy.lowForecast.severity === null ? NEVER : new LowForecast(policy.lowForecast);
}

class LowForecast implements StepDetector {
  private steps = 0;
  private below = false;

  constructor(private readonly lf: Policy['lowForecast']) {}

  add(state: State, _total: number, pPass?: number): readonly Signal[] {
    const lf = this.lf;
    this.steps += 1;
    if (pPass === undefined) return NO_SIGNALS;
    if (lf.severity !== null && this.steps >= lf.minSteps && pPass < lf.floor) {
      const fire = !this.below;
      this.below = true;
      return fire
        ? [{ kind: 'low_forecast', severity: lf.severity, t: state.t, steps: [state.t], message: `forecast P(pass) ${pPass.toFixed(3)} below ${lf.floor} after ${this.steps} steps` }]
        : NO_SIGNALS;
    }
    if (pPass >= lf.floor) this.below = false;
    return NO_SIGNALS;
  }
}

/** Fires once when the step budget, once when the token budget (sum of state costs) is exceeded. */
export function budgetDetector(policy: Policy): StepDetector {
  const b = policy.budget;
  // Neither budget set: it never fires.
  return b.maxSteps === null && b.maxTokens === null ? NEVER : new Budget(b);
}

class Budget implements StepDetector {
  private steps = 0;
  private tokens = 0;
  private stepsFired = false;
  private tokensFired = false;

  constructor(private readonly b: Policy['budget']) {}

  add(state: State): readonly Signal[] {
    const b = this.b;
    this.steps += 1;
    this.tokens += state.cost;
    const { steps, tokens } = this;
    if ((this.stepsFired || b.maxSteps === null || steps <= b.maxSteps) && (this.tokensFired || b.maxTokens === null || tokens <= b.maxTokens)) return NO_SIGNALS;
    const out: Signal[] = [];
    if (!this.stepsFired && b.maxSteps !== null && steps > b.maxSteps) {
      this.stepsFired = true;
      out.push({ kind: 'budget', severity: b.severity, t: state.t, steps: [state.t], message: `step budget exceeded: ${steps} steps > ${b.maxSteps}` });
    }
    if (!this.tokensFired && b.maxTokens !== null && tokens > b.maxTokens) {
      this.tokensFired = true;
      out.push({ kind: 'budget', severity: b.severity, t: state.t, steps: [state.t], message: `token budget exceeded: ~${Math.round(tokens)} tokens > ${b.maxTokens}` });
    }
    return out;
  }
}

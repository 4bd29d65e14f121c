/**
 * The online forecaster: the feature tracker and one fitted model; after each
 * state, P(pass | the prefix so far) = σ(a + b·z). O(1) per state (running
 * counters and a dot product over the model's features), so it rides along
 * the scorer's `push`. It also keeps the feature vectors at the sampled
 * prefix lengths (run.ts), which is what `serve --forecast-learn` refits on.
 */
import type { ForecastTrace } from '../scorer-api.js';
import type { RetryDetector } from '../signals/repeats.js';
import type { Label, State, Step } from '../types.js';
import { createFeatureTracker, FEATURE_COUNT, FEATURE_NAMES } from './features.js';
import { sigmoid } from './logistic.js';
import type { ForecastModel } from './model.js';
import { isCheckpoint } from './run.js';

export interface Forecaster {
  /** Adds the next step (with the state and label the scorer made of it); returns pPass after it. */
  add(step: Step, state: State, label: Label): number;
  /** pPass of the prefix so far (the model's value at 0 steps before any state). */
  value(): number;
  /**
   * The feature vectors at the sampled prefix lengths so far, and the current one: rows as in {@link ForecastRun}.
   * Only on a forecaster that computes every feature (`which` 'all'): what refitting reads.
   */
  trace?: (this: void) => ForecastTrace;
}

/** The scoring part of a model: feature indices into the catalogue vector, and coefficients folded into raw units. */
export interface CompiledModel {
  index: Int32Array;
  coef: Float64Array;
  /** Intercept in raw units (the model's intercept minus Σ coef·mean). */
  bias: number;
  a: number;
  b: number;
}

/**
 * Compiled once per model object, so a session starts with its compiled form instead of a rebuild. Models are
 * never changed in place: a new map or new weights make a new object.
 */
const compiledModels = new WeakMap<ForecastModel, CompiledModel>();

export function compileModel(m: ForecastModel): CompiledModel {
  let c = compiledModels.get(m);
  if (c === undefined) compiledModels.set(m, (c = compileFresh(m)));
  return c;
}

function compileFresh(m: ForecastModel): CompiledModel {
  const index = Int32Array.from(m.features, (f) => FEATURE_NAMES.indexOf(f as (typeof FEATURE_NAMES)[number]));
  const coef = Float64Array.from(m.weights, (w, j) => w / m.scale[j]!);
  let bias = m.intercept;
  coef.forEach((c, j) => {
    bias -= c * m.mean[j]!;
  });
  return { index, coef, bias, a: m.calibration.a, b: m.calibration.b };
}

/** The linear score z of a catalogue vector (at `offset` in `v`). */
export function scoreOf(c: CompiledModel, v: Float64Array, offset = 0): number {
  let z = c.bias;
  for (let j = 0; j < c.index.length; j++) z += c.coef[j]! * v[offset + c.index[j]!]!;
  return z;
}

/** pPass of a catalogue vector. */
export const pPassOf = (c: CompiledModel, v: Float64Array, offset = 0): number => sigmoid(c.a + c.b * scoreOf(c, v, offset));

/**
 * The vector a forecaster without a trace writes and scores within one call (written in full each time, kept by
 * none): one for the process instead of an ArrayBuffer a session.
 */
const SCRATCH = new Float64Array(FEATURE_COUNT);

/**
 * `retry`: a blind-retry detector the caller feeds the same states first (the scorer's shared one); by default the
 * features keep their own. `which`: the features computed, those the model reads (default; no trace) or all of
 * them, with the trace of rows that refitting reads (`serve --forecast-learn`).
 */
export function createForecaster(model: ForecastModel, retry?: RetryDetector, which: 'model' | 'all' = 'model'): Forecaster {
  const compiled = compileModel(model);
  // Only the evidence the model reads: each group of it costs a pass over the step's output or its patch.
  const features = createFeatureTracker(which === 'all' || model.features, retry);
  if (which === 'model') {
    let current = pPassOf(compiled, features.write(SCRATCH));
    return {
      add(step, state, label) {
        features.add(step, state, label);
        current = pPassOf(compiled, features.write(SCRATCH));
        return current;
      },
      value: () => current,
    };
  }
  const now = new Float64Array(FEATURE_COUNT);
  let current = pPassOf(compiled, features.write(now));
  // The rows at the checkpoints, one after another in a plain array of doubles: a typed array a row costs an
  // ArrayBuffer each (~1 µs to make, and a finaliser for the collector), a push of 37 doubles a fraction of that.
  // Kept only here: ~0.2 µs a step over a 100-step session, for the learner alone.
  const kept: number[] = [];
  const keptAt: number[] = [];
  return {
    add(step, state, label) {
      features.add(step, state, label);
      features.write(now);
      if (isCheckpoint(features.length)) {
        for (let j = 0; j < FEATURE_COUNT; j++) kept.push(now[j]!);
        keptAt.push(features.length);
      }
      current = pPassOf(compiled, now);
      return current;
    },
    value: () => current,
    trace() {
      const n = features.length;
      const last = n > 0 && keptAt[keptAt.length - 1] !== n;
      const rowsOut = new Float64Array((keptAt.length + (last ? 1 : 0)) * FEATURE_COUNT);
      rowsOut.set(kept);
      if (last) rowsOut.set(now, keptAt.length * FEATURE_COUNT);
      return { length: n, at: Int32Array.from(last ? [...keptAt, n] : keptAt), rows: rowsOut };
    },
  };
}

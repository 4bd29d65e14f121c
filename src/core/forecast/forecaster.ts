/**
 * The online forecaster: a feature tracker and one fitted model; after each
 * state, P(pass | the prefix so far). O(1) per state (running counters and a
 * 16-term dot product), so it rides along the scorer's `push`.
 */
import type { State } from '../types.js';
import { createFeatureTracker } from './features.js';
import { predict } from './logistic.js';
import type { ForecastModel } from './model.js';

export interface Forecaster {
  /** Adds the next state; returns pPass after it. */
  add(state: State): number;
  /** pPass of the prefix so far (NaN-free; the model's value at 0 steps before any state). */
  value(): number;
}

export function createForecaster(model: ForecastModel): Forecaster {
  const features = createFeatureTracker(model.prior.windows, model.prior.alpha);
  let current = predict(model, features.vector());
  return {
    add(state) {
      features.add(state);
      current = predict(model, features.vector());
      return current;
    },
    value: () => current,
  };
}

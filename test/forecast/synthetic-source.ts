/** Synthetic forecast runs for train's tests: one feature row per run, `sourceEdited` carrying some signal. */
import { FEATURE_COUNT, FEATURE_NAMES, type FeatureName } from '../../src/core/forecast/features.js';
import type { ForecastRun } from '../../src/core/forecast/run.js';
import { rng } from './rng.js';

const col = (f: FeatureName) => FEATURE_NAMES.indexOf(f);

/** `pass` passing and `fail` failing runs of agent `agent` (model `m`) over 7 tasks. */
export function syntheticSource(agent: string, pass: number, fail: number, seed: number): ForecastRun[] {
  const r = rng(seed);
  return Array.from({ length: pass + fail }, (_, i) => {
    const passed = i < pass;
    const rows = new Float64Array(FEATURE_COUNT);
    rows[col('sourceEdited')] = r() < (passed ? 0.8 : 0.3) ? 1 : 0;
    rows[col('shareE')] = r();
    rows[col('logSteps')] = Math.log1p(5 + 20 * r());
    return { id: `${agent}${i}`, task: `t${i % 7}`, agent, model: 'm', passed, length: 1, at: Int32Array.from([1]), rows };
  });
}

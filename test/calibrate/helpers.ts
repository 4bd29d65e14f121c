/** Re-exports of the calibration API under test, plus a one-row shortcut. */
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { thresholdRow } from '../../src/core/calibrate/tables.js';
import type { CalibrationKind, CalibrationRun, ThresholdRow } from '../../src/core/calibrate/index.js';

export { firstStop, nthOccurrence, singleKindPolicy, calibrate, chooseLevel, minPassingFor } from '../../src/core/calibrate/index.js';

/** One threshold row under the default policy. */
export const thresholdRowFor = (runs: CalibrationRun[], kind: CalibrationKind, threshold: number): ThresholdRow => thresholdRow(runs, kind, threshold, DEFAULT_POLICY);

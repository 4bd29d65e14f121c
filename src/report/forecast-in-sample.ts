/**
 * How many of the runs the report gives a pPass the forecaster was trained
 * on. Its pPass separation, calibration and best-of-N on those runs are
 * in-sample, so optimistic: the forecast file lists its training runs by
 * fingerprint (`trainedRuns`, core/forecast/fingerprint.ts) and each run
 * with a pPass is fingerprinted the same way. A file written before `train`
 * listed them (or listing them another way) cannot be checked, and says so.
 */
import { runFingerprint, trainedRunSet } from '../core/forecast/fingerprint.js';
import type { ForecastFile } from '../core/forecast/model.js';
import type { Step } from '../core/types.js';
import type { ForecastInSample, TrajectoryRow } from './types.js';

/**
 * `rows` with each run that has a pPass marked `pPassInSample` (true: one the forecaster was trained on), aligned
 * with `steps` (each row's run's parsed steps); the rows as they are when the file lists no runs this steplens reads.
 */
export function markInSample(forecast: Pick<ForecastFile, 'trainedRuns'>, rows: readonly TrajectoryRow[], steps: ReadonlyArray<readonly Step[]>): TrajectoryRow[] {
  const listed = trainedRunSet(forecast.trainedRuns);
  if (listed === undefined) return [...rows];
  return rows.map((r, i) => (r.pPass === undefined ? r : { ...r, pPassInSample: listed.has(runFingerprint(steps[i]!)) }));
}

/** The counts of {@link markInSample}'s rows (`checked`: whether the file lists its runs so they could be marked). */
export function forecastInSample(forecast: Pick<ForecastFile, 'trainedRuns'>, rows: readonly TrajectoryRow[]): ForecastInSample {
  const bySource = new Map<string, { source: string; inSample: number; withPPass: number }>();
  let inSample = 0;
  let withPPass = 0;
  for (const r of rows) {
    if (r.pPass === undefined) continue;
    const c = bySource.get(r.source) ?? { source: r.source, inSample: 0, withPPass: 0 };
    bySource.set(r.source, c);
    withPPass += 1;
    c.withPPass += 1;
    if (r.pPassInSample === true) {
      inSample += 1;
      c.inSample += 1;
    }
  }
  const sources = [...bySource.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  if (trainedRunSet(forecast.trainedRuns) === undefined) return { checked: false, inSample: null, withPPass, bySource: sources.map((s) => ({ ...s, inSample: null })) };
  return { checked: true, inSample, withPPass, bySource: sources };
}

/**
 * The line under each table with pPass figures (separation, per source, calibration, reliability diagram): the
 * headline's warning sits hundreds of lines above them, and an in-sample AUROC there read as a held-out one.
 */
export function forecastInSampleCaution(f: ForecastInSample | undefined): string | null {
  if (f === undefined || f.withPPass === 0) return null;
  if (!f.checked) return 'pPass above: whether its runs are ones the forecaster was trained on cannot be checked (the file lists none this steplens reads)';
  if (f.inSample === 0) return null;
  return `pPass above: in-sample on ${f.inSample} of ${f.withPPass} runs (the forecaster was trained on them), so optimistic; \`steplens train\` measures it held out`;
}

/** The headline's warning line, or null when there is nothing to say (no run with a pPass, or none in-sample). */
export function forecastInSampleLine(f: ForecastInSample): string | null {
  if (f.withPPass === 0) return null;
  if (!f.checked)
    return 'the forecaster does not list the runs it was trained on in a form this steplens reads (`steplens train` lists them): whether its pPass figures are in-sample cannot be checked';
  if (f.inSample === 0) return null;
  const sources = f.bySource.filter((s) => s.inSample! > 0).map((s) => `${s.source} ${s.inSample} of ${s.withPPass}`);
  return (
    `warning: ${f.inSample} of ${f.withPPass} runs with a pPass are runs the forecaster was trained on (${sources.join('; ')}): ` +
    `the pPass separation, calibration and best-of-N include them in-sample, so they are optimistic`
  );
}

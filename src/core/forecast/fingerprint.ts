/**
 * Which runs a forecaster was trained on: `train` writes a fingerprint of
 * each (the forecast file's `trainedRuns`) and `report` fingerprints the
 * runs it scores the same way, so it can say how many of its pPass figures
 * are in-sample. A fingerprint is the first 16 hex digits of the SHA-256
 * of the run's parsed steps written as JSON with sorted keys: the same log
 * gives the same fingerprint whatever its path, the order of the inputs or
 * the names given to it (task, agent, model, outcome), and a log parsed
 * differently (another steplens version reading more of it) gives another.
 * `forecastDigest` names a forecast file the same way (what `serve
 * --forecast-learn` versions record they were learned from).
 */
import { createHash } from 'node:crypto';
import type { Step } from '../types.js';
import type { ForecastFile } from './model.js';

/** The fingerprint's name as the file records it: a file naming another cannot be checked. */
export const RUN_FINGERPRINT = 'steps-sha256-16';

/**
 * JSON.stringify's replacer for JSON with object keys sorted (undefined members left out, undefined array items
 * null, as JSON.stringify does): each object is written as a copy with its keys in order. Native stringify does
 * the escaping, about a sixth faster than writing each value by hand (a server fingerprints every run it scores).
 */
function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  // No prototype: a log's own `__proto__` member (JSON.parse keeps it) is written like any other, not set as the
  // copy's prototype and left out (two runs told apart only by it had one fingerprint: T52).
  const sorted = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(o).sort()) sorted[k] = o[k];
  return sorted;
}

/** The fingerprint of a run's steps. */
export function runFingerprint(steps: readonly Step[]): string {
  const hash = createHash('sha256');
  for (const step of steps) hash.update(`${JSON.stringify(step, sortedKeys) ?? 'null'}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** The runs as the file lists them: fingerprints sorted, each once. */
export function trainedRunsOf(runs: ReadonlyArray<readonly Step[]>): { fingerprint: typeof RUN_FINGERPRINT; runs: string[] } {
  return { fingerprint: RUN_FINGERPRINT, runs: [...new Set(runs.map(runFingerprint))].sort() };
}

/** The fingerprints a file lists, as a set; undefined when it lists none, or lists them another way (cannot be checked). */
export function trainedRunSet(listed: { fingerprint: string; runs: readonly string[] } | undefined): ReadonlySet<string> | undefined {
  return listed?.fingerprint === RUN_FINGERPRINT ? new Set(listed.runs) : undefined;
}

/**
 * The fingerprints a file lists, sorted, for a check away from the file (a server's scoring job carries them to
 * its worker); undefined when the file lists none or lists them another way.
 */
export function trainedRunList(listed: { fingerprint: string; runs: readonly string[] } | undefined): readonly string[] | undefined {
  return listed?.fingerprint === RUN_FINGERPRINT ? [...new Set(listed.runs)].sort() : undefined;
}

/** Whether a run is one of `listed` (a {@link trainedRunList}: a thousand or so; a scan costs nothing beside the digest). */
export function inTrainedRuns(listed: readonly string[], steps: readonly Step[]): boolean {
  return listed.includes(runFingerprint(steps));
}

/** The SHA-256 (hex) of a forecast file as parsed, written as JSON with sorted keys, its `learnedFrom` left out. */
export function forecastDigest(file: ForecastFile): string {
  return createHash('sha256')
    .update(JSON.stringify({ ...file, learnedFrom: undefined }, sortedKeys))
    .digest('hex');
}

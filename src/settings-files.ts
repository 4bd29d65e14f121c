/** Reading an early-stop policy, a scoring config or a forecast model from a JSON file (partial overrides of the defaults). */
import { resolveConfig, type ScoringConfig } from './core/config.js';
import { resolvePolicy, type Policy } from './core/policy.js';
import { parseForecast, type ForecastFile } from './core/forecast/model.js';
import { SteplensError } from './errors.js';
import { readText } from './text-files.js';

async function readJson(file: string): Promise<unknown> {
  const text = await readText(file);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SteplensError('bad_input', `${file}: not JSON (${(error as Error).message})`);
  }
}

/** A policy file: a partial policy (as in `start.policy`, or what `steplens calibrate --out` writes). */
export async function readPolicyFile(file: string): Promise<Policy> {
  const doc = await readJson(file);
  const body = typeof doc === 'object' && doc !== null && 'policy' in doc ? (doc as { policy: unknown }).policy : doc;
  const policy = resolvePolicy(body);
  if (!policy.ok) throw new SteplensError('bad_input', `${file}: ${policy.error}`);
  return policy.value;
}

/** A scoring-config file: a partial override of weights, tiers, tau and thresholds. */
export async function readConfigFile(file: string): Promise<ScoringConfig> {
  const config = resolveConfig(await readJson(file));
  if (!config.ok) throw new SteplensError('bad_input', `${file}: ${config.error}`);
  return config.value;
}

/** A forecast model file (what `steplens train --out` writes). */
export async function readForecastFile(file: string): Promise<ForecastFile> {
  const parsed = parseForecast(await readJson(file));
  if (!parsed.ok) throw new SteplensError('bad_input', `${file}: ${parsed.error}`);
  return parsed.value;
}

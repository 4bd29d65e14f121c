/** Reading an early-stop policy, a scoring config or a forecast model from a JSON file (partial overrides of the defaults). */
import { resolveConfig, type ScoringConfig } from './core/config.js';
import { resolvePolicy, type Policy } from './core/policy.js';
import { resolvePolicySet, type PolicySet } from './core/policy-set.js';
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
  if (typeof doc === 'object' && doc !== null && 'policies' in doc)
    throw new SteplensError('bad_input', `${file}: a policy set (one policy per agent or model): give it to \`steplens serve --policy\`, or take one entry's "policy"`);
  const body = typeof doc === 'object' && doc !== null && 'policy' in doc ? doc.policy : doc;
  const policy = resolvePolicy(body);
  if (!policy.ok) throw new SteplensError('bad_input', `${file}: ${policy.error}`);
  return policy.value;
}

/** A policy file or a policy set (`calibrate --by ... --out`): groups per agent / model and a fallback. */
export async function readPolicySetFile(file: string): Promise<PolicySet> {
  const set = resolvePolicySet(await readJson(file));
  if (!set.ok) throw new SteplensError('bad_input', `${file}: ${set.error}`);
  return set.value;
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

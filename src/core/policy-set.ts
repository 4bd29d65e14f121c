/**
 * Early-stop policies per agent and model (issue 14): groups that match a
 * session's `start.agent` / `start.model`, and a fallback for sessions no
 * group matches. What `steplens calibrate --by agent|model|source --out`
 * writes and `steplens serve --policy` loads; a plain policy file is a set
 * with no groups. Matching ignores case and surrounding blanks; the first
 * group whose named fields all equal the session's wins.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../errors.js';
import { formatIssues } from './config.js';
import { DEFAULT_POLICY, policyInputSchema, resolvePolicy, type Policy } from './policy.js';

export interface PolicyMatch {
  agent?: string;
  model?: string;
}

export interface PolicyGroup {
  match: PolicyMatch;
  policy: Policy;
}

export interface PolicySet {
  groups: PolicyGroup[];
  fallback: Policy;
}

/**
 * The file shape: `{ policies: [{ match, policy, ... }], fallback: { policy, ... } }` (other keys, e.g. `calibration`,
 * are ignored). Built on first use (`z.lazy`), as policyInputSchema.
 */
export const policySetInputSchema = z.lazy(() => {
  const matchSchema = z
    .object({ agent: z.string().min(1).max(256), model: z.string().min(1).max(256) })
    .partial()
    .strict()
    .refine((m) => m.agent !== undefined || m.model !== undefined, 'a group must name an agent, a model or both');

  return z
    .object({
      policies: z.array(z.object({ match: matchSchema, policy: policyInputSchema }).passthrough()),
      fallback: z.object({ policy: policyInputSchema }).passthrough().optional(),
    })
    .passthrough();
});

const norm = (s: string | undefined): string | undefined => s?.trim().toLowerCase();

/** True when every field `m` names equals the session's. */
export function matches(m: PolicyMatch, agent: string | undefined, model: string | undefined): boolean {
  if (m.agent !== undefined && norm(m.agent) !== norm(agent)) return false;
  if (m.model !== undefined && norm(m.model) !== norm(model)) return false;
  return true;
}

/** The group a session falls in (undefined: the fallback applies). */
export function selectGroup(set: PolicySet, agent: string | undefined, model: string | undefined): PolicyGroup | undefined {
  return set.groups.find((g) => matches(g.match, agent, model));
}

/** The policy of a session with this agent and model. */
export function selectPolicy(set: PolicySet, agent: string | undefined, model: string | undefined): Policy {
  return selectGroup(set, agent, model)?.policy ?? set.fallback;
}

/** A human name of a group's match, e.g. `agent=CodeR, model=gpt-4`. */
export function describeMatch(m: PolicyMatch): string {
  return [m.agent !== undefined ? `agent=${m.agent}` : '', m.model !== undefined ? `model=${m.model}` : ''].filter(Boolean).join(', ');
}

/**
 * Reads a policy document: a policy set, `{ policy }` (a calibrate `--out`
 * file) or a bare partial policy; each policy overrides `base` field by field.
 */
export function resolvePolicySet(doc: unknown, base: Policy = DEFAULT_POLICY): Result<PolicySet, string> {
  if (typeof doc === 'object' && doc !== null && 'policies' in doc) {
    const parsed = policySetInputSchema.safeParse(doc);
    if (!parsed.success) return err(`invalid policy set: ${formatIssues(parsed.error)}`);
    const fallback = resolvePolicy(parsed.data.fallback?.policy, base);
    if (!fallback.ok) return err(`fallback: ${fallback.error}`);
    const groups: PolicyGroup[] = [];
    for (const [i, g] of parsed.data.policies.entries()) {
      const p = resolvePolicy(g.policy, base);
      if (!p.ok) return err(`policies[${i}] (${describeMatch(g.match)}): ${p.error}`);
      groups.push({ match: { ...(g.match.agent !== undefined ? { agent: g.match.agent } : {}), ...(g.match.model !== undefined ? { model: g.match.model } : {}) }, policy: p.value });
    }
    return ok({ groups, fallback: fallback.value });
  }
  const body = typeof doc === 'object' && doc !== null && 'policy' in doc ? doc.policy : doc;
  const policy = resolvePolicy(body, base);
  return policy.ok ? ok({ groups: [], fallback: policy.value }) : policy;
}

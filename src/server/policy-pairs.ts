/**
 * The policy manager's pairs (policy-manager.ts): one tenant's agent + model, keyed with or without its tenant (shadow
 * counters and promotions are per tenant, pins and freezes for every tenant), made from the policy set's group or
 * fallback, with what a configured policy derives (candidates, replay plan, warn-only policy) made once per policy.
 */
import { describeSettings, settingsOf } from '../core/calibrate/index.js';
import { warnOnly, type Policy } from '../core/policy.js';
import { describeMatch, selectGroup, type PolicySet } from '../core/policy-set.js';
import { emptyCounters, shadowCandidates, shadowPlan, type ShadowCandidate, type ShadowPlan } from '../core/shadow/index.js';
import type { PairState } from '../protocol/policy-state.js';

/** The policy a session runs under and why. */
export interface Assignment {
  key: string;
  policy: Policy;
  /** True when the session only warns so its outcome can be counted. */
  shadow: boolean;
  /** E.g. `fallback`, `group agent=CodeR`, `promoted blindRetry 5`, `pinned`. */
  selected: string;
}

/** One tenant's agent + model pair: its shadow counters and promotion. */
export interface PairEntry {
  tenant: string;
  state: PairState;
  configured: Policy;
  candidates: ShadowCandidate[];
  plan: ShadowPlan;
  group: string;
  /** The configured policy demoted to warns (what shadow sessions run), made once. */
  warnOnly: Policy;
}

/** Why a pin or freeze was refused. */
export interface PinError {
  code: 'bad_message' | 'overloaded';
  message: string;
}

const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();
/** An agent + model pair, across tenants: what pins and freezes apply to. */
export const pinKey = (agent: string | undefined, model: string | undefined): string => `${norm(agent)}\u0000${norm(model)}`;
/** One tenant's pair: what shadow counters and promotions are kept per. */
export const pairKey = (tenant: string, agent: string | undefined, model: string | undefined): string => `${tenant}\u0000${pinKey(agent, model)}`;

/** What a pair derives from its configured policy alone (read, never changed): see {@link ofPolicy}. */
interface OfPolicy {
  candidates: ShadowCandidate[];
  plan: ShadowPlan;
  warnOnly: Policy;
  described: string;
}

const derived = new WeakMap<Policy, OfPolicy>();

/**
 * The candidates, replay plan and warn-only policy of pairs configured with `policy`, made once per policy and
 * shared by every pair (every tenant's agent + model) of its group: ~48 KB a pair made its own (bench/README.md,
 * "Memory per session, fifth pass"), up to `limits.pairs` of them. Keyed by the policy object, which the policy set
 * holds for the server's life.
 */
function ofPolicy(policy: Policy): OfPolicy {
  let d = derived.get(policy);
  if (d === undefined) {
    const candidates = shadowCandidates(policy);
    d = { candidates, plan: shadowPlan(candidates), warnOnly: warnOnly(policy), described: describeSettings(settingsOf(policy)) };
    derived.set(policy, d);
  }
  return d;
}

/** The pair of `tenant`'s agent + model as the policy set configures it, with no count, promotion or pin yet. */
export function makePair(set: PolicySet, tenant: string, agent: string | undefined, model: string | undefined): PairEntry {
  const group = selectGroup(set, agent, model);
  const configured = group?.policy ?? set.fallback;
  const d = ofPolicy(configured);
  return {
    tenant,
    configured,
    candidates: d.candidates,
    plan: d.plan,
    warnOnly: d.warnOnly,
    group: group ? `group ${describeMatch(group.match)}` : 'fallback',
    state: { tenant, agent: agent ?? null, model: model ?? null, sessions: 0, counters: emptyCounters(), promoted: null, configured: d.described },
  };
}

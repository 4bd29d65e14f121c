/** The `GET /v1/policies` document: configured policies, shadow settings, and per agent + model pair its state and counters. */
import type { Policy } from '../core/policy.js';
import type { PolicySet } from '../core/policy-set.js';
import { countersOf, upperOf } from '../core/shadow/index.js';
import type { PinState } from '../protocol/policy-state.js';
import type { PolicyManager } from './policy-manager.js';
import type { PairEntry } from './policy-pairs.js';
import type { ShadowOptions } from './shadow-options.js';
import { seesTenant, type Principal } from './principal.js';

export interface CandidateStatus {
  id: string;
  passingStopped: number;
  falseStopRate: number | null;
  /** One-sided upper confidence bound of the false-stop rate (the promotion rule's). */
  falseStopUpper: number;
  failingStopped: number;
  failingStepsSaved: number;
  failingStepsShare: number | null;
  failingTokensSaved: number;
  failingTokenShare: number | null;
  /** Within the bound and stops a failing run: could be promoted. */
  eligible: boolean;
}

export interface PairStatus {
  /** The tenant whose sessions the pair counts. */
  tenant: string;
  agent: string | null;
  model: string | null;
  /** The configured policy it falls under: `group ...` or `fallback`. */
  group: string;
  /** `shadow` (warns only, counting), `promoted`, `pinned`, or `configured` (shadow mode off). */
  state: 'shadow' | 'promoted' | 'pinned' | 'configured';
  frozen: boolean;
  promoted: string | null;
  pinned: unknown;
  sessions: number;
  /** The policy non-shadow sessions of this pair run under. */
  policy: Policy;
  /**
   * Shadow runs counted; `failingSteps` / `failingTokens`: the steps and tokens of the failing ones, the denominators
   * of every candidate's `failingStepsShare` / `failingTokenShare` (the rates' n: `passing`, `failing`).
   */
  runs: { passing: number; failing: number; failingSteps: number; failingTokens: number };
  candidates: CandidateStatus[];
}

const ratio = (k: number, of: number): number | null => (of === 0 ? null : k / of);

export function pairStatus(m: PolicyManager, e: PairEntry): PairStatus {
  const s = e.state;
  const c = s.counters;
  const rule = m.shadow;
  const candidates: CandidateStatus[] =
    rule === undefined
      ? []
      : e.candidates
          .map((cand) => {
            const k = countersOf(c, cand.id);
            const upper = upperOf(c, cand.id, rule);
            return {
              id: cand.id,
              passingStopped: k.passingStopped,
              falseStopRate: ratio(k.passingStopped, c.passing),
              falseStopUpper: upper,
              failingStopped: k.failingStopped,
              failingStepsSaved: k.failingStepsSaved,
              failingStepsShare: ratio(k.failingStepsSaved, c.failingSteps),
              failingTokensSaved: k.failingTokensSaved,
              failingTokenShare: ratio(k.failingTokensSaved, c.failingTokens),
              eligible: k.failingStopped > 0 && upper <= rule.maxFalseStop + 1e-12,
            };
          })
          .sort((a, b) => Number(b.eligible) - Number(a.eligible) || b.failingTokensSaved - a.failingTokensSaved || a.passingStopped - b.passingStopped);
  const force = m.inForce(e);
  const pin = m.pinOf(e);
  const pinned = pin?.pinned ?? null;
  const state = pinned !== null ? 'pinned' : rule === undefined ? 'configured' : s.promoted !== null ? 'promoted' : 'shadow';
  return {
    tenant: e.tenant,
    agent: s.agent,
    model: s.model,
    group: e.group,
    state,
    frozen: pin?.frozen ?? false,
    promoted: s.promoted,
    pinned,
    sessions: s.sessions,
    policy: force.policy,
    runs: { passing: c.passing, failing: c.failing, failingSteps: c.failingSteps, failingTokens: c.failingTokens },
    candidates,
  };
}

export interface PoliciesStatus {
  shadow: ({ enabled: true } & ShadowOptions) | { enabled: false };
  configured: PolicySet;
  /** The pairs `principal` may see: its tenant's (an operator's: every tenant's). */
  pairs: PairStatus[];
  /** Operators' pins and freezes (per agent + model, for every tenant). */
  pins: PinState[];
}

export function policiesStatus(m: PolicyManager, principal: Principal): PoliciesStatus {
  return {
    shadow: m.shadow ? { enabled: true, ...m.shadow } : { enabled: false },
    configured: { groups: m.set.groups, fallback: m.set.fallback },
    pairs: [...m.pairs.values()].filter((e) => seesTenant(principal, e.tenant)).map((e) => pairStatus(m, e)),
    pins: [...m.pins.values()].map((p) => ({ ...p })),
  };
}

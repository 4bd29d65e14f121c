/**
 * Which early-stop policy a session gets, and shadow mode (issue 14).
 * A session's configured policy is its agent / model group's in the policy
 * set (`serve --policy`), else the fallback. An operator pin overrides it.
 * With shadow mode on, a pair (agent + model) whose policy was not yet
 * promoted only warns (its stops demoted to warns); every such session that
 * reports an outcome feeds the pair's counters of what each candidate stop
 * rule would have done, and once a candidate's upper confidence bound of the
 * false-stop rate holds, its stops are promoted into force. After that a
 * share of the pair's sessions stays in shadow (only those are counted: a
 * stopped run's outcome is never known). A frozen pair keeps its policy.
 */
import type { Logger } from 'pino';
import { describeSettings, policyFor } from '../core/calibrate/index.js';
import { resolvePolicy, warnOnly, type Policy, type PolicyInput } from '../core/policy.js';
import { describeMatch, selectGroup, type PolicySet } from '../core/policy-set.js';
import { CONFIGURED, emptyCounters, promotable, recordRun, shadowCandidates, shadowPlan, type PromotionRule, type ShadowCandidate, type ShadowPlan } from '../core/shadow/index.js';
import { settingsOf } from '../core/calibrate/index.js';
import type { State } from '../core/types.js';
import { err, ok, type Result } from '../errors.js';
import { policyStateSnapshotSchema, type PairState, type PolicyStateSnapshot } from '../protocol/policy-state.js';
import type { PolicyStateStore } from '../store/policy-state.js';

export interface ShadowOptions extends PromotionRule {
  /** Share of a promoted (or pinned) pair's sessions that stays in shadow (0..1). */
  share: number;
}

export const DEFAULT_SHADOW: ShadowOptions = { share: 0.1, maxFalseStop: 0.05, confidence: 0.95, bound: 'clopper-pearson' };

/** The policy a session runs under and why. */
export interface Assignment {
  key: string;
  policy: Policy;
  /** True when the session only warns so its outcome can be counted. */
  shadow: boolean;
  /** E.g. `fallback`, `group agent=CodeR`, `promoted blindRetry 5`, `pinned`. */
  selected: string;
}

export interface PairEntry {
  state: PairState;
  configured: Policy;
  candidates: ShadowCandidate[];
  plan: ShadowPlan;
  group: string;
  /** The configured policy demoted to warns (what shadow sessions run), made once. */
  warnOnly: Policy;
}

/** Why shadow options are invalid, or undefined. */
export function checkShadow(o: ShadowOptions): string | undefined {
  if (!(o.share >= 0 && o.share <= 1)) return `shadow share must be in [0, 1], got ${o.share}`;
  if (!(o.maxFalseStop >= 0 && o.maxFalseStop <= 1)) return `shadow maxFalseStop must be in [0, 1], got ${o.maxFalseStop}`;
  if (!(o.confidence > 0 && o.confidence < 1)) return `shadow confidence must be strictly between 0 and 1, got ${o.confidence}`;
  return o.bound === 'clopper-pearson' || o.bound === 'wilson' ? undefined : `shadow bound must be clopper-pearson or wilson, got ${String(o.bound)}`;
}

const MAX_PAIRS = 1000;
const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();
export const pairKey = (agent: string | undefined, model: string | undefined): string => `${norm(agent)}\u0000${norm(model)}`;

export class PolicyManager {
  readonly pairs = new Map<string, PairEntry>();
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private warnedFull = false;
  /** Changes are saved at most this often (ms); `flush` saves at once. */
  saveIntervalMs = 1000;

  private constructor(
    readonly set: PolicySet,
    readonly shadow: ShadowOptions | undefined,
    private readonly store: PolicyStateStore | undefined,
    private readonly log: Logger,
  ) {}

  /** A manager without shadow mode or persistence: sessions get their group's policy (or the fallback), pins last until restart. */
  static plain(set: PolicySet, log: Logger): PolicyManager {
    return new PolicyManager(set, undefined, undefined, log);
  }

  /** Opens the manager and restores the saved state (a damaged file is logged and set aside, never fatal). */
  static async open(set: PolicySet, shadow: ShadowOptions | undefined, store: PolicyStateStore | undefined, log: Logger): Promise<PolicyManager> {
    const m = new PolicyManager(set, shadow, store, log);
    if (store) {
      try {
        const raw = await store.load();
        if (raw !== undefined) {
          const snap = policyStateSnapshotSchema.safeParse(raw);
          if (!snap.success) log.warn({ where: store.where }, `policy state ignored: ${snap.error.issues[0]?.message ?? 'invalid'}`);
          else for (const p of snap.data.pairs) m.restore(p);
        }
      } catch (error) {
        log.warn({ where: store.where, err: error }, 'policy state could not be read; starting from empty counters');
      }
    }
    return m;
  }

  private entry(agent: string | undefined, model: string | undefined): PairEntry | undefined {
    const key = pairKey(agent, model);
    let e = this.pairs.get(key);
    if (e) return e;
    if (this.pairs.size >= MAX_PAIRS) {
      if (!this.warnedFull) this.log.warn(`more than ${MAX_PAIRS} agent + model pairs: new pairs get their configured policy, uncounted`);
      this.warnedFull = true;
      return undefined;
    }
    const group = selectGroup(this.set, agent, model);
    const configured = group?.policy ?? this.set.fallback;
    const candidates = shadowCandidates(configured);
    e = {
      configured,
      candidates,
      plan: shadowPlan(candidates),
      warnOnly: warnOnly(configured),
      group: group ? `group ${describeMatch(group.match)}` : 'fallback',
      state: { agent: agent ?? null, model: model ?? null, sessions: 0, counters: emptyCounters(), promoted: null, configured: describeSettings(settingsOf(configured)), pinned: null, frozen: false },
    };
    this.pairs.set(key, e);
    return e;
  }

  private restore(p: PairState): void {
    const e = this.entry(p.agent ?? undefined, p.model ?? undefined);
    if (!e) return;
    const same = p.configured === e.state.configured;
    const counters = structuredClone(p.counters);
    if (!same) delete counters.candidates[CONFIGURED];
    e.state = { ...p, counters, configured: e.state.configured, promoted: !same && p.promoted === CONFIGURED ? null : p.promoted };
    if (e.state.promoted !== null && !e.candidates.some((c) => c.id === e.state.promoted)) e.state.promoted = null;
  }

  /** The policy in force for a pair, when the session is not in shadow. */
  inForce(e: PairEntry): { policy: Policy; selected: string; enforcing: boolean } {
    if (e.state.pinned !== null) {
      const p = resolvePolicy(e.state.pinned, e.configured);
      if (p.ok) return { policy: p.value, selected: 'pinned', enforcing: true };
    }
    if (!this.shadow) return { policy: e.configured, selected: e.group, enforcing: true };
    const promoted = e.candidates.find((c) => c.id === e.state.promoted);
    if (promoted === undefined) return { policy: e.warnOnly, selected: `${e.group}, shadow (warn only)`, enforcing: false };
    const policy = promoted.id === CONFIGURED ? e.configured : policyFor(promoted.settings, e.configured);
    return { policy, selected: `${e.group}, promoted ${promoted.id}`, enforcing: true };
  }

  /** The policy of a new session with this agent and model. */
  assign(agent: string | undefined, model: string | undefined): Assignment {
    const key = pairKey(agent, model);
    const e = this.entry(agent, model);
    if (!e) {
      const group = selectGroup(this.set, agent, model);
      return { key, policy: group?.policy ?? this.set.fallback, shadow: false, selected: group ? `group ${describeMatch(group.match)}` : 'fallback' };
    }
    e.state.sessions += 1;
    const force = this.inForce(e);
    if (!this.shadow || !force.enforcing) return { key, policy: force.policy, shadow: this.shadow !== undefined, selected: force.selected };
    const n = e.state.sessions;
    const inShadow = Math.floor(n * this.shadow.share) > Math.floor((n - 1) * this.shadow.share);
    return inShadow ? { key, policy: e.warnOnly, shadow: true, selected: `${e.group}, shadow share (warn only)` } : { key, policy: force.policy, shadow: false, selected: force.selected };
  }

  /** A shadow session ended with an outcome: count what every candidate would have done, then reconsider the promotion. */
  record(key: string, run: { states: readonly State[]; totals: readonly number[]; passed: boolean }): void {
    const e = this.pairs.get(key);
    if (!e || !this.shadow || run.states.length === 0) return;
    recordRun(e.state.counters, e.plan, run, e.configured);
    if (!e.state.frozen) {
      const best = promotable(e.state.counters, e.candidates, this.shadow);
      const next = best?.id ?? null;
      if (next !== e.state.promoted) {
        this.log.info({ agent: e.state.agent, model: e.state.model, from: e.state.promoted, to: next }, next === null ? 'shadow: promotion withdrawn' : 'shadow: candidate promoted');
        e.state.promoted = next;
      }
    }
    this.changed();
  }

  /** Pins (or, with null, unpins) a pair's policy; errors name a bad policy. */
  pin(agent: string | undefined, model: string | undefined, input: PolicyInput | null): Result<PairEntry, string> {
    const e = this.entry(agent, model);
    if (!e) return err(`too many agent + model pairs (${MAX_PAIRS})`);
    if (input !== null) {
      const p = resolvePolicy(input, e.configured);
      if (!p.ok) return err(p.error);
    }
    e.state.pinned = input;
    this.changed();
    return ok(e);
  }

  /** Freezes (or thaws) a pair: its promotion no longer changes; counting goes on. */
  freeze(agent: string | undefined, model: string | undefined, frozen: boolean): Result<PairEntry, string> {
    const e = this.entry(agent, model);
    if (!e) return err(`too many agent + model pairs (${MAX_PAIRS})`);
    e.state.frozen = frozen;
    this.changed();
    return ok(e);
  }

  snapshot(): PolicyStateSnapshot {
    return { format: 'steplens-policy-state', version: 1, pairs: [...this.pairs.values()].map((e) => structuredClone(e.state)) };
  }

  /** Marks the state changed; a save follows within `saveIntervalMs` (one save for many session ends). */
  private changed(): void {
    if (!this.store) return;
    this.dirty = true;
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.save(), this.saveIntervalMs);
    this.timer.unref();
  }

  private save(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.saving = this.saving.then(async () => {
      if (!this.dirty || !this.store) return;
      this.dirty = false;
      try {
        await this.store.save(this.snapshot());
      } catch (error) {
        this.log.error({ where: this.store.where, err: error }, 'saving the policy state failed');
      }
    });
    return this.saving;
  }

  /** Saves every change so far now; resolves when it is written. */
  flush(): Promise<void> {
    return this.save();
  }
}

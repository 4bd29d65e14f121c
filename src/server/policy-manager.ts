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
 *
 * Counters and promotions are kept per tenant (tenant + agent + model), so one tenant's reported outcomes
 * never promote a stop for another tenant's sessions; pins and freezes are an operator's, per agent + model,
 * for every tenant, and live in their own table so tenants' names can never crowd them out.
 */
import type { Logger } from 'pino';
import { policyFor } from '../core/calibrate/index.js';
import { resolvePolicy, type Policy, type PolicyInput } from '../core/policy.js';
import type { PolicySet } from '../core/policy-set.js';
import { CONFIGURED, promotable, recordRun } from '../core/shadow/index.js';
import type { State } from '../core/types.js';
import { err, ok, type Result } from '../errors.js';
import { policyStateSnapshotSchema, type PairState, type PinState, type PolicyStateSnapshot } from '../protocol/policy-state.js';
import type { PolicyStateStore } from '../store/policy-state.js';
import { PairTable } from './pair-table.js';
import { makePair, pairKey, pinKey, type Assignment, type PairEntry, type PinError } from './policy-pairs.js';
import type { ShadowOptions } from './shadow-options.js';
import { tenantInfo } from './tenant-log.js';
import { DEFAULT_TENANT } from './principal.js';

/** How many pairs the manager keeps (server-limits.ts: `limits.pairs`, `limits.pairsPerTenant`). */
export interface PairBounds {
  pairs: number;
  pairsPerTenant: number;
}

const DEFAULT_BOUNDS: PairBounds = { pairs: 1000, pairsPerTenant: 64 };

/** Pins and freezes at most (only operators set them, and tenants' names never push one out). */
const MAX_PINS = 1000;

export class PolicyManager {
  /** Each tenant's pairs, bounded (pair-table.ts): one tenant's outcomes never promote a stop for another's sessions. */
  readonly pairs: PairTable<PairEntry>;
  /** Operators' pins and freezes per agent + model, for every tenant. */
  readonly pins = new Map<string, PinState>();
  /** Pairs pushed out of the table so far (their counters are gone). */
  evicted = 0;
  /** Changes to each tenant's pairs, and to the pins (every tenant's): what `GET /v1/policies` is rebuilt on (policy-docs.ts). */
  private readonly tenantChanges = new Map<string, number>();
  private pinChanges = 0;
  private allChanges = 0;
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  /** Changes are saved at most this often (ms); `flush` saves at once. */
  saveIntervalMs = 1000;

  private constructor(
    readonly set: PolicySet,
    readonly shadow: ShadowOptions | undefined,
    private readonly store: PolicyStateStore | undefined,
    private readonly log: Logger,
    bounds: PairBounds,
  ) {
    this.pairs = new PairTable(bounds.pairs, bounds.pairsPerTenant, (_key, e) => {
      this.evicted++;
      this.touched(e.tenant);
      tenantInfo(
        this.log,
        e.tenant,
        { agent: e.state.agent?.slice(0, 80), model: e.state.model?.slice(0, 80), runs: e.state.counters.passing + e.state.counters.failing },
        'policy pair pushed out (pair bound)',
      );
    });
  }

  /** A manager without shadow mode or persistence: sessions get their group's policy (or the fallback), pins last until restart. */
  static plain(set: PolicySet, log: Logger, bounds: PairBounds = DEFAULT_BOUNDS): PolicyManager {
    return new PolicyManager(set, undefined, undefined, log, bounds);
  }

  /** Opens the manager and restores the saved state (a damaged file is logged and set aside, never fatal). */
  static async open(set: PolicySet, shadow: ShadowOptions | undefined, store: PolicyStateStore | undefined, log: Logger, bounds: PairBounds = DEFAULT_BOUNDS): Promise<PolicyManager> {
    const m = new PolicyManager(set, shadow, store, log, bounds);
    if (store) {
      try {
        const raw = await store.load();
        if (raw !== undefined) {
          const snap = policyStateSnapshotSchema.safeParse(raw);
          if (!snap.success) log.warn({ where: store.where }, `policy state ignored: ${snap.error.issues[0]?.message ?? 'invalid'}`);
          else {
            for (const p of snap.data.pins ?? []) m.restorePin(p);
            for (const p of snap.data.pairs) m.restore(p);
          }
        }
      } catch (error) {
        log.warn({ where: store.where, err: error }, 'policy state could not be read; starting from empty counters');
      }
    }
    return m;
  }

  /**
   * A stamp of what `GET /v1/policies` shows `tenant` (undefined: every tenant, an operator's view): equal stamps,
   * same document. Bumped by every change to a pair (made, used, counted, pushed out) and to the pins.
   */
  revision(tenant: string | undefined): string {
    return tenant === undefined ? `*${this.allChanges}` : `${this.tenantChanges.get(tenant) ?? 0}:${this.pinChanges}`;
  }

  private touched(tenant: string | undefined): void {
    this.allChanges++;
    if (tenant === undefined) this.pinChanges++;
    // Tenants are the token file's (a few): a counter each.
    else this.tenantChanges.set(tenant, (this.tenantChanges.get(tenant) ?? 0) + 1);
  }

  /** The tenant's pair, made (and held, within the bounds) on first use. */
  private entry(tenant: string, agent: string | undefined, model: string | undefined): PairEntry {
    const key = pairKey(tenant, agent, model);
    this.touched(tenant);
    const held = this.pairs.use(key);
    if (held) return held;
    const e = makePair(this.set, tenant, agent, model);
    this.pairs.add(key, e);
    return e;
  }

  /** The tenant's pair as it stands (held or not): what the policy routes show. */
  view(tenant: string, agent: string | undefined, model: string | undefined): PairEntry {
    return this.pairs.peek(pairKey(tenant, agent, model)) ?? makePair(this.set, tenant, agent, model);
  }

  private restorePin(p: PinState): void {
    this.touched(undefined);
    if (this.pins.size < MAX_PINS) this.pins.set(pinKey(p.agent ?? undefined, p.model ?? undefined), { ...p });
  }

  private restore(p: PairState): void {
    // A pair saved before tenants were kept apart: its counters become the default tenant's, its pin and freeze everyone's.
    if (p.tenant === undefined && (p.pinned != null || p.frozen === true)) this.restorePin({ agent: p.agent, model: p.model, pinned: p.pinned ?? null, frozen: p.frozen ?? false });
    const e = this.entry(p.tenant ?? DEFAULT_TENANT, p.agent ?? undefined, p.model ?? undefined);
    const same = p.configured === e.state.configured;
    const counters = structuredClone(p.counters);
    if (!same) delete counters.candidates[CONFIGURED];
    e.state = {
      tenant: e.tenant,
      agent: p.agent,
      model: p.model,
      sessions: p.sessions,
      counters,
      configured: e.state.configured,
      promoted: !same && p.promoted === CONFIGURED ? null : p.promoted,
    };
    if (e.state.promoted !== null && !e.candidates.some((c) => c.id === e.state.promoted)) e.state.promoted = null;
  }

  /** The operator's pin and freeze of a pair's agent + model, if any. */
  pinOf(e: PairEntry): PinState | undefined {
    return this.pins.get(pinKey(e.state.agent ?? undefined, e.state.model ?? undefined));
  }

  /** The policy in force for a pair, when the session is not in shadow. */
  inForce(e: PairEntry): { policy: Policy; selected: string; enforcing: boolean } {
    const pinned = this.pinOf(e)?.pinned ?? null;
    if (pinned !== null) {
      const p = resolvePolicy(pinned, e.configured);
      if (p.ok) return { policy: p.value, selected: 'pinned', enforcing: true };
    }
    if (!this.shadow) return { policy: e.configured, selected: e.group, enforcing: true };
    const promoted = e.candidates.find((c) => c.id === e.state.promoted);
    if (promoted === undefined) return { policy: e.warnOnly, selected: `${e.group}, shadow (warn only)`, enforcing: false };
    const policy = promoted.id === CONFIGURED ? e.configured : policyFor(promoted.settings, e.configured);
    return { policy, selected: `${e.group}, promoted ${promoted.id}`, enforcing: true };
  }

  /** The policy of a new session of `tenant` with this agent and model. */
  assign(tenant: string, agent: string | undefined, model: string | undefined): Assignment {
    const key = pairKey(tenant, agent, model);
    const e = this.entry(tenant, agent, model);
    e.state.sessions += 1;
    const force = this.inForce(e);
    if (!this.shadow || !force.enforcing) return { key, policy: force.policy, shadow: this.shadow !== undefined, selected: force.selected };
    const n = e.state.sessions;
    const inShadow = Math.floor(n * this.shadow.share) > Math.floor((n - 1) * this.shadow.share);
    return inShadow ? { key, policy: e.warnOnly, shadow: true, selected: `${e.group}, shadow share (warn only)` } : { key, policy: force.policy, shadow: false, selected: force.selected };
  }

  /** A shadow session ended with an outcome: count what every candidate would have done (in its own tenant's pair), then reconsider the promotion. */
  record(key: string, run: { states: readonly State[]; totals: readonly number[]; passed: boolean }): void {
    const e = this.pairs.peek(key);
    if (!e || !this.shadow || run.states.length === 0) return;
    recordRun(e.state.counters, e.plan, run, e.configured);
    this.touched(e.tenant);
    if (!(this.pinOf(e)?.frozen ?? false)) {
      const best = promotable(e.state.counters, e.candidates, this.shadow);
      const next = best?.id ?? null;
      if (next !== e.state.promoted) {
        this.log.info({ tenant: e.tenant, agent: e.state.agent, model: e.state.model, from: e.state.promoted, to: next }, next === null ? 'shadow: promotion withdrawn' : 'shadow: candidate promoted');
        e.state.promoted = next;
      }
    }
    this.changed();
  }

  private pinEntry(agent: string | undefined, model: string | undefined): Result<PinState, PinError> {
    const key = pinKey(agent, model);
    let p = this.pins.get(key);
    if (p) return ok(p);
    if (this.pins.size >= MAX_PINS) return err({ code: 'overloaded', message: `too many pinned or frozen pairs (${MAX_PINS}): lift some first` });
    p = { agent: agent ?? null, model: model ?? null, pinned: null, frozen: false };
    this.pins.set(key, p);
    return ok(p);
  }

  /** Drops a pin entry that no longer pins nor freezes anything. */
  private tidy(p: PinState): void {
    if (p.pinned === null && !p.frozen) this.pins.delete(pinKey(p.agent ?? undefined, p.model ?? undefined));
  }

  /** Pins (or, with null, unpins) an agent + model pair's policy for every tenant; errors name a bad policy. */
  pin(agent: string | undefined, model: string | undefined, input: PolicyInput | null): Result<PinState, PinError> {
    if (input !== null) {
      const p = resolvePolicy(input, makePair(this.set, DEFAULT_TENANT, agent, model).configured);
      if (!p.ok) return err({ code: 'bad_message', message: `policy: ${p.error}` });
    }
    const p = this.pinEntry(agent, model);
    if (!p.ok) return p;
    p.value.pinned = input;
    this.tidy(p.value);
    this.touched(undefined);
    this.changed();
    return p;
  }

  /** Freezes (or thaws) an agent + model pair for every tenant: promotions no longer change; counting goes on. */
  freeze(agent: string | undefined, model: string | undefined, frozen: boolean): Result<PinState, PinError> {
    const p = this.pinEntry(agent, model);
    if (!p.ok) return p;
    p.value.frozen = frozen;
    this.tidy(p.value);
    this.touched(undefined);
    this.changed();
    return p;
  }

  snapshot(): PolicyStateSnapshot {
    return {
      format: 'steplens-policy-state',
      version: 1,
      pairs: [...this.pairs.values()].map((e) => structuredClone(e.state)),
      pins: [...this.pins.values()].map((p) => ({ ...p })),
    };
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

/**
 * Whose references a session is scored against (`referenceScope`). `shared`: one PTA per task, grown by every
 * tenant (within learning-guard.ts's bounds) and used by all: the store as it is. `tenant` (the default with
 * several tenants): a reference of a tenant that is not an operator grows that tenant's own PTA of the task
 * (tenant-keys.ts), which only its own sessions use; an operator's grows the shared one. A tenant's session of
 * task X is scored against its own PTA of X once it holds `minReferences` references, else the shared PTA of X
 * once that does, else the prior (pooled from shared PTAs only, prior-pool.ts). So no tenant's references change
 * another tenant's scores, and nobody can squat a task nor read another tenant's runs through its PTA.
 */
import type { Pta, Reference } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { SteplensError } from '../errors.js';
import type { Contribution, ReferenceStorePort, StoredTaskStats } from '../store/store-port.js';
import { isOwnKey, ownerOfKey, ownTaskKey } from '../store/tenant-keys.js';
import { can, readTenant, type Principal } from './principal.js';
import type { OwnPtaQuota } from './own-pta-quota.js';

export const REFERENCE_SCOPES = ['tenant', 'shared'] as const;
export type ReferenceScope = (typeof REFERENCE_SCOPES)[number];

/** A PTA as the store holds it (an own PTA's `task` is its store key: a reader is shown the task id), and whose it is. */
export interface ScopedPta {
  pta: Pta;
  scope: ReferenceScope;
}

/** One row of `GET /v1/tasks`: `scope` (tenant scope only) says whose; `tenant` names the owner of an own PTA to operators. */
export type ListedTask = StoredTaskStats & { scope?: ReferenceScope; tenant?: string };

export class ScopedReferences {
  constructor(
    readonly store: ReferenceStorePort,
    readonly scope: ReferenceScope,
    /** Bounds the bytes of each tenant's own PTAs (own-pta-quota.ts); none: no bound. */
    readonly quota?: OwnPtaQuota,
  ) {}

  /** The store key `principal`'s reference to `task` grows: its own PTA's in tenant scope, unless an operator's. */
  private growKey(principal: Principal, task: string): string {
    return this.scope === 'tenant' && !can(principal, 'operate') ? ownTaskKey(principal.tenant, task) : task;
  }

  /** Adds a reference of `principal` to `task` (see the module comment for which PTA); errors name the task, not the store key. */
  async add(principal: Principal, task: string, states: readonly State[], contribution?: Contribution): Promise<ScopedPta> {
    const key = this.growKey(principal, task);
    const scope: ReferenceScope = key === task ? 'shared' : 'tenant';
    return named(key, task, async () => {
      if (scope === 'shared' || this.quota === undefined) return { pta: await this.store.addReference(key, states, contribution), scope };
      const pta = await this.quota.add(principal.tenant, task, (admit) => this.store.addReference(key, states, { by: principal.tenant, ...contribution, admit }));
      return { pta, scope };
    });
  }

  /**
   * Removes a PTA of `task` (`DELETE /v1/tasks/:task/pta`). In tenant scope, unless `pick` is `shared`: the own PTA
   * of the reader's tenant, or of the tenant `tenant` names (operators only, as reads: readTenant). The shared PTA
   * (`pick` shared, and the only one in shared scope): operators only, else `forbidden`. Undefined when there is
   * none, and for another tenant's the principal may not see: the same answer, so nobody learns whether it exists.
   * A tenant's own PTA removed releases its bytes in the quota.
   */
  async remove(principal: Principal, task: string, pick?: ReferenceScope, tenant?: string): Promise<{ scope: ReferenceScope; version: number } | undefined> {
    if (this.scope === 'shared' || pick === 'shared') {
      if (!can(principal, 'operate')) throw new SteplensError('forbidden', `task ${task}: removing its shared PTA needs an operator's token`);
      const removed = await this.store.remove(task);
      return removed && { scope: 'shared', version: removed.version };
    }
    const owner = readTenant(principal, tenant);
    if (owner === undefined) return undefined;
    const key = ownTaskKey(owner, task);
    // None held: answered before the quota, whose first change in a while reads the bytes of every own PTA the
    // tenant holds (a removal of nothing cost ~85 ms of CPU with 400 of them, at whatever pace the tenant asked; T84).
    if (!(await this.store.has(key))) return undefined;
    const removed = await named(key, task, () => (this.quota !== undefined ? this.quota.remove(owner, () => this.store.remove(key)) : this.store.remove(key)));
    return removed && { scope: 'tenant', version: removed.version };
  }

  /**
   * What `tenant`'s sessions of `task` are scored against. The store's own PTA object (a Redis session pins it
   * by its store key and version), so never a copy.
   */
  async reference(task: string, tenant: string): Promise<Reference> {
    if (this.scope === 'tenant') {
      const own = await this.store.get(ownTaskKey(tenant, task));
      if (own !== undefined && own.references.length >= this.store.minReferences) return { kind: 'pta', pta: own };
    }
    return this.store.reference(task);
  }

  /**
   * The PTA `tenant` sees for `task`: the one its sessions are scored against, else (none holds `minReferences`
   * yet) its own, else the shared one; `pick` asks for one of the two. Undefined when there is none.
   */
  async view(task: string, tenant: string, pick?: ReferenceScope): Promise<ScopedPta | undefined> {
    const shared = pick === 'tenant' ? undefined : await this.store.get(task);
    if (this.scope === 'shared' || pick === 'shared') return shared && { pta: shared, scope: 'shared' };
    const own = await this.store.get(ownTaskKey(tenant, task));
    const used = (p: Pta | undefined): p is Pta => p !== undefined && p.references.length >= this.store.minReferences;
    const [pta, scope]: [Pta | undefined, ReferenceScope] = used(own) || (!used(shared) && own !== undefined) ? [own, 'tenant'] : [shared, 'shared'];
    return pta && { pta, scope };
  }

  /**
   * `GET /v1/tasks` for `tenant`: the shared tasks and, in tenant scope, its own PTAs (`scope` says which). `all`
   * (an operator's listing without `?tenant=`): every tenant's own PTAs, each naming its tenant. Undefined
   * `tenant` (a tenant the reader may not see): the shared tasks only.
   */
  async list(tenant: string | undefined, all = false): Promise<ListedTask[]> {
    // Only an operator's listing of every tenant reads every key; a tenant's reads the shared ones and its own (T82).
    const keys = all && this.scope === 'tenant' ? await this.store.tasks() : undefined;
    const shared = await this.store.list(keys?.filter((k) => !isOwnKey(k)) ?? (await this.store.sharedTasks()));
    if (this.scope === 'shared') return shared;
    const own = keys?.filter(isOwnKey) ?? (tenant === undefined ? [] : await this.store.ownTasks(tenant));
    const rows: ListedTask[] = (await this.store.list(own)).map((row) => {
      const owner = ownerOfKey(row.task)!; // filtered above
      return { ...row, task: owner.task, scope: 'tenant', ...(all ? { tenant: owner.tenant } : {}) };
    });
    return [...shared.map((row): ListedTask => ({ ...row, scope: 'shared' })), ...rows].sort((a, b) => cmp(a.task, b.task) || cmp(a.tenant ?? '', b.tenant ?? ''));
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Runs `op` on the PTA stored under `key`; its errors name `task` (an own PTA's store key is nobody's business). */
async function named<T>(key: string, task: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (key === task || !(error instanceof SteplensError)) throw error;
    throw new SteplensError(error.code, error.message.replaceAll(key, `${task} (this tenant's own PTA)`), { cause: error });
  }
}

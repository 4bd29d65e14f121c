/**
 * Who a request or connection speaks for: a tenant (whose sessions it may see and whose namespace its session
 * ids live in) and a role (what it may do). Tokens are granted a tenant and a role in the token file
 * (token-grants.ts); with auth off everyone is the one local operator, as a single-user server always was.
 */
import { createHash } from 'node:crypto';

/**
 * - `agent`: streams and scores, reports its own outcomes, sees its own tenant's sessions, adds references within bounds.
 * - `operator`: all of that, plus pins and freezes policies, adds references beyond the bounds, sees every tenant's sessions and pairs, reads /metrics.
 * - `metrics`: reads /metrics (and /readyz) only: a Prometheus scraper's token.
 */
export const ROLES = ['agent', 'operator', 'metrics'] as const;
export type Role = (typeof ROLES)[number];

/** What a route or message needs. */
export type Capability = 'use' | 'operate' | 'metrics';

const GRANTS: Record<Role, readonly Capability[]> = {
  agent: ['use'],
  operator: ['use', 'operate', 'metrics'],
  metrics: ['metrics'],
};

export interface Principal {
  tenant: string;
  role: Role;
}

/** A tenant name: what token files may use (also safe inside Redis keys, metric labels and log lines). */
export const TENANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The tenant of a server without tokens, and of sessions the policy state recorded before tenants existed. */
export const DEFAULT_TENANT = 'default';

/** Auth off: one user, who may do everything (a single-user server on loopback works as it always did). */
export const LOCAL_PRINCIPAL: Principal = Object.freeze({ tenant: DEFAULT_TENANT, role: 'operator' });

export function can(p: Principal, capability: Capability): boolean {
  return GRANTS[p.role].includes(capability);
}

/** Operators read every tenant's sessions; others only their own. */
export function seesTenant(p: Principal, tenant: string): boolean {
  return p.tenant === tenant || can(p, 'operate');
}

/**
 * Whether `holder` may take over a session `started` began (a `resume`): a token of its tenant whose role can do all
 * the starter's could. What a session learns (a shared PTA, the shared forecast models) follows the role that started
 * it, so an agent token resuming an operator's learn session fed its own steps to every tenant's PTA beyond the
 * bounds (T90).
 */
export function mayTakeOver(holder: Principal, started: Principal): boolean {
  return holder.tenant === started.tenant && GRANTS[started.role].every((c) => can(holder, c));
}

/** The refusal of a resume {@link mayTakeOver} does not allow. */
export function takeOverRefusal(id: string, started: Principal): string {
  return `session ${id} was started by ${ROLE_NAMES[started.role]}: only such a token may resume it (what it learns follows that role)`;
}

const ROLE_NAMES: Record<Role, string> = { agent: 'an agent token', operator: "an operator's token", metrics: 'a metrics token' };

/**
 * Whose session a read names: the reader's own tenant, or (operators only) the one `?tenant=` names. Undefined
 * when the reader may not see that tenant: the read then answers as for an unknown session.
 */
export function readTenant(p: Principal, asked: unknown): string | undefined {
  if (typeof asked !== 'string' || asked === '') return p.tenant;
  return seesTenant(p, asked) ? asked : undefined;
}

/**
 * The tenant of a token given without one (`--token`, `STEPLENS_TOKENS`, a bare line of the token file):
 * its own, named from its SHA-256, so such tokens are isolated from each other as they always were.
 */
export function tokenTenant(token: string): string {
  return `token-${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
}

/**
 * The key a session is held under: its id within its tenant's namespace (tenant names hold no `:`, so the
 * first `:` ends the tenant). Two tenants may use the same id; neither can learn that the other did.
 */
export function sessionKey(tenant: string, id: string): string {
  return `${tenant}:${id}`;
}

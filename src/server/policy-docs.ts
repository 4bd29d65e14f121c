/**
 * `GET /v1/policies`' answer, built once per change and shared (T39). A tenant's document holds its pairs (up to
 * 64, each with its ~90 shadow candidates: about 1.4 MB of JSON), an operator's every tenant's; it was built and
 * serialised per request, so one tenant polling it 32 at a time held every other client's ping 0.3-0.9 s. Now the
 * bytes are kept per view (a tenant's, or every tenant's) with the policy manager's stamp of what they show, and
 * every request until the next change is sent the same bytes. A build runs {@link PAIRS_PER_TURN} pairs a turn
 * (an operator's 1,000 pairs, 20 MB, held the event loop 143-423 ms in one go: T49), and requests that come while
 * a view is built share that build, even when a change came meanwhile (a tenant changing its pairs at every
 * session no longer starts a build per request).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InFlight } from '../in-flight.js';
import type { PolicyManager } from './policy-manager.js';
import { pairStatus } from './policy-status.js';
import { can, seesTenant, type Principal } from './principal.js';

/** Pairs summarised and encoded between two turns (~0.2 ms and ~20 KB of JSON each with the default candidates). */
export const PAIRS_PER_TURN = 16;

export class PolicyDocs {
  /** Per view (a tenant, or `*` for operators): the stamp the bytes were built at. Tenants are the token file's. */
  private readonly docs = new Map<string, { stamp: string; bytes: Buffer }>();
  /** Per view, the build in progress. */
  private readonly building = new InFlight<string, Buffer>();
  /** Documents built so far (requests served from a kept one count nothing). */
  built = 0;

  constructor(private readonly policies: PolicyManager) {}

  /** The JSON document `principal` sees: as of now, or of the build in progress when one is. */
  bytes(principal: Principal): Promise<Buffer> {
    const tenant = can(principal, 'operate') ? undefined : principal.tenant;
    const view = tenant ?? '*';
    const stamp = this.policies.revision(tenant);
    const kept = this.docs.get(view);
    if (kept?.stamp === stamp) return Promise.resolve(kept.bytes);
    return this.building.run(view, () => this.build(principal, stamp, view));
  }

  private async build(principal: Principal, stamp: string, view: string): Promise<Buffer> {
    const bytes = await policiesJson(this.policies, principal);
    this.built++;
    this.docs.set(view, { stamp, bytes });
    return bytes;
  }
}

/** `JSON.stringify(policiesStatus(m, principal))`'s bytes, its pairs {@link PAIRS_PER_TURN} a turn, each as it is when reached. */
export async function policiesJson(m: PolicyManager, principal: Principal): Promise<Buffer> {
  const shadow = m.shadow ? { enabled: true, ...m.shadow } : { enabled: false };
  const configured = { groups: m.set.groups, fallback: m.set.fallback };
  const pairs = [...m.pairs.values()].filter((e) => seesTenant(principal, e.tenant));
  const parts: Buffer[] = [Buffer.from(`{"shadow":${JSON.stringify(shadow)},"configured":${JSON.stringify(configured)},"pairs":[`)];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_TURN) {
    if (i > 0) await nextTurn();
    const rows = pairs.slice(i, i + PAIRS_PER_TURN).map((e) => JSON.stringify(pairStatus(m, e)));
    parts.push(Buffer.from((i > 0 ? ',' : '') + rows.join(',')));
  }
  // Read at the end, as the pins are when the document is done.
  parts.push(Buffer.from(`],"pins":${JSON.stringify([...m.pins.values()])}}`));
  return Buffer.concat(parts);
}

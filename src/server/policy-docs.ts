/**
 * `GET /v1/policies`' answer, built once per change and shared (T39). A tenant's document holds its pairs (up to
 * 64, each with its ~90 shadow candidates: about 1.4 MB of JSON), an operator's every tenant's; it was built and
 * serialised per request, so one tenant polling it 32 at a time held every other client's ping 0.3-0.9 s. Now the
 * bytes are kept per view (a tenant's, or every tenant's) with the policy manager's stamp of what they show, and
 * every request until the next change is sent the same bytes; requests read in one turn share one build.
 */
import type { PolicyManager } from './policy-manager.js';
import { policiesStatus } from './policy-status.js';
import { can, type Principal } from './principal.js';

export class PolicyDocs {
  /** Per view (a tenant, or `*` for operators): the stamp the bytes were built at. Tenants are the token file's. */
  private readonly docs = new Map<string, { stamp: string; bytes: Buffer }>();
  /** Documents built so far (requests served from a kept one count nothing). */
  built = 0;

  constructor(private readonly policies: PolicyManager) {}

  /** The JSON document `principal` sees now. */
  bytes(principal: Principal): Buffer {
    const tenant = can(principal, 'operate') ? undefined : principal.tenant;
    const view = tenant ?? '*';
    const stamp = this.policies.revision(tenant);
    const kept = this.docs.get(view);
    if (kept?.stamp === stamp) return kept.bytes;
    const bytes = Buffer.from(JSON.stringify(policiesStatus(this.policies, principal)));
    this.built++;
    this.docs.set(view, { stamp, bytes });
    return bytes;
  }
}

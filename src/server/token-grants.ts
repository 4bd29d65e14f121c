/**
 * Tokens and what each is granted. The token file holds one token per line, optionally followed by
 * `tenant=NAME` and `role=agent|operator|metrics` (`#` starts a comment line):
 *
 *     # the platform team
 *     3f9c...e1  tenant=platform  role=operator
 *     a71d...90  tenant=team-a             # role agent
 *     prom-7c..  role=metrics
 *     legacy-token                         # its own tenant, role agent
 *
 * A token without `tenant=` gets its own tenant (see `tokenTenant`), one without `role=` is an `agent`:
 * the least a token can do. `--token` and `STEPLENS_TOKENS` give such bare tokens.
 */
import { readFile } from 'node:fs/promises';
import { SteplensError } from '../errors.js';
import { readErrorReason } from '../text-files.js';
import { ROLES, TENANT_NAME, tokenTenant, type Principal, type Role } from './principal.js';

export interface TokenGrant {
  token: string;
  /** Default: the token's own tenant. */
  tenant?: string;
  /** Default: `agent`. */
  role?: Role;
}

/** A grant with its defaults filled in. */
export function principalOf(grant: TokenGrant): Principal {
  return { tenant: grant.tenant ?? tokenTenant(grant.token), role: grant.role ?? 'agent' };
}

/** One line of a token file as a grant, or why it is not one (the message never repeats the token). */
export function parseGrantLine(line: string): TokenGrant | string {
  const [token, ...fields] = line.trim().split(/\s+/);
  if (token === undefined || token === '') return 'empty';
  const grant: TokenGrant = { token };
  for (const field of fields) {
    if (field.startsWith('#')) break;
    const eq = field.indexOf('=');
    const key = field.slice(0, Math.max(0, eq));
    const value = field.slice(eq + 1);
    if (key === 'tenant' && grant.tenant === undefined) {
      if (!TENANT_NAME.test(value)) return `tenant '${value}': expected 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`;
      grant.tenant = value;
    } else if (key === 'role' && grant.role === undefined) {
      if (!(ROLES as readonly string[]).includes(value)) return `role '${value}': expected one of ${ROLES.join(', ')}`;
      grant.role = value as Role;
    } else return `'${field.slice(0, 40)}': expected tenant=NAME or role=ROLE (each at most once)`;
  }
  return grant;
}

/** Merges grants; the same token granted twice must be granted the same (else a usage error). */
export function mergeGrants(grants: readonly TokenGrant[]): TokenGrant[] {
  const out = new Map<string, TokenGrant>();
  for (const g of grants) {
    if (g.token.trim() === '') continue;
    const seen = out.get(g.token);
    if (seen === undefined) out.set(g.token, g);
    else if (seen.tenant !== g.tenant || seen.role !== g.role) throw new SteplensError('usage', `a token is granted twice with different tenants or roles (tenant ${principalOf(g).tenant})`);
  }
  return [...out.values()];
}

/** Collects grants: bare tokens, comma/space-separated `envValue`, and the lines of `file`. */
export async function loadTokens(sources: { tokens?: string[]; envValue?: string; file?: string }): Promise<TokenGrant[]> {
  const out: TokenGrant[] = (sources.tokens ?? []).map((token) => ({ token: token.trim() }));
  if (sources.envValue) out.push(...sources.envValue.split(/[\s,]+/).map((token) => ({ token })));
  if (sources.file) {
    let text: string;
    try {
      text = await readFile(sources.file, 'utf8');
    } catch (error) {
      throw new SteplensError('usage', `cannot read token file ${sources.file}: ${readErrorReason(error)}`);
    }
    for (const [i, line] of text.split('\n').entries()) {
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      const grant = parseGrantLine(line);
      if (typeof grant === 'string') throw new SteplensError('usage', `token file ${sources.file}, line ${i + 1}: ${grant}`);
      out.push(grant);
    }
  }
  return mergeGrants(out.filter((g) => g.token !== ''));
}

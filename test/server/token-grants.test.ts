/**
 * Tokens carry a tenant and a role: the token file's `tenant=` and `role=`, least privilege by default (a bare
 * token is an agent of its own tenant), one clear usage error per bad line that never repeats a token.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverConfig } from '../../src/server/config.js';
import { LOCAL_PRINCIPAL, tokenTenant } from '../../src/server/principal.js';
import { loadTokens, parseGrantLine, principalOf } from '../../src/server/token-grants.js';
import { removeDir, tempDir } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await removeDir(dir);
});

describe('token grants', () => {
  it('reads tenant= and role= from the token file, with comments; bare tokens are agents of their own tenant', async () => {
    const file = path.join(dir, 'tokens');
    await writeFile(file, ['# the platform team', 'op-secret  tenant=platform  role=operator', 'a-secret tenant=team-a   # an agent', '', 'prom-secret role=metrics', 'bare-secret', ''].join('\n'));
    const grants = await loadTokens({ file, tokens: ['flag-secret'], envValue: 'env-1, env-2' });
    const by = new Map(grants.map((g) => [g.token, principalOf(g)]));
    expect(by.get('op-secret')).toEqual({ tenant: 'platform', role: 'operator' });
    expect(by.get('a-secret')).toEqual({ tenant: 'team-a', role: 'agent' });
    expect(by.get('prom-secret')).toEqual({ tenant: tokenTenant('prom-secret'), role: 'metrics' });
    for (const bare of ['bare-secret', 'flag-secret', 'env-1', 'env-2']) expect(by.get(bare)).toEqual({ tenant: tokenTenant(bare), role: 'agent' });
    // Bare tokens stay apart from each other, as sessions always answered only to the token that started them.
    expect(tokenTenant('env-1')).not.toBe(tokenTenant('env-2'));
    expect(tokenTenant('env-1')).toMatch(/^token-[0-9a-f]{12}$/);
  });

  it('refuses a bad line with its number and what is wrong, never the token', async () => {
    for (const [line, why] of [
      ['s3cret role=admin', "role 'admin'"],
      ['s3cret tenant=a:b', "tenant 'a:b'"],
      ['s3cret tenant=', "tenant ''"],
      ['s3cret owner=x', "'owner=x'"],
      ['s3cret tenant=a tenant=b', "'tenant=b'"],
    ] as const) {
      const file = path.join(dir, 'bad');
      await writeFile(file, `# first line\n${line}\n`);
      const error = await loadTokens({ file }).then(
        () => undefined,
        (e: Error & { code?: string }) => e,
      );
      expect(error?.code, line).toBe('usage');
      expect(error?.message).toContain('line 2');
      expect(error?.message).toContain(why);
      expect(error?.message).not.toContain('s3cret');
    }
    expect(typeof parseGrantLine('t tenant=x role=operator')).toBe('object');
  });

  it('refuses one token granted two ways; the same grant twice is one', async () => {
    const file = path.join(dir, 'twice');
    await writeFile(file, 'tok tenant=a\ntok tenant=b\n');
    await expect(loadTokens({ file })).rejects.toMatchObject({ code: 'usage' });
    await writeFile(file, 'tok tenant=a\ntok tenant=a\n');
    expect(await loadTokens({ file })).toHaveLength(1);
  });

  it('serve --token-file passes the grants to the app; without tokens everyone is the local operator', async () => {
    const file = path.join(dir, 'serve-tokens');
    await writeFile(file, 'op tenant=ops role=operator\n');
    const config = await serverConfig(['--token-file', file, '--token', 'agent-token', '--no-seed'], {}, dir);
    expect(config.app.tokens).toEqual(expect.arrayContaining([{ token: 'op', tenant: 'ops', role: 'operator' }, { token: 'agent-token' }]));
    expect(LOCAL_PRINCIPAL).toEqual({ tenant: 'default', role: 'operator' });
    expect((await serverConfig(['--sessions-per-tenant', '200', '--no-seed'], {}, dir)).app.limits).toEqual({ sessionsPerTenant: 200 });
    expect((await serverConfig(['--no-seed'], { STEPLENS_SESSIONS_PER_TENANT: '7' }, dir)).app.limits).toEqual({ sessionsPerTenant: 7 });
    await expect(serverConfig(['--sessions-per-tenant', '1.5'], {}, dir)).rejects.toMatchObject({ code: 'usage' });
  });
  it('names why a token file cannot be read in words, as every other file (audit19: was the bare code ENOENT)', async () => {
    await expect(loadTokens({ file: path.join(dir, 'no-such-tokens') })).rejects.toThrow(`cannot read token file ${path.join(dir, 'no-such-tokens')}: no such file`);
    await expect(loadTokens({ file: dir })).rejects.toThrow(`cannot read token file ${dir}: is a directory`);
  });
});

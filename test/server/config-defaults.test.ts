/** Where `serve` / `npm start` keep data and which references they seed from, when the user says nothing. */
import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { serverConfig } from '../../src/server/config.js';
import { resolveOptions } from '../../src/server/options.js';
import { DEFAULT_LIMITS } from '../../src/server/server-limits.js';
import { bundledReferencesDir, packageRoot } from '../../src/package-files.js';

describe('server config defaults', () => {
  it('keeps learned references in the user data folder, never in the working tree', async () => {
    const cwd = packageRoot();
    const xdg = await serverConfig([], { XDG_DATA_HOME: '/var/lib/someone' }, cwd);
    expect(xdg.app.dataDir).toBe('/var/lib/someone/steplens');
    const home = await serverConfig([], {}, cwd);
    expect(home.app.dataDir).toBe(path.join(os.homedir(), '.local', 'share', 'steplens'));
    expect(home.app.dataDir?.startsWith(cwd)).toBe(false);
    expect((await serverConfig([], { STEPLENS_DATA: 'here' }, '/srv')).app.dataDir).toBe('/srv/here');
    expect((await serverConfig(['--data', 'there'], { STEPLENS_DATA: 'here' }, '/srv')).app.dataDir).toBe('/srv/there');
  });

  it('seeds from the bundled references unless --no-seed', async () => {
    expect((await serverConfig([], {}, '/')).app.seedDirs).toEqual([bundledReferencesDir()]);
    expect((await serverConfig(['--no-seed'], {}, '/')).app.seedDirs).toEqual([]);
  });

  it('takes server limits from --limit NAME=VALUE and STEPLENS_LIMITS, and names a bad one', async () => {
    const limits = (await serverConfig(['--limit', 'ptaReferences=200', '--limit', 'connectionsPerAddress=0'], { STEPLENS_LIMITS: 'ptaBytes=1048576, maxSessionBytes=4096' }, '/')).app.limits;
    expect(limits).toEqual({ ptaReferences: 200, connectionsPerAddress: 0, ptaBytes: 1048576, maxSessionBytes: 4096 });
    expect((await serverConfig([], {}, '/')).app.limits).toBeUndefined();
    await expect(serverConfig(['--limit', 'ptaRefs=2'], {}, '/')).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining("--limit: 'ptaRefs=2' is not NAME=VALUE with NAME one of") as unknown,
    });
    await expect(serverConfig(['--limit', 'ptaNodes=0'], {}, '/')).rejects.toMatchObject({ code: 'usage', message: "--limit ptaNodes: expected an integer of at least 1 (got '0')" });
    await expect(serverConfig(['--limit', 'ptaNodes=1e3'], {}, '/')).resolves.toMatchObject({ app: { limits: { ptaNodes: 1000 } } });
    // A tenant's journal budget in Redis: 0 turns it off.
    await expect(serverConfig(['--limit', 'journalBytesPerTenant=0'], {}, '/')).resolves.toMatchObject({ app: { limits: { journalBytesPerTenant: 0 } } });
    expect(DEFAULT_LIMITS.journalBytesPerTenant).toBe(512 * 1024 * 1024);
  });

  it('keeps references per tenant by default with two tenants or more, shared with one; --reference-scope and STEPLENS_REFERENCE_SCOPE choose', async () => {
    const scope = (tokens: Parameters<typeof resolveOptions>[0]['tokens'], referenceScope?: 'tenant' | 'shared') =>
      resolveOptions({ ...(tokens ? { tokens } : {}), ...(referenceScope ? { referenceScope } : {}) }).referenceScope;
    expect([
      scope(undefined),
      scope(['one']),
      scope([
        { token: 'a', tenant: 't' },
        { token: 'b', tenant: 't', role: 'operator' },
      ]),
    ]).toEqual(['shared', 'shared', 'shared']);
    expect([
      scope(['one', 'two']),
      scope([
        { token: 'a', tenant: 't' },
        { token: 'op', tenant: 'ops', role: 'operator' },
      ]),
    ]).toEqual(['tenant', 'tenant']);
    expect([scope(['one', 'two'], 'shared'), scope(['one'], 'tenant')]).toEqual(['shared', 'tenant']);
    expect((await serverConfig(['--no-seed'], {}, '/')).app.referenceScope).toBeUndefined();
    expect((await serverConfig(['--reference-scope', 'shared', '--no-seed'], {}, '/')).app.referenceScope).toBe('shared');
    expect((await serverConfig(['--no-seed'], { STEPLENS_REFERENCE_SCOPE: 'tenant' }, '/')).app.referenceScope).toBe('tenant');
    await expect(serverConfig(['--reference-scope', 'mine'], {}, '/')).rejects.toMatchObject({ code: 'usage', message: "--reference-scope must be tenant or shared (got 'mine')" });
  });

  it('refuses a log level pino does not know as a usage error naming the flag or variable (it was an internal error)', async () => {
    expect((await serverConfig(['--log-level', 'silent', '--no-seed'], {}, '/')).app.logLevel).toBe('silent');
    expect((await serverConfig(['--no-seed'], { STEPLENS_LOG_LEVEL: 'debug' }, '/')).app.logLevel).toBe('debug');
    const levels = 'fatal, error, warn, info, debug, trace, silent';
    await expect(serverConfig(['--log-level', 'bogus'], {}, '/')).rejects.toMatchObject({ code: 'usage', message: `--log-level must be one of ${levels} (got 'bogus')` });
    await expect(serverConfig([], { STEPLENS_LOG_LEVEL: 'verbose' }, '/')).rejects.toMatchObject({ code: 'usage', message: `STEPLENS_LOG_LEVEL must be one of ${levels} (got 'verbose')` });
  });
});

/**
 * Log lines of a tenant's own events (`logLinesPerTenant`, T38): a tenant starting and ending sessions as fast as
 * it can writes at most its share of lines; one warning says its lines are left out, its next line written counts
 * them; another tenant's lines are all written. Defaults: on with two tenants, off with one.
 */
import { describe, expect, it } from 'vitest';
import { parseLimits } from '../../src/server/config.js';
import { resolveOptions } from '../../src/server/options.js';
import { DEFAULT_LOG_LINES_PER_TENANT } from '../../src/server/server-limits.js';
import { limitTenantLines, tenantInfo } from '../../src/server/tenant-log.js';
import { captured } from './captured-log.js';
import { bearer, Client, useApp } from './helpers.js';

const LINES = 10;

const { log, lines } = captured();
const srv = useApp({
  logger: log,
  limits: { logLinesPerTenant: LINES },
  tokens: [
    { token: 'noisy', tenant: 'noisy' },
    { token: 'quiet', tenant: 'quiet' },
  ],
});

async function startEnd(c: Client, id: string): Promise<void> {
  c.send({ type: 'start', session: id, task: 't' });
  await c.nextOf('started', id);
  c.send({ type: 'end', session: id });
  await c.nextOf('final', id);
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 50));

// The same server at debug level: each frame refused is a debug line (T81).
const debug = captured();
debug.log.level = 'debug';
const srvDebug = useApp({
  logger: debug.log,
  limits: { logLinesPerTenant: LINES },
  tokens: [
    { token: 'noisy', tenant: 'noisy' },
    { token: 'quiet', tenant: 'quiet' },
  ],
});

describe('log lines per tenant', () => {
  it("leaves out a tenant's lines past its share, warns once, and writes every line of another tenant", async () => {
    const noisy = await Client.connect(srv().wsUrl, bearer('noisy'));
    for (let i = 0; i < 30; i++) await startEnd(noisy, `n${i}`);
    const quiet = await Client.connect(srv().wsUrl, bearer('quiet'));
    for (let i = 0; i < 3; i++) await startEnd(quiet, `q${i}`);
    await flush();
    const of = (tenant: string) => lines.filter((l) => l.tenant === tenant && l.level === 30);
    // 1 connection opened + 60 session lines: only its share written.
    expect(of('noisy')).toHaveLength(LINES);
    expect(lines.filter((l) => l.level === 40 && l.tenant === 'noisy')).toEqual([expect.objectContaining({ perMinute: LINES, msg: expect.stringContaining('left out') })]);
    // Every line of the other tenant: its stream, 3 starts and 3 ends.
    expect(of('quiet').map((l) => l.msg)).toEqual(['connection opened', ...Array.from({ length: 3 }, () => ['session started', 'session ended']).flat()]);
    noisy.close();
    quiet.close();
  });

  it('counts the lines left out on the next line written, refills with time, and writes everything when not limited', () => {
    const { log: l, lines: out } = captured();
    limitTenantLines(l, 60); // one a second
    const t0 = 1_000_000;
    for (let i = 0; i < 65; i++) tenantInfo(l, 'a', { i }, 'event', t0);
    // A second later: one line written (the 5 left out counted on it), the next left out again, not warned of again.
    tenantInfo(l, 'a', { i: 65 }, 'event', t0 + 1_000);
    tenantInfo(l, 'a', { i: 66 }, 'event', t0 + 1_000);
    // A minute later the bucket is full: all written again; a new run of lines left out is warned of again.
    for (let i = 67; i < 67 + 61; i++) tenantInfo(l, 'a', { i }, 'event', t0 + 61_000);
    return flush().then(() => {
      const info = out.filter((x) => x.level === 30);
      expect(info).toHaveLength(60 + 1 + 60);
      expect(info[60]).toMatchObject({ i: 65, tenant: 'a', linesLeftOut: 5 });
      expect(info[61]).toMatchObject({ i: 67, linesLeftOut: 1 });
      expect(out.filter((x) => x.level === 40)).toHaveLength(2);
      const { log: free, lines: all } = captured();
      for (let i = 0; i < 100; i++) tenantInfo(free, 'a', {}, 'event', t0);
      return flush().then(() => expect(all).toHaveLength(100));
    });
  });

  it('is on by default with two tenants, off with one, and --limit sets it (0: off)', () => {
    expect(
      resolveOptions({
        tokens: [
          { token: 'x', tenant: 'x' },
          { token: 'y', tenant: 'y' },
        ],
      }).limits.logLinesPerTenant,
    ).toBe(DEFAULT_LOG_LINES_PER_TENANT);
    expect(resolveOptions({ tokens: ['x'] }).limits.logLinesPerTenant).toBe(0);
    expect(parseLimits(['logLinesPerTenant=0'])).toEqual({ logLinesPerTenant: 0 });
  });

  it("at debug level, bounds a tenant's lines of refused frames by the same share; another tenant's are written (T81)", async () => {
    const noisy = await Client.connect(srvDebug().wsUrl, bearer('noisy'));
    // 100 frames refused (`unknown_session`), each answered.
    for (let i = 0; i < 100; i++) noisy.send({ type: 'end', session: `none-${i}` });
    for (let i = 0; i < 100; i++) await noisy.nextOf('error', `none-${i}`);
    const quiet = await Client.connect(srvDebug().wsUrl, bearer('quiet'));
    quiet.send({ type: 'end', session: 'none' });
    await quiet.nextOf('error', 'none');
    await flush();
    const refused = (tenant: string) => debug.lines.filter((l) => l.tenant === tenant && l.msg === 'refused');
    // Its share (less its `connection opened`), not 100; the other tenant's one refusal written.
    expect(debug.lines.filter((l) => l.msg === 'refused')).toHaveLength(LINES - 1 + 1);
    expect(refused('noisy')).toHaveLength(LINES - 1);
    expect(refused('quiet')).toEqual([expect.objectContaining({ level: 20, code: 'unknown_session', session: 'none' })]);
    noisy.close();
    quiet.close();
  });
});

/**
 * WebSocket connections per tenant (`connectionsPerTenant`, T36): a tenant that is not an operator holds at most
 * its quota of streams; past it the upgrade gets 429 `quota_exceeded` and other tenants are served; a burst of
 * upgrades at once leaves exactly the quota open; a closed stream frees its slot; operators are not bounded.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { parseLimits } from '../../src/server/config.js';
import { resolveOptions } from '../../src/server/options.js';
import { TenantStreams } from '../../src/server/tenant-streams.js';
import { bearer, Client, tenantTokens, useApp } from './helpers.js';
import { rawUpgrade } from './raw-upgrade.js';

const QUOTA = 3;
const server = useApp({ limits: { connectionsPerTenant: QUOTA }, tokens: tenantTokens(['greedy', 'other'], 'ops') });

/** A raw upgrade request to /v1/stream (raw-upgrade.ts), with `keep` its open socket. */
const upgrade = (token: string, keep = false) => rawUpgrade(server().url, token, keep);

const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WebSocket connections per tenant', () => {
  it('refuses the stream past the quota with 429 quota_exceeded, serves other tenants, frees a slot on close', async () => {
    const held = await Promise.all(Array.from({ length: QUOTA }, () => Client.connect(server().wsUrl, bearer('greedy'))));
    const over = await upgrade('greedy');
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body)).toMatchObject({ error: { code: 'quota_exceeded' } });
    expect(over.body).toContain(`holds ${QUOTA} WebSocket connections`);
    // Another tenant is served, and so is an operator past the quota.
    const other = await Client.connect(server().wsUrl, bearer('other'));
    other.send({ type: 'start', session: 's', task: 't' });
    expect(await other.nextOf('started', 's')).toMatchObject({ session: 's' });
    const ops = await Promise.all(Array.from({ length: QUOTA + 1 }, () => Client.connect(server().wsUrl, bearer('ops'))));
    // One of the tenant's streams closes: it may open one again, and only one.
    held[0]!.close();
    await settle();
    const again = await Client.connect(server().wsUrl, bearer('greedy'));
    expect((await upgrade('greedy')).status).toBe(429);
    // The TypeScript client's error names the server's reason, not only the status.
    await expect(connect(server().url, { token: 'greedy', reconnect: false })).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringContaining(`HTTP 429 quota_exceeded: tenant 'greedy' holds ${QUOTA} WebSocket connections`),
    });
    for (const c of [...held.slice(1), again, other, ...ops]) c.close();
  });

  it('a burst of upgrades at once leaves exactly the quota open, the rest refused 429', async () => {
    await settle();
    const tries = await Promise.all(Array.from({ length: QUOTA * 3 }, () => upgrade('greedy', true)));
    expect(tries.filter((t) => t.status === 101)).toHaveLength(QUOTA);
    expect(tries.filter((t) => t.status === 429)).toHaveLength(QUOTA * 2);
    for (const t of tries) t.socket?.destroy();
    // Their sockets closed: the slots are free again.
    await settle();
    const back = await Promise.all(Array.from({ length: QUOTA }, () => Client.connect(server().wsUrl, bearer('greedy'))));
    for (const c of back) c.close();
  });
});

describe('connectionsPerTenant: its default and its counting', () => {
  it('is off with one tenant, a quarter of maxConnections (at least 16) with two, settable and 0 turns it off', () => {
    const two = [
      { token: 'a', tenant: 'a' },
      { token: 'b', tenant: 'b' },
    ];
    expect(resolveOptions({}).limits.connectionsPerTenant).toBe(0);
    expect(resolveOptions({ tokens: two, limits: { maxConnections: 10_000 } }).limits.connectionsPerTenant).toBe(2_500);
    expect(resolveOptions({ tokens: two, limits: { maxConnections: 40 } }).limits.connectionsPerTenant).toBe(16);
    expect(resolveOptions({ tokens: two, limits: { maxConnections: 0 } }).limits.connectionsPerTenant).toBe(1024);
    expect(resolveOptions({ tokens: two, limits: { connectionsPerTenant: 0 } }).limits.connectionsPerTenant).toBe(0);
    expect(parseLimits(['connectionsPerTenant=0'])).toEqual({ connectionsPerTenant: 0 });
  });

  it('counts a tenant from the upgrade to the close of its socket, bounds agents only', () => {
    const streams = new TenantStreams(2);
    const agent = { tenant: 'x', role: 'agent' } as const;
    const sockets = [new EventEmitter(), new EventEmitter(), new EventEmitter()];
    streams.hold(agent, sockets[0]!);
    expect(streams.refusal(agent)).toBeUndefined();
    streams.hold(agent, sockets[1]!);
    expect(streams.refusal(agent)).toContain("tenant 'x' holds 2");
    expect(streams.refusal({ tenant: 'y', role: 'agent' })).toBeUndefined();
    expect(streams.refusal({ tenant: 'x', role: 'operator' })).toBeUndefined();
    streams.hold({ tenant: 'x', role: 'operator' }, sockets[2]!);
    for (const s of sockets) s.emit('close');
    expect(streams.count('x')).toBe(0);
    expect(new TenantStreams(0).refusal(agent)).toBeUndefined();
  });
});

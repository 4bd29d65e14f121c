/**
 * New streams a tenant may open a second (`streamUpgradesPerSecond`, `streamUpgradeBurst`, T112): a client
 * reconnecting in a loop gets 429 `quota_exceeded` past its tenant's token bucket, before the handshake, naming the
 * bound; other tenants and operators are served; the default is on with two tenants and off with one.
 */
import { describe, expect, it } from 'vitest';
import { parseLimits } from '../../src/server/config.js';
import { resolveOptions } from '../../src/server/options.js';
import { SUGGESTED_STREAM_UPGRADES_PER_SECOND } from '../../src/server/server-limits.js';
import { UpgradeRate } from '../../src/server/upgrade-rate.js';
import { tenantTokens, useApp } from './helpers.js';
import { rawUpgrade } from './raw-upgrade.js';

const BURST = 3;
const TRIES = 12;
// One a second: the loop below takes well under the 9 s it would need to refill what it asks past the burst.
const server = useApp({ limits: { streamUpgradesPerSecond: 1, streamUpgradeBurst: BURST }, tokens: tenantTokens(['churner', 'other'], 'ops') });

/** A raw upgrade to /v1/stream, its socket closed at once: 101, or the refused upgrade's status and body. */
const reconnect = (token: string) => rawUpgrade(server().url, token);

describe('stream upgrades a tenant may open a second', () => {
  it('refuses a reconnect loop past the bucket with 429 quota_exceeded naming the bound; others are served', async () => {
    const tries: Array<{ status: number; body: string }> = [];
    for (let i = 0; i < TRIES; i++) tries.push(await reconnect('churner'));
    const refused = tries.filter((t) => t.status === 429);
    // The burst opens, then at most one a second more: the rest are refused (counted, not timed).
    expect(tries.slice(0, BURST).every((t) => t.status === 101)).toBe(true);
    expect(refused.length).toBeGreaterThanOrEqual(TRIES - BURST - 4);
    expect(JSON.parse(refused[0]?.body ?? '{}')).toMatchObject({ error: { code: 'quota_exceeded' } });
    expect(refused[0]?.body).toContain("tenant 'churner' opened WebSocket connections faster than 1 a second (bursts of 3)");
    // Another tenant, and an operator past the burst, are served meanwhile.
    expect((await reconnect('other')).status).toBe(101);
    const ops = [];
    for (let i = 0; i < BURST + 2; i++) ops.push(await reconnect('ops'));
    expect(ops.every((t) => t.status === 101)).toBe(true);
  });
});

describe('UpgradeRate', () => {
  it('is a token bucket per tenant: a burst, then the refill; operators and 0 unbounded', () => {
    let now = 0;
    const rate = new UpgradeRate(2, 4, () => now);
    const agent = { tenant: 'x', role: 'agent' } as const;
    const taken = Array.from({ length: 6 }, () => rate.take(agent));
    expect(taken.filter((t) => t === undefined)).toHaveLength(4);
    expect(taken[4]).toContain("tenant 'x' opened WebSocket connections faster than 2 a second (bursts of 4)");
    expect(taken[4]).toContain('the next in 500 ms');
    expect(rate.take({ tenant: 'y', role: 'agent' })).toBeUndefined();
    expect(rate.take({ tenant: 'x', role: 'operator' })).toBeUndefined();
    now = 1000; // two more
    expect([rate.take(agent), rate.take(agent), rate.take(agent)].filter((t) => t === undefined)).toHaveLength(2);
    now = 60_000; // refilled to the burst, no more
    expect(Array.from({ length: 6 }, () => rate.take(agent)).filter((t) => t === undefined)).toHaveLength(4);
    expect(Array.from({ length: 100 }, () => new UpgradeRate(0, 1).take(agent)).every((t) => t === undefined)).toBe(true);
  });

  it("a client's own reconnect with the default backoff never meets the suggested bound", () => {
    // 200 ms, then twice as long (src/client DEFAULT_RECONNECT), a dropped stream each time, for a minute.
    let now = 0;
    const rate = new UpgradeRate(SUGGESTED_STREAM_UPGRADES_PER_SECOND, resolveOptions({}).limits.streamUpgradeBurst, () => now);
    for (let drop = 0; drop < 300; drop++) {
      now += 200; // each reconnect opens at its first try, and is dropped again at once
      expect(rate.take({ tenant: 'x', role: 'agent' })).toBeUndefined();
    }
  });

  it('defaults: off, with one tenant or many; settable, 0 turns it off', () => {
    const two = tenantTokens(['a', 'b']);
    expect(resolveOptions({}).limits.streamUpgradesPerSecond).toBe(0);
    // Off with two tenants too: no measured gain at 40 a second, and a trainer's rollouts open their streams together (T112).
    expect(resolveOptions({ tokens: two }).limits.streamUpgradesPerSecond).toBe(0);
    expect(resolveOptions({ tokens: two }).limits.streamUpgradeBurst).toBe(200);
    expect(resolveOptions({ tokens: two, limits: { streamUpgradesPerSecond: 10 } }).limits.streamUpgradesPerSecond).toBe(10);
    expect(parseLimits(['streamUpgradesPerSecond=0', 'streamUpgradeBurst=50'])).toEqual({ streamUpgradesPerSecond: 0, streamUpgradeBurst: 50 });
  });
});

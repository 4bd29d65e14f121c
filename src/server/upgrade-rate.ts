/**
 * New WebSocket streams a tenant may open a second (T112). A client reconnecting as fast as it can (~40 upgrades a
 * second, round 25) cost every other tenant's requests 10x their p50: each upgrade is a handshake, a ws socket, its
 * listeners and (with a session) a resume, then a close; T45 paces its log lines, nothing paced the upgrades. A
 * tenant that is not an operator gets a token bucket: `perSecond` upgrades a second on average, at most `burst` at
 * once (a fleet of agents reconnecting together after a restart); past it the upgrade is answered 429
 * `quota_exceeded` before the handshake. A client's own reconnect with backoff (200 ms, then twice as long) opens
 * at most 5 a second, so only a tenant's many clients together, or a loop without backoff, meet it.
 */
import type { Principal } from './principal.js';

interface Bucket {
  tokens: number;
  at: number;
}

export class UpgradeRate {
  private readonly buckets = new Map<string, Bucket>();

  /** `perSecond`: the refill (0: no bound); `burst`: the bucket's size (at least 1). `now` in ms (tests pass their own). */
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one upgrade of `principal`'s tenant; the 429 message when its bucket is empty, else undefined. */
  take(principal: Principal): string | undefined {
    if (this.perSecond === 0 || principal.role === 'operator') return undefined;
    const size = Math.max(1, this.burst);
    const now = this.now();
    const bucket = this.buckets.get(principal.tenant) ?? { tokens: size, at: now };
    bucket.tokens = Math.min(size, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(principal.tenant, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    const wait = Math.ceil(((1 - bucket.tokens) / this.perSecond) * 1000);
    return (
      `tenant '${principal.tenant}' opened WebSocket connections faster than ${this.perSecond} a second (bursts of ${size}), its limit ` +
      `(streamUpgradesPerSecond, streamUpgradeBurst): reconnect with backoff, the next in ${wait} ms`
    );
  }
}

/** The registry's open sessions counted per tenant as they come and go (the tenant quota reads it at every start). */
import { describe, expect, it } from 'vitest';
import { LiveSessions } from '../../src/server/live-sessions.js';
import type { Session } from '../../src/server/session.js';

const session = (tenant: string): Session => ({ tenant }) as unknown as Session;

describe('LiveSessions', () => {
  it('counts each session once per tenant, and forgets tenants with none left', () => {
    const live = new LiveSessions();
    const [a1, a2, b1] = [session('a'), session('a'), session('b')];
    live.add(a1);
    live.add(a1);
    live.add(a2);
    live.add(b1);
    expect([live.size, live.of('a'), live.of('b'), live.of('c')]).toEqual([3, 2, 1, 0]);
    live.delete(a1);
    live.delete(a1);
    live.delete(session('a'));
    expect([live.size, live.of('a'), live.of('b')]).toEqual([2, 1, 1]);
    live.delete(a2);
    live.delete(b1);
    expect([live.size, live.of('a'), live.of('b')]).toEqual([0, 0, 0]);
    expect((live as unknown as { perTenant: Map<string, number> }).perTenant.size).toBe(0);
  });
});

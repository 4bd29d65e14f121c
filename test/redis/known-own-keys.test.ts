/**
 * T83: what a replica knows of Redis' task versions feeds the pooled prior only, which tenants' own PTAs never
 * enter; kept there, every tenant's own PTAs were walked by each prior (each session start of a task without a
 * PTA, on every replica): tenant B's 50,000 cost each 14-22 ms of CPU. They are not kept now.
 */
import { describe, expect, it } from 'vitest';
import { KnownVersions } from '../../src/store/redis/known-versions.js';
import { ownTaskKey } from '../../src/store/tenant-keys.js';

describe("a replica's known task versions (T83)", () => {
  it("keep shared tasks only: tenants' own PTAs heard, seen or re-read are not kept", () => {
    const known = new KnownVersions();
    const own = Array.from({ length: 100 }, (_, i) => ownTaskKey('bob', `task-${i}`));
    for (const key of own) known.heard(`1:${key}`);
    known.see(ownTaskKey('bob', 'seen'), 4);
    known.heard('2:shared');
    expect([...known.current]).toEqual([['shared', 2]]);
    known.reread({ shared: '3', other: '1', ...Object.fromEntries(own.map((k) => [k, '2'])) });
    expect([...known.current].sort()).toEqual([
      ['other', 1],
      ['shared', 3],
    ]);
    // A removal of an own PTA is not remembered either (nothing of it is kept to bring back).
    known.heard(`-1:${own[0]}`);
    known.heard('-3:shared');
    expect([...known.current]).toEqual([['other', 1]]);
  });
});

/**
 * A growth whose script outlives the command timeout (the PTA-growth drill's finding): Redis still applies
 * it, so the store must answer the new PTA, never `unavailable` with the version moved; when Redis stays
 * silent past the wait, the answer says it is not known whether the reference was stored. Redis holds the
 * script back with `CLIENT PAUSE ... WRITE` (reads go on, so the growth reaches its script).
 */
import { describe, expect, it } from 'vitest';
import { SteplensError } from '../../src/errors.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { GROW_CHAIN, GROW_DELTA } from '../../src/store/redis/pta-scripts.js';
import { ASTROID } from '../server/helpers.js';
import { usePassingStates } from '../store/states.js';
import { killPostponedScript } from './postponed-script.js';
import { freshPrefix, useRedis } from './replicas.js';

/** A pause of 3 timeouts holds the script past its timeout and ends within the store's wait (3 timeouts) if the script goes out within 2 timeouts of the pause (reads before it are not paused: a few ms). */
const TIMEOUT_MS = 300;
const fx = useRedis();
const passing = usePassingStates();

/** A store with a short command timeout; `failed` collects the ops whose command failed. */
async function store(): Promise<{ store: RedisReferenceStore; prefix: string; failed: string[] }> {
  const prefix = freshPrefix('growtimeout');
  const failed: string[] = [];
  const link = new RedisLink({ url: fx.redis.url, prefix, commandTimeoutMs: TIMEOUT_MS, observer: { command: (op, _s, ok) => void (ok || failed.push(op)), connection: () => undefined } });
  fx.links.push(link);
  return { store: await RedisReferenceStore.open({ link }), prefix, failed };
}

/** Redis knows the growth scripts (else the paused EVALSHA would only answer NOSCRIPT once let through). */
async function loadScripts(): Promise<void> {
  for (const script of [GROW_CHAIN, GROW_DELTA]) await fx.admin.script('LOAD', script.lua);
}

const versionIn = async (prefix: string): Promise<number> => Number((await fx.admin.hget(`${prefix}tasks`, ASTROID.task)) ?? 0);

describe('a growth that outlives the command timeout', () => {
  it('answers the new PTA when Redis applied it (a new chain, then a delta)', async () => {
    const { store: s, prefix, failed } = await store();
    await loadScripts();
    for (const [states, expected] of [
      [passing.a, 1],
      [passing.b, 2],
    ] as const) {
      failed.splice(0);
      await fx.admin.call('CLIENT', 'PAUSE', String(TIMEOUT_MS * 3), 'WRITE');
      const pta = await s.addReference(ASTROID.task, states);
      expect(failed).toContain('grow'); // the script did outlive the timeout
      expect(pta.version).toBe(expected);
      expect(await versionIn(prefix)).toBe(expected);
      expect((await s.get(ASTROID.task))?.references).toHaveLength(expected);
    }
  });

  it('says it is not known whether the reference was stored when Redis stays silent past the wait', async () => {
    const { store: s, prefix } = await store();
    await loadScripts();
    await s.addReference(ASTROID.task, passing.a);
    await fx.admin.call('CLIENT', 'PAUSE', String(TIMEOUT_MS * 12), 'WRITE');
    const error = await s.addReference(ASTROID.task, passing.b).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SteplensError);
    expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('it is not known whether the reference was stored') as unknown });
    // It was, once Redis went on: the answer did not claim otherwise.
    const deadline = Date.now() + 5000;
    while ((await versionIn(prefix)) !== 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(await versionIn(prefix)).toBe(2);
  });

  it('after a SCRIPT FLUSH on its live connection: refused naming NOSCRIPT, nothing stored; the next growth loads the script again', async () => {
    const { store: s, prefix } = await store();
    await s.addReference(ASTROID.task, passing.a);
    await s.addReference(ASTROID.task, passing.a); // the store's connection has loaded both growth scripts
    await fx.admin.script('FLUSH');
    const error = await s.addReference(ASTROID.task, passing.b).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Not sent again as EVAL: a resend could overtake later calls, or apply after its caller gave up (lua-script.ts).
    expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('NOSCRIPT') as unknown });
    expect(await versionIn(prefix)).toBe(2);
    expect((await s.addReference(ASTROID.task, passing.b)).version).toBe(3);
  });

  it('answers unavailable, nothing stored, when its connection dropped with the growth in flight and Redis never ran it', async () => {
    const { store: s, prefix, failed } = await store();
    await loadScripts();
    await s.addReference(ASTROID.task, passing.a);
    // A long pause: under load the store may take a while to build the grown PTA before its script goes out.
    await fx.admin.call('CLIENT', 'PAUSE', '10000', 'WRITE');
    const growing = s.addReference(ASTROID.task, passing.b).then(
      () => undefined,
      (e: unknown) => e,
    );
    await killPostponedScript(fx.admin); // Redis drops the script: it never runs
    const error = await growing;
    expect(failed).toContain('grow');
    expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('nothing was stored') as unknown });
    expect((error as Error).message).toContain('unreachable (grow: Reached the max retries'); // the drop, not the timeout
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
    expect(await versionIn(prefix)).toBe(1);
  });
});

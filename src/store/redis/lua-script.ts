/**
 * A Lua script sent by SHA1: what makes each Redis write atomic (a check and its write run as one step on the
 * server, so replicas never interleave between them). Each is loaded (`SCRIPT LOAD`) ahead of its first use on
 * every connection. The scripts themselves: pta-scripts.ts (reference PTAs), journal-scripts.ts (sessions).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** The scripts loaded on each client's current connection; its connection closing forgets them (a restarted Redis has none). */
const loadedOn = new WeakMap<Redis, Set<string>>();

function loadedScripts(redis: Redis): Set<string> {
  let loaded = loadedOn.get(redis);
  if (!loaded) {
    const set = new Set<string>();
    redis.on('close', () => set.clear());
    loadedOn.set(redis, (loaded = set));
  }
  return loaded;
}

export class LuaScript {
  readonly sha: string;
  constructor(
    readonly name: string,
    readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /**
   * Runs the script with `keys` and `args`. Its first use on a connection sends `SCRIPT LOAD` just before
   * the EVALSHA, on the same connection, so Redis has it when the EVALSHA arrives. It used to be loaded on
   * `NOSCRIPT` by sending the call again as EVAL, which let a later call overtake it: after a restart two
   * step appends of one session were answered NOSCRIPT and sent again, and a third append sent between the
   * two EVALs ran before the second, so Redis saw a gap and refused a step whose earlier writes had not
   * failed (client-resume-retry.test.ts failed so in about one full run in two under load, CI included);
   * and an EVAL sent after its caller had timed out could apply a write the caller had reported as not
   * stored. `NOSCRIPT` (a `SCRIPT FLUSH`, or a proxy that moved the connection to another Redis) now fails
   * the call, which ran nothing, and the next call loads the script again.
   */
  async run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number | Buffer>): Promise<unknown> {
    const loaded = loadedScripts(redis);
    if (!loaded.has(this.sha)) {
      loaded.add(this.sha);
      // Its failure (the connection dropped) is the EVALSHA's too: that one is reported, and the next call loads again.
      redis.script('LOAD', this.lua).catch(() => loaded.delete(this.sha));
    }
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (String((error as Error).message).includes('NOSCRIPT')) loaded.delete(this.sha);
      throw error;
    }
  }
}

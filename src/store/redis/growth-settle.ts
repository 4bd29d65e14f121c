/**
 * Running one growth script so that its answer never lies: when the script goes unanswered (timed out:
 * Redis may still run it; or the connection dropped with it in flight), `unavailable` would be false if
 * Redis applied it. Each growth records its id (`gid:<id>`: the version it wrote, kept 10 minutes); an
 * unanswered one waits, a few command timeouts at most, until Redis answers again and reads that record:
 * there, the growth was applied ('ok'); absent, it was not (Redis answers a client's commands in order,
 * so the script has run or never will): the task's version, as a compare-and-set miss answers, or
 * `unavailable` saying nothing was stored when the version did not move. No answer in time: `unavailable`
 * saying it is unknown.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SteplensError } from '../../errors.js';
import type { RedisKeys } from './keys.js';
import { RedisLink } from './link.js';

/** A growth left unanswered waits at most this many command timeouts for Redis to answer again. */
const SETTLE_TIMEOUTS = 3;
/** How long a growth's record (`gid:<id>`: the version it wrote) stays, far past the wait above. */
export const GROWTH_RECORD_MS = 10 * 60_000;

/** Runs `script` (given the growth record's key) for a growth of `task` from version `from`; see the module comment. */
export async function runGrowth(link: RedisLink, keys: RedisKeys, task: string, from: number, script: (r: Redis, record: string) => Promise<unknown>): Promise<unknown> {
  const record = keys.growth(randomUUID());
  try {
    return await link.run('grow', (r) => script(r, record));
  } catch (error) {
    if (!RedisLink.unanswered(error)) throw error;
    const unanswered = (error as Error).message;
    const waitMs = SETTLE_TIMEOUTS * link.commandTimeoutMs;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const seen = await growthSeen(link, keys, task, record);
      if (seen?.wrote) return 'ok';
      if (seen !== undefined && seen.version !== from) return String(seen.version);
      if (seen !== undefined) throw new SteplensError('unavailable', `task ${task}: nothing was stored: ${unanswered}`, { cause: error });
      if (Date.now() >= deadline)
        throw new SteplensError(
          'unavailable',
          `task ${task}: it is not known whether the reference was stored: ${unanswered}, and Redis did not answer within ${waitMs} ms since: read the task's version before sending it again`,
          { cause: error },
        );
      await link.whenReady(deadline - Date.now());
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(0, deadline - Date.now()))));
    }
  }
}

/** Whether a growth's record is in Redis, and the task's version; undefined while Redis does not answer. */
async function growthSeen(link: RedisLink, keys: RedisKeys, task: string, record: string): Promise<{ wrote: boolean; version: number } | undefined> {
  try {
    const wrote = (await link.run('grow_check', (r) => r.get(record))) !== null;
    const version = Number((await link.run('version', (r) => r.hget(keys.tasks, task))) ?? 0);
    return { wrote, version };
  } catch (error) {
    if (error instanceof SteplensError && error.code === 'unavailable') return undefined;
    throw error;
  }
}

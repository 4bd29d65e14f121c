/**
 * Writes Redis left unanswered, settled so that their answer never lies. A command that timed out may still
 * run (Redis was paused or busy); one in flight when the connection dropped ran or never will. Answering
 * `unavailable` ("nothing was stored") would then be false when Redis applied it: a growth answered so
 * while Redis held it (the PTA-growth drill), a session start answered so and then refused as a duplicate
 * when the client sent it again. So such a write waits, a few command timeouts at most, until Redis answers
 * again (it answers a connection's commands in order, so by then the write has run or never will) and
 * looks for its own trace: a growth's record (`gid:<id>`: the version it wrote, kept 10 minutes), a
 * session's exact record under its lease.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SteplensError } from '../../errors.js';
import type { RedisKeys } from './keys.js';
import { RedisLink } from './link.js';

/** A write left unanswered waits at most this many command timeouts for Redis to answer again. */
const SETTLE_TIMEOUTS = 3;
/** How long a growth's record (`gid:<id>`: the version it wrote) stays, far past the wait above. */
export const GROWTH_RECORD_MS = 10 * 60_000;

/**
 * After `error` left a write unanswered: polls `probe` (undefined while Redis does not answer; it may throw
 * a settled answer itself) until it answers, for at most {@link SETTLE_TIMEOUTS} command timeouts; then
 * `unknown` builds the error to throw, given the wait.
 */
export async function settleUnanswered<T>(link: RedisLink, probe: () => Promise<T | undefined>, unknown: (waitMs: number) => Error): Promise<T> {
  const waitMs = SETTLE_TIMEOUTS * link.commandTimeoutMs;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const seen = await probe();
    if (seen !== undefined) return seen;
    if (Date.now() >= deadline) throw unknown(waitMs);
    await link.whenReady(deadline - Date.now());
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(0, deadline - Date.now()))));
  }
}

/** `read`'s answer; undefined while Redis does not answer (`unavailable`). */
export async function whileAnswering<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof SteplensError && error.code === 'unavailable') return undefined;
    throw error;
  }
}

/**
 * Runs one growth (or removal) script (given its record's key) for `task` from version `from`. Unanswered, it is settled
 * by its record: there, it was applied ('ok'); absent, it was not: the task's version, as a compare-and-set
 * miss answers, or `unavailable` saying nothing was stored when the version did not move. No answer in time:
 * `unavailable` saying it is unknown.
 */
export async function runGrowth(
  link: RedisLink,
  keys: RedisKeys,
  task: string,
  from: number,
  script: (r: Redis, record: string) => Promise<unknown>,
  what: { done: string; none: string } = { done: 'the reference was stored', none: 'nothing was stored' },
): Promise<unknown> {
  const record = keys.growth(randomUUID());
  try {
    return await link.run('grow', (r) => script(r, record));
  } catch (error) {
    if (!RedisLink.unanswered(error)) throw error;
    const unanswered = (error as Error).message;
    const seen = await settleUnanswered(
      link,
      () =>
        whileAnswering(async () => {
          const wrote = (await link.run('grow_check', (r) => r.get(record))) !== null;
          const version = Number((await link.run('version', (r) => r.hget(keys.tasks, task))) ?? 0);
          return { wrote, version };
        }),
      (waitMs) =>
        new SteplensError(
          'unavailable',
          `task ${task}: it is not known whether ${what.done}: ${unanswered}, and Redis did not answer within ${waitMs} ms since: read the task's version before sending it again`,
          { cause: error },
        ),
    );
    if (seen.wrote) return 'ok';
    if (seen.version !== from) return String(seen.version);
    throw new SteplensError('unavailable', `task ${task}: ${what.none}: ${unanswered}`, { cause: error });
  }
}

/** A write Redis never runs: its script held by `CLIENT PAUSE ... WRITE`, then its connection killed. */
import type { Redis } from 'ioredis';

/**
 * Waits (10 s at most) until a client's EVALSHA waits in the write pause (a postponed client: flag b), then kills
 * every normal connection but `admin`'s, so Redis drops the script, and lifts the pause. `cmd=evalsha` alone is not
 * enough: it is also the last command of a connection that ran one before, and under load the kill then came
 * while the caller had not sent its script yet.
 */
export async function killPostponedScript(admin: Redis): Promise<void> {
  const postponed = (list: unknown) =>
    String(list)
      .split('\n')
      .some((line) => /\bflags=\S*b/.test(line) && line.includes('cmd=evalsha'));
  const deadline = Date.now() + 10_000;
  while (!postponed(await admin.client('LIST')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
  await admin.call('CLIENT', 'UNPAUSE');
}

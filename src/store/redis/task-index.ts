/**
 * The index of Redis' tasks hash (keys.ts: `st`, `ot:<tenant>`): the shared tasks, and per tenant the keys of its
 * own PTAs, so a tenant's listing and its quota's read take the shared tasks and its own, not every tenant's (T82:
 * tenant B's 50,000 own PTAs made A's `GET /v1/tasks` 202 ms, `HKEYS` of the hash 139 ms of it). The PTA scripts
 * keep it in the same step as the hash (pta-scripts.ts); the tasks a server older than the index wrote are indexed
 * once, at start (`buildTaskIndex`), then `ix` is set and reads take the sets. Until then they take the hash, as
 * before: a replica lists what exists whatever wrote it.
 *
 * The build reads the hash in slices (HSCAN) and indexes each slice in one short script that takes a field only
 * while the hash still holds it: a removal racing the build (it takes the field out of its set) is never undone,
 * and Redis is never held for the whole hash (one Lua pass over 50,000 fields held it 135 ms, T80). No lock: it is
 * idempotent, so replicas starting together may both run it; growths index their task themselves meanwhile.
 */
import { INDEX_TASKS } from './pta-scripts.js';
import type { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';

/** Fields read and indexed per step of the build. */
const SLICE = 200;

/** Indexes the tasks hash unless `ix` says it is done (Redis emptied since: its seeds index themselves, then `ix` is set again). */
export async function buildTaskIndex(link: RedisLink, keys: RedisKeys): Promise<void> {
  if ((await link.run('index', (r) => r.exists(keys.indexed))) === 1) return;
  let cursor = '0';
  do {
    const [next, flat] = await link.run('index', (r) => r.hscan(keys.tasks, cursor, 'COUNT', SLICE));
    const fields = flat.filter((_, i) => i % 2 === 0);
    if (fields.length > 0) await link.run('index', (r) => INDEX_TASKS.run(r, [keys.tasks, ...fields.map((f) => keys.indexOf(f))], fields));
    cursor = next;
  } while (cursor !== '0');
  await link.run('index', (r) => r.set(keys.indexed, '1'));
}

/**
 * The Lua scripts of the reference PTAs (lua-script.ts runs them): growth into a new chain or by a delta,
 * removal, and the epoch. Each is a compare-and-set on the task's version, so replicas never interleave.
 */
import { LuaScript } from './lua-script.js';

/**
 * Compare-and-set growth of a task's PTA into a new chain (the first version, a seed, or a chain grown
 * past its bound): the chain list holds only the whole PTA JSON; the replaced chain (or pre-chain
 * version key) is kept for `keep` ms.
 * KEYS: tasks hash, chains hash, new chain, replaced chain or version key, growth record, removed hash, the task's
 * index set (keys.ts: `indexOf`)[, staged JSON].
 * ARGV: task, expected version (0 = none), new version, PTA JSON (empty when staged), keep (ms), channel,
 * growth record ttl (ms), staged JSON's bytes (0 when not staged), the task's field in the removed hash
 * (keys.ts: `removedField`; an own PTA's is its tenant's, and the task's own field is read too, written so before). A large PTA's JSON is staged first under its own key, in
 * pieces (chain-stage.ts: one 16 MB argument held the sending replica's thread half a second); the
 * script moves it into the chain and deletes the stage.
 * Returns 'ok', 'unstaged' when the staged JSON is missing or not whole (expired), 'removed' when the task
 * has no PTA and one was removed at the new version or later (a new PTA is numbered past it; a seed of a
 * removed task is not imported again), or the task's actual version when it is not the expected one. Every script's first write
 * is one Redis refuses when out of memory (`maxmemory`, `noeviction`): once a script has written, Redis
 * lets its later writes through, so a script that deleted first would grow Redis past its limit.
 */
export const GROW_CHAIN = new LuaScript(
  'grow_chain',
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or '0'
if cur ~= ARGV[2] then return cur end
if cur == '0' then
  local removed = tonumber(redis.call('HGET', KEYS[6], ARGV[1]) or '0')
  if ARGV[9] ~= ARGV[1] then removed = math.max(removed, tonumber(redis.call('HGET', KEYS[6], ARGV[9]) or '0')) end
  if tonumber(ARGV[3]) <= removed then return 'removed' end
end
local json = ARGV[4]
if KEYS[8] then
  json = redis.call('GET', KEYS[8])
  if not json or #json ~= tonumber(ARGV[8]) then return 'unstaged' end
end
-- The first write must be one Redis refuses when out of memory (a DEL is not): then nothing is written.
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('DEL', KEYS[3])
redis.call('RPUSH', KEYS[3], json)
if KEYS[8] then redis.call('DEL', KEYS[8]) end
if ARGV[2] ~= '0' and KEYS[4] ~= KEYS[3] then redis.call('PEXPIRE', KEYS[4], ARGV[5]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SADD', KEYS[7], ARGV[1])
redis.call('SET', KEYS[5], ARGV[3], 'PX', ARGV[7])
redis.call('PUBLISH', ARGV[6], ARGV[3] .. ':' .. ARGV[1])
return 'ok'
`,
);

/**
 * Compare-and-set growth by one reference appended to the task's current chain: only the states it
 * added are stored (a 23 MB PTA took 200 MB of Redis after 15 whole versions; now it takes its
 * chain: the PTA once, and each reference's states).
 * KEYS: tasks hash, chains hash, the chain, growth record, the task's index set (added to again: a task an
 * older server added unindexed is indexed at its next growth). ARGV: task, expected version, new version,
 * states JSON, chain start, channel, growth record ttl (ms). Returns 'ok', the task's actual version when it is not the expected one, or
 * 'broken' when the chain is not the one expected (replaced, or missing versions).
 */
export const GROW_DELTA = new LuaScript(
  'grow_delta',
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or '0'
if cur ~= ARGV[2] then return cur end
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[5] then return 'broken' end
if redis.call('LLEN', KEYS[3]) ~= tonumber(ARGV[2]) - tonumber(ARGV[5]) + 1 then return 'broken' end
redis.call('RPUSH', KEYS[3], ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SADD', KEYS[5], ARGV[1])
redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[7])
redis.call('PUBLISH', ARGV[6], ARGV[3] .. ':' .. ARGV[1])
return 'ok'
`,
);

/**
 * Compare-and-set removal of a task's PTA: the task leaves the tasks and chains hashes, the version it had is
 * recorded in the removed hash (the next PTA is numbered past it), and its chain (or pre-chain version key) is
 * kept for `keep` ms, as a replaced chain is, so sessions pinned to it are still rebuilt. An own PTA's removal
 * raises its tenant's one field to the version (never lowers it) and drops the task's own field, if an older
 * server wrote one (the version removed is past it): removals add no entry per task (T80).
 * KEYS: tasks hash, chains hash, removed hash, the current chain or version key, growth record, the task's index set.
 * ARGV: task, expected version, expected chain start ('' = none), keep (ms), channel, growth record ttl (ms),
 * the task's field in the removed hash.
 * Returns 'ok', '0' when the task has no PTA, 'broken' when its chain is not the one expected, or the task's
 * actual version when it is not the expected one.
 */
export const REMOVE = new LuaScript(
  'remove_pta',
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return '0' end
if cur ~= ARGV[2] then return cur end
if (redis.call('HGET', KEYS[2], ARGV[1]) or '') ~= ARGV[3] then return 'broken' end
-- The first write must be one Redis refuses when out of memory (an HDEL is not): then nothing is written.
local floor = tonumber(redis.call('HGET', KEYS[3], ARGV[7]) or '0')
redis.call('HSET', KEYS[3], ARGV[7], tostring(math.max(floor, tonumber(cur))))
if ARGV[7] ~= ARGV[1] then redis.call('HDEL', KEYS[3], ARGV[1]) end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SREM', KEYS[6], ARGV[1])
redis.call('PEXPIRE', KEYS[4], ARGV[4])
redis.call('SET', KEYS[5], cur, 'PX', ARGV[6])
redis.call('PUBLISH', ARGV[5], '-' .. cur .. ':' .. ARGV[1])
return 'ok'
`,
);

/**
 * Indexes a batch of the tasks hash's fields (task-index.ts builds the index from data older than it): each field
 * still in the hash joins its index set; one removed since it was read does not (its removal took it out or will).
 * KEYS: tasks hash, then each field's index set. ARGV: the fields, in the same order. Returns how many it indexed.
 */
export const INDEX_TASKS = new LuaScript(
  'index_tasks',
  `
local n = 0
for i, task in ipairs(ARGV) do
  if redis.call('HEXISTS', KEYS[1], task) == 1 then
    redis.call('SADD', KEYS[i + 1], task)
    n = n + 1
  end
end
return n
`,
);

/** Sets the epoch unless one is set (another replica seeded first); returns the one Redis holds. KEYS: epoch. ARGV: new id. */
export const SET_EPOCH = new LuaScript(
  'set_epoch',
  `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`,
);

/**
 * The Lua scripts that make each Redis write atomic: a check and its write run
 * as one step on the server, so replicas never interleave between them.
 * Scripts are sent by SHA1 and loaded on `NOSCRIPT` (after a Redis restart).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export class LuaScript {
  readonly sha: string;
  constructor(
    readonly name: string,
    readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /** Runs the script with `keys` and `args`; loads it once if Redis does not know it. */
  async run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number | Buffer>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

/**
 * Compare-and-set growth of a task's PTA into a new chain (the first version, a seed, or a chain grown
 * past its bound): the chain list holds only the whole PTA JSON; the replaced chain (or pre-chain
 * version key) is kept for `keep` ms.
 * KEYS: tasks hash, chains hash, new chain, replaced chain or version key, growth record[, staged JSON].
 * ARGV: task, expected version (0 = none), new version, PTA JSON (empty when staged), keep (ms), channel,
 * growth record ttl (ms)[, staged JSON's bytes]. A large PTA's JSON is staged first under its own key, in
 * pieces (chain-stage.ts: one 16 MB argument held the sending replica's thread half a second); the
 * script moves it into the chain and deletes the stage.
 * Returns 'ok', 'unstaged' when the staged JSON is missing or not whole (expired), or the task's actual
 * version when it is not the expected one. Every script's first write
 * is one Redis refuses when out of memory (`maxmemory`, `noeviction`): once a script has written, Redis
 * lets its later writes through, so a script that deleted first would grow Redis past its limit.
 */
export const GROW_CHAIN = new LuaScript(
  'grow_chain',
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or '0'
if cur ~= ARGV[2] then return cur end
local json = ARGV[4]
if KEYS[6] then
  json = redis.call('GET', KEYS[6])
  if not json or #json ~= tonumber(ARGV[8]) then return 'unstaged' end
end
-- The first write must be one Redis refuses when out of memory (a DEL is not): then nothing is written.
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('DEL', KEYS[3])
redis.call('RPUSH', KEYS[3], json)
if KEYS[6] then redis.call('DEL', KEYS[6]) end
if ARGV[2] ~= '0' and KEYS[4] ~= KEYS[3] then redis.call('PEXPIRE', KEYS[4], ARGV[5]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SET', KEYS[5], ARGV[3], 'PX', ARGV[7])
redis.call('PUBLISH', ARGV[6], ARGV[3] .. ':' .. ARGV[1])
return 'ok'
`,
);

/**
 * Compare-and-set growth by one reference appended to the task's current chain: only the states it
 * added are stored (a 23 MB PTA took 200 MB of Redis after 15 whole versions; now it takes its
 * chain: the PTA once, and each reference's states).
 * KEYS: tasks hash, chains hash, the chain, growth record. ARGV: task, expected version, new version,
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
redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[7])
redis.call('PUBLISH', ARGV[6], ARGV[3] .. ':' .. ARGV[1])
return 'ok'
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

/** KEYS: meta, lease, steps. ARGV: record JSON, owner, lease ms, ttl ms. 1 = opened, 0 = the id is taken. */
export const OPEN = new LuaScript(
  'open',
  `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'rec', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('DEL', KEYS[3])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
`,
);

/**
 * The fence every session write passes: the session exists, is not ended, and
 * its lease is ours or free (then it becomes ours). Sets `fail` when not.
 */
const FENCE = `
local fail
if redis.call('EXISTS', KEYS[1]) == 0 then fail = 'gone'
else
  local owner = redis.call('GET', KEYS[2])
  if owner and owner ~= ARGV[1] then fail = 'lost'
  elseif redis.call('HEXISTS', KEYS[1], 'final') == 1 then fail = 'ended' end
end
`;

/** Refreshes the lease and the session's TTL (and its pinned PTA's, when that one is on its way out). */
const TOUCH = `
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
if KEYS[4] then
  local left = redis.call('PTTL', KEYS[4])
  if left > 0 and left < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[4], ARGV[3]) end
end
`;

/**
 * Appends accepted steps, of one or more sessions, in order; each is fenced on
 * its own. ARGV: owner, lease ms, ttl ms, then per step: its key count (3, or 4
 * with the pinned PTA), seq, the step message JSON. KEYS: per step meta, lease, steps,
 * [pinned PTA]. Returns one of 'ok', 'gone', 'lost', 'ended', 'gap' per step.
 */
export const APPEND = new LuaScript(
  'append',
  `
local out = {}
local leaseMs, ttlMs = tonumber(ARGV[2]), tonumber(ARGV[3])
local k, a = 1, 4
while a <= #ARGV do
  local n, seq, payload = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), ARGV[a + 2]
  local meta, lease, steps = KEYS[k], KEYS[k + 1], KEYS[k + 2]
  local r = 'ok'
  if redis.call('EXISTS', meta) == 0 then r = 'gone'
  else
    local owner = redis.call('GET', lease)
    if owner and owner ~= ARGV[1] then r = 'lost'
    elseif redis.call('HEXISTS', meta, 'final') == 1 then r = 'ended'
    elseif redis.call('LLEN', steps) ~= seq then r = 'gap' end
  end
  if r == 'ok' then
    redis.call('RPUSH', steps, payload)
    -- Lease and TTLs are written again only once they ran down by a tenth: writes cost (append-only file), reads hardly.
    if redis.call('PTTL', lease) < leaseMs * 0.9 then redis.call('SET', lease, ARGV[1], 'PX', ARGV[2]) end
    local metaLeft = redis.call('PTTL', meta)
    if metaLeft < ttlMs * 0.9 then
      redis.call('PEXPIRE', meta, ARGV[3])
      metaLeft = ttlMs
    end
    -- The pinned chain may have less time left than the session even when the session's was not due (a
    -- resume refreshed it, or the chain was replaced since): it must outlive the session.
    if n == 4 then
      local left = redis.call('PTTL', KEYS[k + 3])
      if left > 0 and left < metaLeft then redis.call('PEXPIRE', KEYS[k + 3], ARGV[3]) end
    end
    if redis.call('PTTL', steps) < ttlMs * 0.9 then redis.call('PEXPIRE', steps, ARGV[3]) end
  end
  out[#out + 1] = r
  k, a = k + n, a + 3
end
return out
`,
);

/** Records the outcome. KEYS: meta, lease, steps, [pinned PTA]. ARGV: owner, lease ms, ttl ms, '1' or '0'. */
export const OUTCOME = new LuaScript(
  'outcome',
  `${FENCE}
if fail then return fail end
redis.call('HSET', KEYS[1], 'passed', ARGV[4])
${TOUCH}
return 'ok'
`,
);

/**
 * Records the final and frees the lease; the session stays readable for `keep` ms, and so does its pinned PTA
 * (a resume in that window rebuilds the session to send its final again).
 * KEYS: meta, lease, steps, [pinned PTA]. ARGV: owner, final JSON, keep ms.
 */
export const FINISH = new LuaScript(
  'finish',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local owner = redis.call('GET', KEYS[2])
if owner and owner ~= ARGV[1] then return 'lost' end
if redis.call('HEXISTS', KEYS[1], 'final') == 1 then return 'ended' end
redis.call('HSET', KEYS[1], 'final', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
if KEYS[4] then
  local left = redis.call('PTTL', KEYS[4])
  if left > 0 and left < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[4], ARGV[3]) end
end
redis.call('DEL', KEYS[2])
return 'ok'
`,
);

/**
 * Takes a session over (a resume): the lease becomes ours, whoever held it; its TTLs are refreshed, its
 * pinned PTA's too when that one would expire first (else the session outlives the version it needs).
 * KEYS: meta, lease, steps, [pinned PTA]. ARGV: owner, lease ms, ttl ms.
 * Returns false when the session is unknown, else {previous owner or '', steps held, ended 1/0}.
 */
export const CLAIM = new LuaScript(
  'claim',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local prev = redis.call('GET', KEYS[2]) or ''
local ended = redis.call('HEXISTS', KEYS[1], 'final')
if ended == 0 then
${TOUCH}
end
return {prev, redis.call('LLEN', KEYS[3]), ended}
`,
);

/**
 * Renews leases still ours (or lapsed while the session is still open).
 * KEYS: lease, meta, lease, meta, ... ARGV: owner, lease ms.
 * Returns the 1-based pair indices of sessions held by another replica, ended or gone.
 */
export const RENEW = new LuaScript(
  'renew',
  `
local lost = {}
for i = 1, #KEYS, 2 do
  local owner = redis.call('GET', KEYS[i])
  local open = redis.call('EXISTS', KEYS[i + 1]) == 1 and redis.call('HEXISTS', KEYS[i + 1], 'final') == 0
  if open and (owner == ARGV[1] or not owner) then redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
  else table.insert(lost, (i + 1) / 2) end
end
return lost
`,
);

/** Releases leases still ours (graceful shutdown). KEYS: leases. ARGV: owner. */
export const RELEASE = new LuaScript(
  'release',
  `
local n = 0
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key); n = n + 1 end
end
return n
`,
);

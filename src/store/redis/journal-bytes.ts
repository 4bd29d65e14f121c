/**
 * How many bytes each tenant's session journals hold in Redis (every session's record and final, and its step
 * messages), kept by the session scripts (journal-scripts.ts) in the same atomic step as the writes they count, so every
 * replica sees one figure and `journalBytesPerTenant` holds across them. Records and finals count too (T44): a
 * stream starting and ending sessions as fast as it could grew Redis by ~4.4 KB a session, none of it counted.
 *
 * Per tenant a hash `jb:<tenant>` (per session its `sm:` key -> the bytes of its record and final, its `sl:`
 * key -> the bytes of its steps list; and `total`) and a sorted set `jx:<tenant>` (the same keys, scored by the
 * ms they expire). The two keys of a session expire apart, so each is counted on its own; below, a "list" is
 * either. A list that expires runs no script, so its count cannot be taken off then; instead every script
 * that sets a list's TTL scores it with that same time, and whoever reads the total first drops the counts
 * scored in the past (oldest first, each once: O(1) per step amortised). Both keys live at least as long as
 * the longest list they count, so a tenant that leaves leaves nothing behind; the fields and `total` are one
 * key, so they vanish together (FLUSHALL, a restart without persistence: the lists go too), and `total` never
 * drops below 0. A finished session's record, final and steps are kept for the resume window and counted until
 * they go. Without a budget (`journalBytesPerTenant` 0) the open and append scripts count nothing: these keys
 * are not written (a final is counted only with its record).
 *
 * Lua functions prepended to the scripts that use them (they need `now`, in Redis' own clock: the one its
 * key expiry uses). Each writes only after its reads, and its first write is one Redis refuses when out of
 * memory (HSET, HINCRBY, ZADD), as pta-scripts.ts (GROW_CHAIN) requires of a script's first write.
 */
export const JOURNAL_BYTES_LUA = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The tenant's total now: the counts of lists that expired are dropped first.
local function tenantBytes(counts, expiries, now)
  local total = tonumber(redis.call('HGET', counts, 'total')) or 0
  repeat
    -- Strictly before now: in the ms a list's deadline names, Redis still holds it (gone once the clock is past).
    local gone = redis.call('ZRANGEBYSCORE', expiries, '-inf', string.format('(%d', now), 'LIMIT', 0, 256)
    if #gone > 0 then
      for _, v in ipairs(redis.call('HMGET', counts, unpack(gone))) do total = total - (tonumber(v) or 0) end
      total = math.max(total, 0)
      redis.call('HSET', counts, 'total', total)
      redis.call('HDEL', counts, unpack(gone))
      redis.call('ZREM', expiries, unpack(gone))
    end
  until #gone < 256
  -- No list left to count (all expired, or the set lost by hand): no count either, so none outlives its lists.
  -- Deleted only when there: a DEL is a write Redis lets through when out of memory, and a script's first write
  -- decides (journal-scripts.ts); a tenant's first start would have opened its session in a full Redis.
  if redis.call('EXISTS', expiries) == 0 then
    if redis.call('EXISTS', counts) == 1 then redis.call('DEL', counts) end
    total = 0
  end
  return total
end

-- The list 'steps' was just given a TTL of (at most) 'left' ms: its count goes when the list does, and the
-- counting keys live at least as long. 'counted': only when its count is kept already (a write that refreshes
-- TTLs, not one that counts). The deadline is the list's own, read back: its PTTL first, the clock after, so
-- the score is never before the list's expiry (Redis 7 freezes the clock a script's expiries use at its
-- start; Redis 6 does not, and a TIME taken earlier in the script would score it early).
local function countExpires(counts, expiries, steps, left, counted)
  if counted and not redis.call('ZSCORE', expiries, steps) then return end
  local listLeft = redis.call('PTTL', steps)
  if listLeft < 0 then listLeft = left end
  redis.call('ZADD', expiries, nowMs() + listLeft, steps)
  if redis.call('PTTL', counts) < left then redis.call('PEXPIRE', counts, left) end
  if redis.call('PTTL', expiries) < left then redis.call('PEXPIRE', expiries, left) end
end

-- The list 'steps' was deleted: its count goes now.
local function forgetCount(counts, expiries, steps)
  local mine = tonumber(redis.call('HGET', counts, steps))
  if not mine then return end
  redis.call('HSET', counts, 'total', math.max((tonumber(redis.call('HGET', counts, 'total')) or 0) - mine, 0))
  redis.call('HDEL', counts, steps)
  redis.call('ZREM', expiries, steps)
end
`;

/**
 * The Lua scripts of the session journal (lua-script.ts runs them): open, append, outcome, finish, claim,
 * lease renewal and release, each fenced on the session and counted against its tenant's journal budget
 * (journal-bytes.ts).
 */
import { JOURNAL_BYTES_LUA } from './journal-bytes.js';
import { LuaScript } from './lua-script.js';

/**
 * KEYS: meta, lease, steps, tenant's counts, expiries (journal-bytes.ts). ARGV: record JSON, owner, lease ms, ttl ms,
 * budget (bytes per tenant, 0 = none: nothing is counted). Returns {result, the tenant's bytes after it}: 'ok',
 * 'taken' (the id is), or 'over' when the record would take its tenant past the budget (nothing written). With a
 * budget the record is counted (its meta key) until it goes, as a steps list is. A steps list (or a record's count)
 * left over from an expired session of the same id goes, with its count: it is not in the way of this one.
 */
export const OPEN = new LuaScript(
  'open',
  `${JOURNAL_BYTES_LUA}
if redis.call('EXISTS', KEYS[1]) == 1 then return {'taken', 0} end
local budget, total = tonumber(ARGV[5]), 0
if budget > 0 then
  total = tenantBytes(KEYS[4], KEYS[5], nowMs())
  local stale = (tonumber(redis.call('HGET', KEYS[4], KEYS[3])) or 0) + (tonumber(redis.call('HGET', KEYS[4], KEYS[1])) or 0)
  if total - stale + #ARGV[1] > budget then return {'over', total} end
end
redis.call('HSET', KEYS[1], 'rec', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('DEL', KEYS[3])
forgetCount(KEYS[4], KEYS[5], KEYS[3])
forgetCount(KEYS[4], KEYS[5], KEYS[1])
if budget > 0 then
  redis.call('HSET', KEYS[4], KEYS[1], #ARGV[1])
  total = redis.call('HINCRBY', KEYS[4], 'total', #ARGV[1])
  countExpires(KEYS[4], KEYS[5], KEYS[1], tonumber(ARGV[4]), false)
end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return {'ok', total}
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

/** Refreshes the lease and the session's TTL (its record's and steps' counts' too; and its pinned PTA's, when that one is on its way out). */
const TOUCH = `
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
countExpires(KEYS[4], KEYS[5], KEYS[1], tonumber(ARGV[3]), true)
countExpires(KEYS[4], KEYS[5], KEYS[3], tonumber(ARGV[3]), true)
if KEYS[6] then
  local left = redis.call('PTTL', KEYS[6])
  if left > 0 and left < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[6], ARGV[3]) end
end
`;

/**
 * Appends accepted steps, of one or more sessions, in order; each is fenced on
 * its own, and counted against its tenant's journal budget (journal-bytes.ts).
 * ARGV: owner, lease ms, ttl ms, budget (bytes per tenant, 0 = none: nothing is counted), then per step: its key count (5, or 6
 * with the pinned PTA), seq, the step message JSON. KEYS: per step meta, lease, steps, tenant's counts,
 * expiries, [pinned PTA]. Returns per step {result, the tenant's bytes after it}: result one of 'ok', 'gone',
 * 'lost', 'ended', 'gap', or 'over' when it would take its tenant past the budget (nothing written).
 */
export const APPEND = new LuaScript(
  'append',
  `${JOURNAL_BYTES_LUA}
local out = {}
local leaseMs, ttlMs, budget = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local now = nowMs()
local totals = {}
local k, a = 1, 5
while a <= #ARGV do
  local n, seq, payload = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), ARGV[a + 2]
  local meta, lease, steps, counts, expiries = KEYS[k], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4]
  local r = 'ok'
  if redis.call('EXISTS', meta) == 0 then r = 'gone'
  else
    local owner = redis.call('GET', lease)
    if owner and owner ~= ARGV[1] then r = 'lost'
    elseif redis.call('HEXISTS', meta, 'final') == 1 then r = 'ended'
    elseif redis.call('LLEN', steps) ~= seq then r = 'gap' end
  end
  -- Without a budget (0) nothing is counted: no read of the tenant's total, no count kept (total answers 0).
  local total = 0
  if budget > 0 then total = totals[counts] or tenantBytes(counts, expiries, now) end
  if r == 'ok' and budget > 0 and total + #payload > budget then r = 'over' end
  if r == 'ok' then
    redis.call('RPUSH', steps, payload)
    -- A list counted for the first time (a new session, or one journaled before counts) gets its expiry below.
    local first = false
    if budget > 0 then
      first = redis.call('HINCRBY', counts, steps, #payload) == #payload
      total = redis.call('HINCRBY', counts, 'total', #payload)
    end
    -- Lease and TTLs are written again only once they ran down by a tenth: writes cost (append-only file), reads hardly.
    if redis.call('PTTL', lease) < leaseMs * 0.9 then redis.call('SET', lease, ARGV[1], 'PX', ARGV[2]) end
    local metaLeft = redis.call('PTTL', meta)
    if metaLeft < ttlMs * 0.9 then
      redis.call('PEXPIRE', meta, ARGV[3])
      countExpires(counts, expiries, meta, ttlMs, true)
      metaLeft = ttlMs
    end
    -- The pinned chain may have less time left than the session even when the session's was not due (a
    -- resume refreshed it, or the chain was replaced since): it must outlive the session.
    if n == 6 then
      local left = redis.call('PTTL', KEYS[k + 5])
      if left > 0 and left < metaLeft then redis.call('PEXPIRE', KEYS[k + 5], ARGV[3]) end
    end
    local stepsLeft = redis.call('PTTL', steps)
    if stepsLeft < ttlMs * 0.9 then
      redis.call('PEXPIRE', steps, ARGV[3])
      stepsLeft, first = ttlMs, true
    end
    -- Without a budget only a list counted already (by a replica with one) has its counted expiry moved.
    if first then countExpires(counts, expiries, steps, stepsLeft, budget == 0) end
  end
  totals[counts] = total
  out[#out + 1] = {r, total}
  k, a = k + n, a + 3
end
return out
`,
);

/** A tenant's journal bytes now (journal-bytes.ts): counts of expired lists are dropped first. KEYS: counts, expiries. */
export const JOURNAL_BYTES = new LuaScript(
  'journal_bytes',
  `${JOURNAL_BYTES_LUA}
return tenantBytes(KEYS[1], KEYS[2], nowMs())
`,
);

/** Records the outcome. KEYS: meta, lease, steps, counts, expiries, [pinned PTA]. ARGV: owner, lease ms, ttl ms, '1' or '0'. */
export const OUTCOME = new LuaScript(
  'outcome',
  `${JOURNAL_BYTES_LUA}${FENCE}
if fail then return fail end
redis.call('HSET', KEYS[1], 'passed', ARGV[4])
${TOUCH}
return 'ok'
`,
);

/**
 * Records the final and frees the lease; the session stays readable for `keep` ms, and so does its pinned PTA
 * (a resume in that window rebuilds the session to send its final again); its record, final and steps stay
 * counted as long. The final is counted with its record (when that is: opened with a budget) and never refused:
 * refusing it would lose the session's end; a tenant it takes past the budget gets its next start or step refused.
 * KEYS: meta, lease, steps, counts, expiries, [pinned PTA]. ARGV: owner, final JSON, keep ms.
 * Returns 'gone', 'lost', 'ended', or {'ok'[, the tenant's bytes after it, when counted]}.
 */
export const FINISH = new LuaScript(
  'finish',
  `${JOURNAL_BYTES_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local owner = redis.call('GET', KEYS[2])
if owner and owner ~= ARGV[1] then return 'lost' end
if redis.call('HEXISTS', KEYS[1], 'final') == 1 then return 'ended' end
redis.call('HSET', KEYS[1], 'final', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
countExpires(KEYS[4], KEYS[5], KEYS[3], tonumber(ARGV[3]), true)
local out = {'ok'}
if redis.call('HEXISTS', KEYS[4], KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[4], KEYS[1], #ARGV[2])
  redis.call('HINCRBY', KEYS[4], 'total', #ARGV[2])
  countExpires(KEYS[4], KEYS[5], KEYS[1], tonumber(ARGV[3]), true)
  out[2] = tenantBytes(KEYS[4], KEYS[5], nowMs())
end
if KEYS[6] then
  local left = redis.call('PTTL', KEYS[6])
  if left > 0 and left < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[6], ARGV[3]) end
end
redis.call('DEL', KEYS[2])
return out
`,
);

/**
 * Takes a session over (a resume): the lease becomes ours, whoever held it; its TTLs are refreshed, its
 * pinned PTA's too when that one would expire first (else the session outlives the version it needs).
 * KEYS: meta, lease, steps, counts, expiries, [pinned PTA]. ARGV: owner, lease ms, ttl ms.
 * Returns false when the session is unknown, else {previous owner or '', steps held, ended 1/0}.
 */
export const CLAIM = new LuaScript(
  'claim',
  `${JOURNAL_BYTES_LUA}
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

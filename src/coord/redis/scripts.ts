/**
 * The Lua scripts the Redis coordination runs. Each runs atomically on the server; times come from the
 * server's `TIME`, so the nodes' clocks never matter. Numbers handed to `redis.call` are stored by Redis with
 * `%.17g` (exact); fractions going back are formatted by `num` the same way, since Redis truncates a Lua number
 * reply to an integer and Lua's own `tostring` keeps 14 digits.
 */

export interface Script {
  name: string
  source: string
  sha: string
}

function script(name: string, body: string): Script {
  const source = CLOCK + body
  return { name, source, sha: new Bun.CryptoHasher('sha1').update(source).digest('hex') }
}

// TIME before a write needs effects replication: the default since Redis 5, which is the least we support
const CLOCK = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local nowMs = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function num(x) return string.format('%.17g', x) end
local function refill(level, at, capacity)
  if not level then return capacity end
  return math.min(capacity, tonumber(level) + (now - tonumber(at)) * capacity / 60)
end
`

/**
 * KEYS: per scope, its bucket hash (r, rt: RPM level and time; t, tt: TPM) and its lease set (lease id → expiry
 * in ms). ARGV: estimate, lease id, lease TTL in ms, then rpm, tpm, concurrency per scope.
 * Returns 0 when admitted, else {scope index, kind, in flight, retry after in seconds}.
 */
export const ACQUIRE = script(
  'acquire',
  `
local estimate, lease, ttl = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local n = #KEYS / 2
local levels = {}
for i = 1, n do
  local bucket, held = KEYS[2 * i - 1], KEYS[2 * i]
  local rpm, tpm, conc = tonumber(ARGV[3 * i + 1]), tonumber(ARGV[3 * i + 2]), tonumber(ARGV[3 * i + 3])
  local b = redis.call('HMGET', bucket, 'r', 'rt', 't', 'tt')
  local r, t = 0, 0
  if rpm > 0 then r = refill(b[1], b[2], rpm) end
  if tpm > 0 then t = refill(b[3], b[4], tpm) end
  if conc > 0 then
    local inflight = redis.call('ZCARD', held)
    -- lapsed leases (their node died) only matter when they would refuse
    if inflight >= conc then
      redis.call('ZREMRANGEBYSCORE', held, '-inf', nowMs)
      inflight = redis.call('ZCARD', held)
      if inflight >= conc then return {i, 'concurrency', inflight, '1'} end
    end
  end
  if rpm > 0 and r < 1 then return {i, 'rpm', 0, num((1 - r) * 60 / rpm)} end
  -- a request larger than the whole TPM budget passes only when the bucket is full
  local need = math.min(estimate, tpm)
  if tpm > 0 and t < need then return {i, 'tpm', 0, num((need - t) * 60 / tpm)} end
  levels[i] = {r, t}
end
for i = 1, n do
  local bucket, held = KEYS[2 * i - 1], KEYS[2 * i]
  local rpm, tpm = tonumber(ARGV[3 * i + 1]), tonumber(ARGV[3 * i + 2])
  local r, t = levels[i][1] - 1, levels[i][2] - estimate
  local full = 0
  if rpm > 0 and tpm > 0 then
    redis.call('HSET', bucket, 'r', r, 'rt', now, 't', t, 'tt', now)
    full = math.max((rpm - r) / rpm, (tpm - t) / tpm) * 60
  elseif rpm > 0 then
    redis.call('HSET', bucket, 'r', r, 'rt', now)
    full = (rpm - r) * 60 / rpm
  elseif tpm > 0 then
    redis.call('HSET', bucket, 't', t, 'tt', now)
    full = (tpm - t) * 60 / tpm
  end
  -- a bucket that would be full again is the same as no bucket: let it go then
  if full > 0 then redis.call('PEXPIRE', bucket, math.ceil(full * 1000) + 1000) end
  redis.call('ZADD', held, nowMs + ttl, lease)
  redis.call('PEXPIRE', held, ttl + 1000)
end
return 0
`,
)

/** KEYS as ACQUIRE's. ARGV: lease id, estimate, tokens used, then the TPM limit per scope. */
export const RELEASE = script(
  'release',
  `
local lease, estimate, used = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 1, #KEYS / 2 do
  local bucket, held = KEYS[2 * i - 1], KEYS[2 * i]
  redis.call('ZREM', held, lease)
  local tpm = tonumber(ARGV[3 + i])
  if tpm > 0 then
    local b = redis.call('HMGET', bucket, 't', 'tt')
    local t = math.min(tpm, refill(b[1], b[2], tpm) + estimate - used)
    redis.call('HSET', bucket, 't', t, 'tt', now)
    -- a refund only shortens the time to full; a new bucket, or one charged beyond its estimate, needs longer
    if not b[1] or used > estimate then
      local keep = math.ceil((tpm - t) * 60 / tpm * 1000) + 1000
      if redis.call('PTTL', bucket) < keep then redis.call('PEXPIRE', bucket, keep) end
    end
  end
end
return 0
`,
)

/** KEYS: lease sets; ARGV: TTL in ms, then the lease id held in each set. Lapsed leases are not revived. */
export const RENEW = script(
  'renew',
  `
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  if redis.call('ZADD', KEYS[i], 'XX', 'CH', nowMs + ttl, ARGV[i + 1]) == 1 then redis.call('PEXPIRE', KEYS[i], ttl + 1000) end
end
return 0
`,
)

/** KEYS: fixed windows; ARGV: limit, window in ms. Returns -1 when counted, else the ms left. */
export const WINDOW_HIT = script(
  'window-hit',
  `
local limit = tonumber(ARGV[1])
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count > 0 and count >= limit then return redis.call('PTTL', KEYS[i]) end
end
for i = 1, #KEYS do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return -1
`,
)

// the wait of login-backoff.ts: none below `free` attempts, then 1 s doubling up to the ceiling
const LOGIN_WAIT = `
local function wait(count, free, maxMs)
  if count < free then return 0 end
  return math.min(maxMs, 1000 * 2 ^ math.min(count - free, 40))
end
`

/**
 * KEYS: login counters (hashes: n attempts, t the last one in ms). ARGV: the longest wait in ms, the quiet time
 * before a counter is forgotten in ms, then each key's free attempts. Returns {0, ms to wait} when refused
 * (nothing counted), else {1, now in ms, each key's previous t}.
 */
export const LOGIN_ATTEMPT = script(
  'login-attempt',
  LOGIN_WAIT +
    `
local maxMs, forgetMs = tonumber(ARGV[1]), tonumber(ARGV[2])
local longest = 0
for i = 1, #KEYS do
  local c = redis.call('HMGET', KEYS[i], 'n', 't')
  if c[1] then
    local left = tonumber(c[2]) + wait(tonumber(c[1]), tonumber(ARGV[i + 2]), maxMs) - nowMs
    if left > longest then longest = left end
  end
end
if longest > 0 then return {0, math.ceil(longest)} end
local reply = {1, nowMs}
for i = 1, #KEYS do
  local before = redis.call('HGET', KEYS[i], 't') or '0'
  local n = redis.call('HINCRBY', KEYS[i], 'n', 1)
  redis.call('HSET', KEYS[i], 't', nowMs)
  redis.call('PEXPIRE', KEYS[i], math.ceil(wait(n, tonumber(ARGV[i + 2]), maxMs) + forgetMs))
  reply[i + 2] = tonumber(before)
end
return reply
`,
)

/**
 * KEYS: the attempt's counters, the account's first. ARGV: when the attempt was counted (ms), then each other
 * key's previous t. The account's counter starts over; the others get the attempt back, and the wait it started
 * is undone unless a later attempt started its own.
 */
export const LOGIN_SUCCEEDED = script(
  'login-succeeded',
  `
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    if redis.call('HINCRBY', KEYS[i], 'n', -1) <= 0 then
      redis.call('DEL', KEYS[i])
    elseif redis.call('HGET', KEYS[i], 't') == ARGV[1] then
      redis.call('HSET', KEYS[i], 't', ARGV[i])
    end
  end
end
return 0
`,
)

/** KEYS[1]: the topic's version; ARGV: channel, the message after the version. Returns the new version. */
export const PUBLISH = script(
  'publish',
  `
local version = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], version .. '|' .. ARGV[2])
return version
`,
)

/** KEYS[1]: a job lease; ARGV: owner, TTL in ms. Extends it, or takes it back if it lapsed and nobody took it. */
export const LEASE_RENEW = script(
  'lease-renew',
  `
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not owner then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
`,
)

export const LEASE_RELEASE = script(
  'lease-release',
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
)

/** KEYS[1]: the node set (id → expiry in ms); ARGV: node id, TTL in ms. */
export const NODE_BEAT = script('node-beat', `return redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[1])`)

export const NODE_LIST = script(
  'node-list',
  `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
return redis.call('ZRANGE', KEYS[1], 0, -1)
`,
)

/** KEYS[1]: the hash of failure counts by channel id; ARGV: the channel other nodes listen on, the channel id. */
export const FAILURE = script(
  'failure',
  `
local count = redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
redis.call('PUBLISH', ARGV[1], ARGV[2])
return count
`,
)

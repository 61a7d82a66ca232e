import type { RedisOptions } from 'bun'
import { randomUUID } from 'node:crypto'
import { runExclusive } from './lease-handle'
import { createLocalCoordination } from './local'
import { createRedisAffinity } from './redis/affinity'
import { createRedisResponseHomes } from './redis/response-homes'
import { createRedisFailures } from './redis/failures'
import { createRedisJobs } from './redis/jobs'
import { createRedisLimits } from './redis/limits'
import { createRedisLink } from './redis/link'
import { LOGIN_ATTEMPT, LOGIN_SUCCEEDED, WINDOW_HIT } from './redis/scripts'
import { createRedisTopics } from './redis/topics'
import { repeat } from './timers'
import { DEFAULTS, type CoordOptions, type Coordination } from './types'

export interface RedisCoordOptions extends CoordOptions {
  /** `redis://[user:password@]host:port/db` or `rediss://…` (TLS) */
  url: string
  /** TLS options for rediss:// (a private CA, a server name) */
  tls?: RedisOptions['tls']
  /** prefix of every key and channel, so several gateways may share one Redis (default `tollgate:`) */
  prefix?: string
  /** a command slower than this counts as Redis gone (default 500 ms) */
  timeoutMs?: number
}

/**
 * Coordination through Redis, on Bun's built-in client: limits, login windows, topics, leases, nodes and channel
 * failures shared by every node that uses the same Redis and prefix. When Redis does not answer, each facility
 * answers from this node's own state (a private local coordination), `health()` says degraded, and the link is
 * retried every `versionCheckMs`; once it answers, the shared state is used again and every subscribed topic is
 * reloaded. Resolves after the first connection attempt, connected or not.
 */
export async function createRedisCoordination(options: RedisCoordOptions): Promise<Coordination> {
  const prefix = options.prefix ?? 'tollgate:'
  const instanceId = randomUUID()
  const fallback = createLocalCoordination({ permitTtlMs: options.permitTtlMs, nodeTtlMs: options.nodeTtlMs })
  const nodeTtl = options.nodeTtlMs ?? DEFAULTS.nodeTtlMs
  let failuresChannel = ''
  const link = createRedisLink({
    url: options.url,
    tls: options.tls,
    timeoutMs: options.timeoutMs ?? 500,
    onMessage: (channel, message) => (channel === failuresChannel ? failures.announced(message) : topics.onMessage(channel, message)),
    onUp: async () => {
      await failures.load()
      await topics.recovered()
    },
  })
  const limits = createRedisLimits(link, fallback, prefix, instanceId, options.permitTtlMs ?? DEFAULTS.permitTtlMs)
  const topics = createRedisTopics(link, prefix, instanceId)
  const jobs = createRedisJobs(link, fallback, prefix, instanceId)
  const failures = createRedisFailures(link, fallback, prefix)
  failuresChannel = failures.channel
  await link.listen(failuresChannel)
  await link.reconnect()

  const stopTicking = repeat(options.versionCheckMs ?? DEFAULTS.versionCheckMs, () => (link.up ? topics.check() : link.reconnect()))
  const loginKeys = (keys: string[]) => keys.map((k) => `${prefix}login:${k}`)

  const self: Coordination = {
    instanceId,
    affinity: createRedisAffinity(link, fallback.affinity, prefix),
    responses: createRedisResponseHomes(link, fallback.responses, prefix),
    acquire: limits.acquire,
    async loginAttempt(keys, backoff) {
      if (link.up) {
        const args = [backoff.maxSeconds * 1000, backoff.forgetSeconds * 1000, ...keys.map((k) => k.free)]
        const reply = await link.eval(LOGIN_ATTEMPT, loginKeys(keys.map((k) => k.key)), args).catch(() => undefined)
        if (Array.isArray(reply)) {
          const [admitted, at, ...previous] = reply.map(Number) as [number, number, ...number[]]
          return admitted ? { ok: true, ticket: { keys: keys.map((k) => k.key), at, previous } } : { ok: false, retryAfter: at / 1000 }
        }
      }
      return fallback.loginAttempt(keys, backoff)
    },
    async loginSucceeded(ticket) {
      await fallback.loginSucceeded(ticket)
      if (link.up) await link.eval(LOGIN_SUCCEEDED, loginKeys(ticket.keys), [ticket.at, ...ticket.previous.slice(1)]).catch(() => {})
    },
    async windowHit(keys, limit, windowSeconds) {
      if (link.up) {
        const reply = await link.eval(WINDOW_HIT, keys.map((k) => `${prefix}win:${k}`), [limit, Math.round(windowSeconds * 1000)]).catch(() => undefined)
        if (reply !== undefined) return Number(reply) < 0 ? { ok: true } : { ok: false, retryAfter: Number(reply) / 1000 }
      }
      return fallback.windowHit(keys, limit, windowSeconds)
    },
    publish: topics.publish,
    subscribe: topics.subscribe,
    tryAcquireLease: jobs.tryAcquireLease,
    runExclusive: (name, ttlMs, fn) => runExclusive(jobs.tryAcquireLease, name, ttlMs, fn),
    register: (nodeId, ttlMs = nodeTtl) => jobs.register(nodeId, ttlMs),
    liveNodes: jobs.liveNodes,
    channelFailure: failures.failure,
    channelSuccess: failures.success,
    channelFailures: failures.count,
    allChannelFailures: failures.all,
    health() {
      const state = link.state()
      return { backend: 'redis', shared: state.up, degraded: !state.up, since: state.since, ...(state.error ? { error: state.error } : {}) }
    },
    async close(mode = 'graceful') {
      stopTicking()
      limits.stop()
      await jobs.close(mode)
      await fallback.close(mode)
      link.close()
    },
  }
  return self
}

import type { ResponseHome, ResponseHomes } from '../response-home-types'
import type { RedisLink } from './link'

/**
 * Response homes in Redis, one string per response (`<prefix>resp:<id>` → `channel|keyFp|user|model`, with its
 * TTL), so any node routes a retrieve to the account that holds the response. Each write also goes to the node's
 * own bounded map, which answers while Redis is away.
 */
export function createRedisResponseHomes(link: RedisLink, fallback: ResponseHomes, prefix: string): ResponseHomes {
  const base = `${prefix}resp:`
  return {
    async get(id) {
      if (link.up) {
        const text = await link.send('GET', [base + id]).catch(() => undefined)
        if (text !== undefined) return parse(text)
      }
      return fallback.get(id)
    },
    set(id, home, ttlMs, maxEntries) {
      void fallback.set(id, home, ttlMs, maxEntries)
      const value = `${home.channelId}|${home.keyFp}|${home.userId}|${home.model}`
      if (!link.up) return Promise.resolve()
      return link.send('SET', [base + id, value, 'PX', String(Math.max(1, Math.round(ttlMs)))]).then(
        () => undefined,
        () => undefined,
      )
    },
    delete(id) {
      fallback.delete(id)
      if (link.up) link.send('UNLINK', [base + id]).catch(() => {})
    },
  }
}

function parse(text: unknown): ResponseHome | undefined {
  if (typeof text !== 'string') return undefined
  const [channel, keyFp, user, ...model] = text.split('|')
  const channelId = Number(channel)
  const userId = Number(user)
  if (!Number.isSafeInteger(channelId) || !Number.isSafeInteger(userId) || keyFp === undefined || model.length === 0) return undefined
  return { channelId, keyFp, userId, model: model.join('|') }
}

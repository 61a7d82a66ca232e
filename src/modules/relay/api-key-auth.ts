import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { clientIpOf } from '../../plugins/request-context'
import { verifyToken, type KeySource } from '../../relay/auth'

/**
 * The API-key check every relay route shares: in `derive`, so it runs before the body is validated and a
 * caller without a valid key hears that first. `sources` names where a route's clients put the key besides
 * `Authorization: Bearer` (Anthropic's `x-api-key`, Gemini's `x-goog-api-key` and `?key=`).
 */
export function apiKeyAuth(deps: Pick<AppDeps, 'config' | 'repos'>, name: string, sources: (path: string) => readonly KeySource[]) {
  return new Elysia({ name: `api-key-auth:${name}` }).derive({ as: 'scoped' }, async ({ request, server, path }) => {
    const clientIp = clientIpOf(request, server, deps.config.trustProxy)
    // a plain value once the key and its owner are in memory (no database behind the await); a promise only on a miss
    const caller = await verifyToken(deps, { headers: request.headers, clientIp, url: request.url, sources: sources(path) })
    return { clientIp, caller }
  })
}

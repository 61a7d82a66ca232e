import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { DataQuery } from '../logs/schemas'
import { rangeOf } from '.'

/** Input tokens in the range and the part the upstreams read from their prompt caches (the dashboard's cache figure). */
async function cacheReads(deps: AppDeps, filter: { userId?: number; username?: string; start: number; end: number }) {
  await deps.metering.logs.flush()
  const { promptTokens, cacheReadTokens } = await deps.repos.logs.cacheReads(filter)
  return ok({ prompt_tokens: promptTokens, cache_read_tokens: cacheReadTokens, cache_read_share: promptTokens > 0 ? cacheReadTokens / promptTokens : 0 })
}

/** `/api/data/cache_reads` (admins: everyone's, or one user's) and `/api/data/cache_reads/self`. */
export function cacheReadsModule(deps: AppDeps) {
  return new Elysia({ name: 'data-cache-reads' })
    .use(sessionPlugin(deps))
    .get(
      '/api/data/cache_reads',
      async ({ query }) => {
        const username = query.username?.trim() || undefined
        return cacheReads(deps, { ...(username ? { username } : {}), ...rangeOf(query) })
      },
      { role: Role.admin, query: DataQuery },
    )
    .get('/api/data/cache_reads/self', async ({ query, user }) => cacheReads(deps, { userId: user.id, ...rangeOf(query) }), { role: Role.user, query: DataQuery })
}

import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { pageOf, pageWindow } from '../../plugins/paging'
import { clientIpOf } from '../../plugins/request-context'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { AdminLogQuery, SelfLogQuery } from './schemas'
import { filterOf, listLogs, logStat } from './service'
import { tokenUsage } from './token-usage'

/**
 * Usage logs (new-api's /api/log paths): admins query everyone's, users their own. Also owns the end of the
 * metering: stopping the server writes every queued row (the retention job is one of `deps.jobs`).
 */
export function logsModule(deps: AppDeps) {
  return new Elysia({ name: 'logs' })
    .use(sessionPlugin(deps))
    // Elysia does not wait for stop hooks: whoever stops the server awaits `metering.stop()` itself too
    .onStop(() => void deps.metering.stop().catch((error: unknown) => console.error(`metering stop: ${(error as Error).message}`)))
    .get(
      '/api/log/',
      async ({ query }) => {
        const window = pageWindow(query)
        const page = await listLogs(deps, await filterOf(deps, query), window, true)
        return ok(pageOf(page.items, page.total, window))
      },
      { role: Role.admin, query: AdminLogQuery },
    )
    .get(
      '/api/log/self',
      async ({ query, user }) => {
        const window = pageWindow(query)
        const page = await listLogs(deps, await filterOf(deps, query, user), window, false)
        return ok(pageOf(page.items, page.total, window))
      },
      { role: Role.user, query: SelfLogQuery },
    )
    .get('/api/log/stat', async ({ query }) => ok(await logStat(deps, await filterOf(deps, query))), { role: Role.admin, query: AdminLogQuery })
    .get('/api/log/self/stat', async ({ query, user }) => ok(await logStat(deps, await filterOf(deps, query, user))), { role: Role.user, query: SelfLogQuery })
    .get('/api/usage/token/', async ({ request, server }) =>
      ok(await tokenUsage(deps, request.headers, clientIpOf(request, server, deps.config.trustProxy), request.url)),
    )
}

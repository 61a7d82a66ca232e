import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { pageOf, pageWindow } from '../../plugins/paging'
import { clientIpOf } from '../../plugins/request-context'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { RateLimitError } from '../../errors'
import type { LogFilter } from '../../db/repos/logs'
import { logsCsv } from './csv-export'
import { AdminLogQuery, SelfLogQuery } from './schemas'
import { filterOf, listLogs, logStat } from './service'
import { tokenUsage } from './token-usage'

/**
 * Usage logs (new-api's /api/log paths): admins query everyone's, users their own. Also owns the end of the
 * metering: stopping the server writes every queued row (the retention job is one of `deps.jobs`).
 */
export function logsModule(deps: AppDeps) {
  // one export at a time per user on this node: each is a long read of the logs table
  const exporting = new Set<number>()
  const exportCsv = async (userId: number, filter: LogFilter, admin: boolean) => {
    if (exporting.has(userId)) throw new RateLimitError('an export of yours is still running: wait for it to finish', 5, 'export_running')
    await deps.metering.logs.flush() // rows still queued belong in the file
    exporting.add(userId)
    const stream = logsCsv(deps.repos.logs, filter, { admin, quotaPerUnit: deps.options.get<number>('QuotaPerUnit'), onEnd: () => exporting.delete(userId) })
    const day = new Date().toISOString().slice(0, 10)
    return new Response(stream, {
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="tollgate-logs-${day}.csv"`, 'cache-control': 'no-store' },
    })
  }
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
    .get('/api/log/export', async ({ query, user }) => exportCsv(user.id, await filterOf(deps, query), true), { role: Role.admin, query: AdminLogQuery })
    .get('/api/log/self/export', async ({ query, user }) => exportCsv(user.id, await filterOf(deps, query, user), false), { role: Role.user, query: SelfLogQuery })
    .get('/api/log/stat', async ({ query }) => ok(await logStat(deps, await filterOf(deps, query))), { role: Role.admin, query: AdminLogQuery })
    .get('/api/log/self/stat', async ({ query, user }) => ok(await logStat(deps, await filterOf(deps, query, user))), { role: Role.user, query: SelfLogQuery })
    .get('/api/usage/token/', async ({ request, server }) =>
      ok(await tokenUsage(deps, request.headers, clientIpOf(request, server, deps.config.trustProxy), request.url)),
    )
}

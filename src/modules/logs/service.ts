import type { LogFilter, UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError } from '../../errors'
import type { PageWindow } from '../../plugins/paging'
import { logView } from './view'
import type { AdminLogQuery, SelfLogQuery } from './schemas'

const nonEmpty = (s: string | undefined) => (s?.trim() ? s.trim() : undefined)

/** The repo filter for a query; `self` pins it to one user. Usernames resolve to ids so the user index is used. */
export async function filterOf(deps: AppDeps, query: AdminLogQuery | SelfLogQuery, self?: UserRow): Promise<LogFilter> {
  const q = query as AdminLogQuery
  if (q.start_timestamp !== undefined && q.end_timestamp !== undefined && q.start_timestamp > q.end_timestamp) {
    throw new BadRequestError('query parameter "start_timestamp" must not be after "end_timestamp"', 'start_timestamp')
  }
  const filter: LogFilter = {
    type: q.type ? q.type : undefined,
    tokenName: nonEmpty(q.token_name),
    modelName: nonEmpty(q.model_name),
    group: nonEmpty(q.group),
    requestId: nonEmpty(q.request_id),
    start: q.start_timestamp,
    end: q.end_timestamp,
  }
  if (self) return { ...filter, userId: self.id }
  if (q.channel) filter.channelId = q.channel
  const username = nonEmpty(q.username)
  if (username) {
    const user = await deps.repos.users.findByUsername(username)
    if (user) filter.userId = user.id
    else filter.username = username // a deleted user's rows keep the name
  }
  return filter
}

export async function listLogs(deps: AppDeps, filter: LogFilter, window: PageWindow, admin: boolean) {
  await deps.metering.logs.flush() // rows still queued belong in the answer
  const page = await deps.repos.logs.list(filter, window.offset, window.pageSize)
  return { items: page.items.map((row) => logView(row, admin)), total: page.total }
}

export async function logStat(deps: AppDeps, filter: LogFilter) {
  await deps.metering.logs.flush()
  return deps.repos.logs.stat(filter, Math.floor(Date.now() / 1000))
}

import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { BadRequestError } from '../../errors'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { DataQuery } from '../logs/schemas'

const WEEK = 7 * 86_400
const MAX_RANGE = 366 * 86_400

/** The time range of a dashboard query: the last week by default, at most a year. */
export function rangeOf(query: DataQuery): { start: number; end: number } {
  const end = query.end_timestamp ?? Math.floor(Date.now() / 1000)
  const start = query.start_timestamp ?? end - WEEK
  if (start > end) throw new BadRequestError('query parameter "start_timestamp" must not be after "end_timestamp"', 'start_timestamp')
  if (end - start > MAX_RANGE) throw new BadRequestError('the time range may span at most 366 days', 'start_timestamp')
  return { start, end }
}

const view = (rows: { hour: number; modelName: string; count: number; quota: number; tokenUsed: number }[]) =>
  rows.map((r) => ({ created_at: r.hour, model_name: r.modelName, count: r.count, quota: r.quota, token_used: r.tokenUsed }))

/** Dashboard data (new-api's /api/data): requests, quota and tokens per model per hour. */
export function dataModule(deps: AppDeps) {
  return new Elysia({ name: 'data' })
    .use(sessionPlugin(deps))
    .get(
      '/api/data/',
      async ({ query }) => {
        await deps.metering.logs.flush()
        const username = query.username?.trim() || undefined
        const user = username ? await deps.repos.users.findByUsername(username) : undefined
        const filter = user ? { userId: user.id } : username ? { username } : {}
        return ok(view(await deps.repos.logs.hourly({ ...filter, ...rangeOf(query) })))
      },
      { role: Role.admin, query: DataQuery },
    )
    .get(
      '/api/data/self',
      async ({ query, user }) => {
        await deps.metering.logs.flush()
        return ok(view(await deps.repos.logs.hourly({ userId: user.id, ...rangeOf(query) })))
      },
      { role: Role.user, query: DataQuery },
    )
}

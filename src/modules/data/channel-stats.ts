import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { BadRequestError } from '../../errors'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { DataQuery } from '../logs/schemas'
import { rangeOf } from '.'

/** The durations are ranked per request: a longer range would sort more rows than a dashboard should ask for. */
const MAX_STATS_RANGE = 31 * 86_400

/**
 * `/api/data/channel_stats` (admins): per channel over the range (default the last week), requests, errors, the
 * error rate and the p50/p95 duration of the successful requests, busiest first.
 */
export function channelStatsModule(deps: AppDeps) {
  return new Elysia({ name: 'data-channel-stats' }).use(sessionPlugin(deps)).get(
    '/api/data/channel_stats',
    async ({ query }) => {
      const { start, end } = rangeOf(query)
      if (end - start > MAX_STATS_RANGE) throw new BadRequestError('channel statistics span at most 31 days', 'start_timestamp')
      await deps.metering.logs.flush()
      const rows = await deps.repos.logs.channelStats(start, end)
      const items = rows
        .map((r) => ({
          channel_id: r.channelId,
          name: deps.routing.channels.get(r.channelId)?.name ?? '',
          requests: r.requests,
          errors: r.errors,
          error_rate: r.requests > 0 ? r.errors / r.requests : 0,
          p50_ms: r.p50Ms,
          p95_ms: r.p95Ms,
        }))
        .sort((a, b) => b.requests - a.requests || a.channel_id - b.channel_id)
      return ok({ start, end, items })
    },
    { role: Role.admin, query: DataQuery },
  )
}

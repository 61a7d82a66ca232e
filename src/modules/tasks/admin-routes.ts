import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import type { TaskFilter, TaskRow } from '../../db/repos/tasks'
import { Role } from '../../db/repos/user-roles'
import { ok } from '../../plugins/envelope'
import { Bounds, integerParam, PageQuery, pageOf, pageWindow, unixSecondsParam } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { mjRowView, taskRowView } from './admin-views'

const text = (max = 200) => t.Optional(t.String({ maxLength: max }))
const common = { ...PageQuery.properties, start_timestamp: unixSecondsParam('start_timestamp'), end_timestamp: unixSecondsParam('end_timestamp') }
const adminOnly = { channel_id: t.Optional(integerParam('channel_id', { minimum: 0, maximum: Bounds.id.maximum })), user_id: t.Optional(integerParam('user_id', { minimum: 0, maximum: Bounds.id.maximum })) }
const MjQuery = t.Object({ ...common, mj_id: text(64) }, { additionalProperties: true })
const AdminMjQuery = t.Object({ ...MjQuery.properties, ...adminOnly }, { additionalProperties: true })
const TaskQuery = t.Object({ ...common, task_id: text(128), action: text(40), status: text(20), platform: text(30) }, { additionalProperties: true })
const AdminTaskQuery = t.Object({ ...TaskQuery.properties, ...adminOnly }, { additionalProperties: true })

type Query = { start_timestamp?: number; end_timestamp?: number; channel_id?: number; user_id?: number }

/** The filter's common part: submit times given in unix seconds (as new-api's pages send them), kept in ms. */
function bounds(query: Query): TaskFilter {
  return {
    start: query.start_timestamp ? query.start_timestamp * 1000 : undefined,
    end: query.end_timestamp ? query.end_timestamp * 1000 + 999 : undefined,
    channelId: query.channel_id || undefined,
    userId: query.user_id || undefined,
  }
}

/**
 * The task lists of new-api's back office: `/api/mj` (Midjourney) and `/api/task` (the other platforms), each
 * `…/self` for the signed-in user's own and bare for admins (everyone's, filtered by channel and user too).
 */
export function taskAdminRoutes(deps: AppDeps) {
  const page = async (filter: TaskFilter, query: { p?: number; page_size?: number }, view: (row: TaskRow) => unknown) => {
    const window = pageWindow(query)
    const found = await deps.repos.tasks.list(filter, window.offset, window.pageSize)
    return ok(pageOf(found.items.map(view), found.total, window))
  }
  return new Elysia({ name: 'tasks-admin' })
    .use(sessionPlugin(deps))
    .get('/api/mj/self', ({ query, user }) => page({ ...bounds(query), channelId: undefined, userId: user.id, platform: 'midjourney', taskId: query.mj_id || undefined }, query, (r) => mjRowView(r, false)), {
      role: Role.user,
      query: MjQuery,
    })
    .get('/api/mj/', ({ query }) => page({ ...bounds(query), platform: 'midjourney', taskId: query.mj_id || undefined }, query, (r) => mjRowView(r, true)), { role: Role.admin, query: AdminMjQuery })
    .get(
      '/api/task/self',
      ({ query, user }) => page({ ...taskFilter(query), channelId: undefined, userId: user.id }, query, (r) => taskRowView(r, false)),
      { role: Role.user, query: TaskQuery },
    )
    .get('/api/task/', ({ query }) => page(taskFilter(query), query, (r) => taskRowView(r, true)), { role: Role.admin, query: AdminTaskQuery })
}

function taskFilter(query: Query & { task_id?: string; action?: string; status?: string; platform?: string }): TaskFilter {
  const platform = query.platform?.toLowerCase()
  return {
    ...bounds(query),
    taskId: query.task_id || undefined,
    action: query.action?.toUpperCase() || undefined,
    status: query.status?.toUpperCase() || undefined,
    ...(platform ? { platform } : { notPlatform: 'midjourney' }),
  }
}

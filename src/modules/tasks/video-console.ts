import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { NotFoundError } from '../../errors'
import { Role } from '../../db/repos/user-roles'
import { sessionPlugin } from '../../plugins/session'
import { videoContent } from '../../tasks/video/content'
import { videoVendorOf } from '../../tasks/video/vendors'

const Id = t.Object({ task_id: t.String({ minLength: 1, maxLength: 128 }) })

/**
 * The console's preview of a finished video (the Tasks page's link, as new-api lets its dashboard open
 * `/v1/videos/{id}/content` with the session): the signed-in user's own at `/api/task/self/{task_id}/content`,
 * any user's for admins at `/api/task/{task_id}/content`. The bytes stream from the vendor as for API keys.
 */
export function videoConsoleRoutes(deps: AppDeps) {
  const stream = async (taskId: string, userId: number | undefined, request: Request) => {
    const [row] = (await deps.repos.tasks.list({ taskId, userId }, 0, 1)).items
    if (!row || !videoVendorOf(row.platform)) throw new NotFoundError(`video ${taskId} not found`, 'task_not_found')
    return videoContent({ ...deps, channels: deps.routing.channels }, row, request)
  }
  return new Elysia({ name: 'tasks-video-console' })
    .use(sessionPlugin(deps))
    .get('/api/task/self/:task_id/content', ({ params, user, request }) => stream(params.task_id, user.id, request), { role: Role.user, params: Id })
    .get('/api/task/:task_id/content', ({ params, request }) => stream(params.task_id, undefined, request), { role: Role.admin, params: Id })
}

import type { AppDeps } from '../../deps'
import { NotFoundError } from '../../errors'
import { Role } from '../../db/repos/user-roles'
import type { VerifiedToken } from '../../relay/auth'
import { midjourneyImage } from '../../tasks/mj-image'

/**
 * `GET /mj/image/{id}` (new-api's route): the task's image streamed through the gateway, for the key of the task's
 * owner, or of an admin; anyone else's task and an unknown one are the same 404.
 */
export async function taskImage(deps: Pick<AppDeps, 'repos' | 'outbound' | 'routing'>, caller: VerifiedToken, taskId: string, signal: AbortSignal): Promise<Response> {
  const [owned] = await deps.repos.tasks.findOwned(caller.user.id, 'midjourney', [taskId])
  const row = owned ?? (caller.user.role >= Role.admin ? (await deps.repos.tasks.list({ platform: 'midjourney', taskId }, 0, 1)).items[0] : undefined)
  if (!row) throw new NotFoundError(`task ${taskId.slice(0, 64)} not found`, 'task_not_found')
  return midjourneyImage({ outbound: deps.outbound, channels: deps.routing.channels }, row, signal)
}

/** With MjForwardUrlEnabled, a view's imageUrl points at the gateway's `/mj/image/{id}` (ServerAddress, else the address called). */
export function forwardedImageUrl<V extends { id: string; imageUrl: string }>(deps: Pick<AppDeps, 'options'>, request: Request, view: V): V {
  if (!view.imageUrl || !deps.options.get<boolean>('MjForwardUrlEnabled')) return view
  const base = deps.options.get<string>('ServerAddress').replace(/\/+$/, '') || new URL(request.url).origin
  return { ...view, imageUrl: `${base}/mj/image/${encodeURIComponent(view.id)}` }
}

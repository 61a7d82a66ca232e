import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import type { RelayHooks } from '../../relay/types'
import { taskAdminRoutes } from './admin-routes'
import { midjourneyRoutes } from './mj-routes'
import { sunoRoutes } from './suno-routes'
import { klingRoutes } from './kling-routes'
import { videoConsoleRoutes } from './video-console'
import { videoRoutes } from './video-routes'

export { registerTaskErrors } from './errors'

/** Asynchronous tasks (src/tasks): Midjourney, Suno and video for API keys, and their lists for the console. */
export function tasksModule(deps: AppDeps, hooks: RelayHooks) {
  return new Elysia({ name: 'tasks' }).use(taskAdminRoutes(deps)).use(midjourneyRoutes(deps, hooks)).use(sunoRoutes(deps, hooks)).use(videoRoutes(deps, hooks)).use(klingRoutes(deps, hooks)).use(videoConsoleRoutes(deps))
}

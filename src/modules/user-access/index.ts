import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { userGroups, userModels } from './service'

/** What the logged-in user may use, in new-api's shapes: model names and groups (the console's pickers). */
export function userAccessModule(deps: AppDeps) {
  return new Elysia({ name: 'user-access' })
    .use(sessionPlugin(deps))
    .get('/api/user/models', ({ user }) => ok(userModels(deps, user)), { role: Role.user })
    .get('/api/user/self/groups', ({ user }) => ok(userGroups(deps, user)), { role: Role.user })
}

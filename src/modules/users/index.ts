import { Elysia } from 'elysia'
import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { pageOf, pageWindow } from '../../plugins/paging'
import { isSecureRequest, SESSION_COOKIE, sessionPlugin, startSession } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { createUser, deleteUser, editUser, listUsers, viewUser } from './admin'
import { ensureAffCode, transferAffQuota } from './aff'
import { manageUser } from './manage'
import { AffTransferBody, IdParams, ManageBody, SearchQuery, SelfUpdate, UserCreate, UserEdit } from './schemas'
import { updateSelf } from './self'
import { toUserView } from './view'

/** A user's own account and invitations, and user management for admins (new-api's /api/user paths). */
export function usersModule(deps: AppDeps) {
  const list = async (actor: UserRow, query: typeof SearchQuery.static) => {
    const window = pageWindow(query)
    const page = await listUsers(deps, actor, window.offset, window.pageSize, query.keyword?.trim() || undefined)
    return ok(pageOf(page.items.map(toUserView), page.total, window))
  }

  return new Elysia({ name: 'users' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'user'))
    .get('/api/user/self', ({ user }) => ok(toUserView(user)), { role: Role.user })
    .put(
      '/api/user/self',
      async ({ user, body, sessionJwt, cookie, request, server }) => {
        const result = await updateSelf(deps, user, body)
        // the password change ended every session (this one included) and the access token: hand this browser a fresh cookie
        if (result.passwordChanged) await startSession(sessionJwt, cookie[SESSION_COOKIE]!, result.user, isSecureRequest(deps, request, server))
        return ok(toUserView(result.user), result.passwordChanged ? 'password changed: other sessions and the access token have ended' : '')
      },
      { role: Role.user, body: SelfUpdate },
    )
    .get('/api/user/aff', async ({ user }) => ok(await ensureAffCode(deps, user)), { role: Role.user })
    .post(
      '/api/user/aff_transfer',
      async ({ user, body }) => {
        const moved = await transferAffQuota(deps, user, body.quota)
        return ok(moved, `moved ${moved.quota_moved} invitation quota to your balance`)
      },
      { role: Role.user, body: AffTransferBody },
    )
    .get('/api/user/', ({ user, query }) => list(user, query), { role: Role.admin, query: SearchQuery })
    .get('/api/user/search', ({ user, query }) => list(user, query), { role: Role.admin, query: SearchQuery })
    .get('/api/user/:id', async ({ user, params }) => ok(toUserView(await viewUser(deps, user, params.id))), { role: Role.admin, params: IdParams })
    .post('/api/user/', async ({ user, body }) => ok(toUserView(await createUser(deps, user, body)), 'user created'), {
      role: Role.admin,
      body: UserCreate,
    })
    .put('/api/user/', async ({ user, body }) => ok(toUserView(await editUser(deps, user, body))), { role: Role.admin, body: UserEdit })
    .delete(
      '/api/user/:id',
      async ({ user, params }) => {
        await deleteUser(deps, user, params.id)
        return ok(null, 'user deleted')
      },
      { role: Role.admin, params: IdParams },
    )
    .post('/api/user/manage', async ({ user, body }) => ok(await manageUser(deps, user, body)), { role: Role.admin, body: ManageBody })
}

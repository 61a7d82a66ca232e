import { Elysia, t } from 'elysia'
import type { BindingRow, UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { IdParams } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { findUser } from '../users/admin'
import { assertCanActOn } from '../users/rules'
import { oauthError } from './errors'

/** new-api's binding types, as they name the user columns (linux_do_id: `linuxdo`), and custom:<id>. */
const BindingType = t.String({ minLength: 1, maxLength: 40, pattern: '^(github|discord|oidc|linuxdo|telegram|wechat|custom:[0-9]{1,9})$' })

const view = (row: BindingRow) => ({ provider: row.provider, external_id: row.externalId, created_time: row.createdTime })

/** A user's ways in: the providers bound, and whether a password is set (an OAuth sign-up has none). */
async function bindingsOf(deps: AppDeps, user: UserRow) {
  return { has_password: user.password !== '', bindings: (await deps.repos.bindings.listByUser(user.id)).map(view) }
}

/** Unbind, but never the last way in: a user without a password keeps their only provider. */
async function unbindOwn(deps: AppDeps, user: UserRow, provider: string): Promise<void> {
  const rows = await deps.repos.bindings.listByUser(user.id)
  if (!rows.some((r) => r.provider === provider)) throw oauthError(404, 'binding_not_found', `${provider} is not bound`)
  if (user.password === '' && rows.length === 1) {
    throw oauthError(409, 'last_sign_in', `${provider} is your only way to sign in: set a password (or bind another provider) first`)
  }
  await deps.repos.bindings.unbind(user.id, provider)
}

/** Bindings on the profile (the user's own) and in user management (an admin's view and clearing, new-api's routes). */
export function bindingsModule(deps: AppDeps) {
  return new Elysia({ name: 'oauth-bindings' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'user'))
    .get('/api/user/oauth/bindings', async ({ user }) => ok(await bindingsOf(deps, user)), { role: Role.user })
    .delete(
      '/api/user/bindings/:binding_type',
      async ({ user, params }) => {
        await unbindOwn(deps, user, params.binding_type)
        return ok(null, `${params.binding_type} is unbound`)
      },
      { role: Role.user, params: t.Object({ binding_type: BindingType }) },
    )
    .get(
      '/api/user/:id/oauth/bindings',
      async ({ user, params }) => {
        const target = await findUser(deps, params.id)
        assertCanActOn(user, target)
        return ok(await bindingsOf(deps, target))
      },
      { role: Role.admin, params: IdParams },
    )
    // an admin clears a binding whatever is left: they can set the user a password
    .delete(
      '/api/user/:id/bindings/:binding_type',
      async ({ user, params }) => {
        const target = await findUser(deps, params.id)
        assertCanActOn(user, target)
        if (!(await deps.repos.bindings.unbind(target.id, params.binding_type))) throw oauthError(404, 'binding_not_found', `${params.binding_type} is not bound to this user`)
        return ok(null, `${params.binding_type} is unbound`)
      },
      { role: Role.admin, params: t.Object({ id: IdParams.properties.id, binding_type: BindingType }) },
    )
}

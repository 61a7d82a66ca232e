import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { PageQuery, pageOf, pageWindow } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import {
  createToken,
  deleteToken,
  deleteTokens,
  listTokens,
  ownedToken,
  setTokenStatus,
  updateToken,
} from '../../services/tokens'
import { BatchDeleteBody, CreateTokenBody, TokenIdParams, UpdateTokenBody, UpdateTokenQuery } from './schemas'
import { tokenView } from './view'

/** A user's API keys to the gateway (new-api `/api/token`). Everyone sees and changes only their own. */
export function tokensModule(deps: AppDeps) {
  return new Elysia({ name: 'tokens', prefix: '/api/token' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'token'))
    .get(
      '/',
      async ({ user, query }) => {
        const window = pageWindow(query)
        const page = await listTokens(deps, { user, window, keyword: query.keyword })
        return ok(pageOf(page.items.map((row) => tokenView(row)), page.total, window))
      },
      { role: Role.user, query: PageQuery },
    )
    .get(
      '/search',
      async ({ user, query }) => {
        const window = pageWindow(query)
        const page = await listTokens(deps, { user, window, keyword: query.keyword })
        return ok(pageOf(page.items.map((row) => tokenView(row)), page.total, window))
      },
      { role: Role.user, query: PageQuery },
    )
    .get('/:id', async ({ user, params }) => ok(tokenView(await ownedToken(deps, user, Number(params.id)))), {
      role: Role.user,
      params: TokenIdParams,
    })
    .post(
      '/',
      async ({ user, body }) => {
        const { token, key } = await createToken(deps, { user, fields: body })
        return ok(tokenView(token, key), 'copy the key now: it is shown only once')
      },
      { role: Role.user, body: CreateTokenBody },
    )
    .put(
      '/',
      async ({ user, body, query }) => {
        const { id, status, ...fields } = body
        const token = query.status_only
          ? await setTokenStatus(deps, { user, id, status })
          : await updateToken(deps, { user, id, status, fields })
        return ok(tokenView(token))
      },
      { role: Role.user, body: UpdateTokenBody, query: UpdateTokenQuery },
    )
    .delete(
      '/:id',
      async ({ user, params }) => {
        await deleteToken(deps, { user, id: Number(params.id) })
        return ok(null)
      },
      { role: Role.user, params: TokenIdParams },
    )
    .post('/batch', async ({ user, body }) => ok(await deleteTokens(deps, { user, ids: body.ids })), {
      role: Role.user,
      body: BatchDeleteBody,
    })
}

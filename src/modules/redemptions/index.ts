import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { manageLogHook } from '../../metering/manage-log'
import { ok } from '../../plugins/envelope'
import { PageQuery, pageOf, pageWindow } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { CreateRedemptionBody, RedemptionIdParams, TopUpBody, UpdateRedemptionBody } from './schemas'
import { createRedemptions, deleteInvalidRedemptions, deleteRedemption, findRedemption, redeem, updateRedemption } from './service'
import { redemptionView } from './view'

/** Redemption codes for admins (new-api's /api/redemption paths), and POST /api/user/topup to spend one. */
export function redemptionsModule(deps: AppDeps) {
  const admin = { role: Role.admin }
  const list = async (query: typeof PageQuery.static) => {
    const window = pageWindow(query)
    const page = await deps.repos.redemptions.list(window.offset, window.pageSize, query.keyword)
    const items = await Promise.all(page.items.map(async (row) => redemptionView(row, undefined, await usedUsername(row.usedUserId))))
    return ok(pageOf(items, page.total, window))
  }
  const usedUsername = async (userId: number) => (userId ? ((await deps.repos.users.findById(userId))?.username ?? '') : '')

  return new Elysia({ name: 'redemptions' })
    .use(sessionPlugin(deps))
    // a user's top-up is logged as a top-up (service.ts), not as a manage row: it comes before the hook
    .post(
      '/api/user/topup',
      async ({ user, body, clientIp, arrival }) => {
        const context = { ip: clientIp, requestId: arrival?.id ?? '' }
        const result = await redeem(deps, user, body.key, context)
        return ok(result, `added ${result.quota} quota`)
      },
      { role: Role.user, body: TopUpBody },
    )
    // every admin change to the codes is a manage log row, as channel, token, user and option changes are
    .onAfterHandle(manageLogHook(deps, 'redemption'))
    .get('/api/redemption/', ({ query }) => list(query), { ...admin, query: PageQuery })
    .get('/api/redemption/search', ({ query }) => list(query), { ...admin, query: PageQuery })
    .get(
      '/api/redemption/:id',
      async ({ params }) => {
        const row = await findRedemption(deps, params.id)
        return ok(redemptionView(row, undefined, await usedUsername(row.usedUserId)))
      },
      { ...admin, params: RedemptionIdParams },
    )
    .post(
      '/api/redemption/',
      async ({ user, body }) => {
        const { rows, keys } = await createRedemptions(deps, user, body)
        return ok({ keys, items: rows.map((row, i) => redemptionView(row, keys[i])) }, 'copy the codes now: they are shown only once')
      },
      { ...admin, body: CreateRedemptionBody },
    )
    .put('/api/redemption/', async ({ body }) => ok(redemptionView(await updateRedemption(deps, body))), { ...admin, body: UpdateRedemptionBody })
    .delete('/api/redemption/invalid', async () => {
      const n = await deleteInvalidRedemptions(deps)
      return ok(n, `deleted ${n} code${n === 1 ? '' : 's'}`)
    }, admin)
    .delete(
      '/api/redemption/:id',
      async ({ params }) => {
        await deleteRedemption(deps, params.id)
        return ok(null, 'code deleted')
      },
      { ...admin, params: RedemptionIdParams },
    )
}

import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { PageQuery, pageOf, pageWindow } from '../../plugins/paging'
import { clientIpOf, requestIdOf } from '../../plugins/request-context'
import { Role, sessionPlugin } from '../../plugins/session'
import { CreateRedemptionBody, RedemptionIdParams, TopUpBody, UpdateRedemptionBody } from './schemas'
import { createRedemptions, deleteInvalidRedemptions, deleteRedemption, findRedemption, redeem, updateRedemption } from './service'
import { redemptionView } from './view'

/** Redemption codes for admins (new-api's /api/redemption paths), and POST /api/user/topup to spend one. */
export function redemptionsModule(deps: AppDeps) {
  const admin = { role: Role.admin }
  const list = (query: typeof PageQuery.static) => {
    const window = pageWindow(query)
    const page = deps.repos.redemptions.list(window.offset, window.pageSize, query.keyword)
    return ok(pageOf(page.items.map((row) => redemptionView(row, undefined, usedUsername(row.usedUserId))), page.total, window))
  }
  const usedUsername = (userId: number) => (userId ? (deps.repos.users.findById(userId)?.username ?? '') : '')

  return new Elysia({ name: 'redemptions' })
    .use(sessionPlugin(deps))
    .get('/api/redemption/', ({ query }) => list(query), { ...admin, query: PageQuery })
    .get('/api/redemption/search', ({ query }) => list(query), { ...admin, query: PageQuery })
    .get(
      '/api/redemption/:id',
      ({ params }) => {
        const row = findRedemption(deps, params.id)
        return ok(redemptionView(row, undefined, usedUsername(row.usedUserId)))
      },
      { ...admin, params: RedemptionIdParams },
    )
    .post(
      '/api/redemption/',
      ({ user, body }) => {
        const { rows, keys } = createRedemptions(deps, user, body)
        return ok({ keys, items: rows.map((row, i) => redemptionView(row, keys[i])) }, 'copy the codes now: they are shown only once')
      },
      { ...admin, body: CreateRedemptionBody },
    )
    .put('/api/redemption/', ({ body }) => ok(redemptionView(updateRedemption(deps, body))), { ...admin, body: UpdateRedemptionBody })
    .delete('/api/redemption/invalid', () => {
      const n = deleteInvalidRedemptions(deps)
      return ok(n, `deleted ${n} code${n === 1 ? '' : 's'}`)
    }, admin)
    .delete(
      '/api/redemption/:id',
      ({ params }) => {
        deleteRedemption(deps, params.id)
        return ok(null, 'code deleted')
      },
      { ...admin, params: RedemptionIdParams },
    )
    .post(
      '/api/user/topup',
      ({ user, body, request, server }) => {
        const context = { ip: clientIpOf(request, server, deps.config.trustProxy), requestId: requestIdOf(request) ?? '' }
        const result = redeem(deps, user, body.key, context)
        return ok(result, `added ${result.quota} quota`)
      },
      { role: Role.user, body: TopUpBody },
    )
}

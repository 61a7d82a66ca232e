import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { manageLogHook } from '../../metering/manage-log'
import { ok } from '../../plugins/envelope'
import { IdParams } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { callbackBase, paymentDeps } from '../payments/deps'
import { startPlanCreem, startPlanEpay, startPlanStripe } from '../../subscriptions/checkout'
import { normalizePreference } from '../../subscriptions/funding'
import { cancelPlan } from '../../subscriptions/upgrade'
import { grantPlan, PlanError, planRow, planView, subscriptionsOf, subscriptionView } from '../../subscriptions/plans'
import { BindBody, GrantBody, PlanBody, PlanEpayBody, PlanPayBody, PlanStatusBody, PreferenceBody } from './schemas'

/** Subscription plans (new-api's `/api/subscription/*`): what users see and buy, what pays first; root's plans and admins' grants. */
export function subscriptionsModule(deps: AppDeps) {
  const payments = paymentDeps(deps)
  const repo = deps.repos.subscriptions
  const now = () => Math.floor(deps.clock.now() / 1000)
  const user = { role: Role.user }
  return new Elysia({ name: 'subscriptions' })
    .use(sessionPlugin(deps))
    .get('/api/subscription/plans', async () => ok((await repo.listPlans(true)).map((p) => ({ plan: planView(p) }))), user)
    .get('/api/subscription/self', async ({ user }) => ok({ billing_preference: normalizePreference(await repo.preference(user.id)), ...(await subscriptionsOf(repo, user.id, now())) }), user)
    .put(
      '/api/subscription/self/preference',
      async ({ user, body }) => {
        await repo.setPreference(user.id, body.billing_preference)
        return ok({ billing_preference: body.billing_preference })
      },
      { ...user, body: PreferenceBody },
    )
    .post(
      '/api/subscription/epay/pay',
      async ({ user, body, request, server }) => ok(await startPlanEpay(payments, user, { planId: body.plan_id, method: body.payment_method }, { base: callbackBase(deps, request, server) })),
      { ...user, body: PlanEpayBody },
    )
    .post('/api/subscription/stripe/pay', async ({ user, body, request, server }) => ok(await startPlanStripe(payments, user, body.plan_id, { base: callbackBase(deps, request, server) })), { ...user, body: PlanPayBody })
    .post('/api/subscription/creem/pay', async ({ user, body, request, server }) => ok(await startPlanCreem(payments, user, body.plan_id, { base: callbackBase(deps, request, server) })), { ...user, body: PlanPayBody })
    .use(subscriptionAdminRoutes(deps))
}

/** Root defines plans; admins grant and withdraw them (each change in the manage log). */
function subscriptionAdminRoutes(deps: AppDeps) {
  const repo = deps.repos.subscriptions
  const now = () => Math.floor(deps.clock.now() / 1000)
  const root = { role: Role.root }
  const admin = { role: Role.admin }
  // the groups a plan may raise its holders to: those GroupRatio prices
  const groups = () => new Set(Object.keys(deps.options.get<Record<string, number>>('GroupRatio')))
  const userExists = async (id: number) => {
    if (!(await deps.repos.users.findById(id))) throw new PlanError('unknown_user', 'no user has this id', 'user_id', 404)
  }
  const grant = async (userId: number, planId: number) => {
    await userExists(userId)
    const { row, plan } = await grantPlan(repo, userId, planId, now())
    deps.repos.users.forget(userId) // the plan may have raised the user's group (other nodes hear it on the users topic)
    return ok(subscriptionView(row, plan, now()), `plan "${plan.title}" granted`)
  }
  return new Elysia({ name: 'subscriptions-admin' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'subscription'))
    .get('/api/subscription/admin/plans', async () => ok((await repo.listPlans(false)).map((p) => ({ plan: planView(p) }))), admin)
    .post('/api/subscription/admin/plans', async ({ body }) => ok(planView(await repo.insertPlan({ ...planRow(body, now(), groups()), createdAt: now() }))), { ...root, body: PlanBody })
    .put(
      '/api/subscription/admin/plans/:id',
      async ({ params, body }) => {
        const plan = await repo.updatePlan(Number(params.id), planRow(body, now(), groups()))
        if (!plan) throw new PlanError('unknown_plan', 'no plan has this id', 'id', 404)
        return ok(planView(plan))
      },
      { ...root, params: IdParams, body: PlanBody },
    )
    .patch(
      '/api/subscription/admin/plans/:id',
      async ({ params, body }) => {
        const plan = await repo.updatePlan(Number(params.id), { enabled: body.enabled, updatedAt: now() })
        if (!plan) throw new PlanError('unknown_plan', 'no plan has this id', 'id', 404)
        return ok(planView(plan))
      },
      { ...root, params: IdParams, body: PlanStatusBody },
    )
    .post('/api/subscription/admin/bind', ({ body }) => grant(body.user_id, body.plan_id), { ...admin, body: BindBody })
    .get(
      '/api/subscription/admin/users/:id/subscriptions',
      async ({ params }) => {
        await userExists(Number(params.id))
        return ok((await subscriptionsOf(repo, Number(params.id), now())).all_subscriptions)
      },
      { ...admin, params: IdParams },
    )
    .post('/api/subscription/admin/users/:id/subscriptions', ({ params, body }) => grant(Number(params.id), body.plan_id), { ...admin, params: IdParams, body: GrantBody })
    .post(
      '/api/subscription/admin/user_subscriptions/:id/invalidate',
      async ({ params }) => {
        await cancelPlan(deps.repos, Number(params.id), now())
        return ok(null, 'subscription cancelled: it pays for nothing from now on')
      },
      { ...admin, params: IdParams },
    )
}

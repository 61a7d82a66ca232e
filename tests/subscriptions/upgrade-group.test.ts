/**
 * A plan's `upgrade_group` on SQLite and PostgreSQL: an admin's grant and a paid order raise the holder to it in the
 * grant's transaction (and a request is priced at that group's ratio at once), a plan past its end on a moved clock
 * gives the group back through the sweep, a cancel in its transaction, another plan in force keeps it, and a group
 * GroupRatio does not price is refused when the plan is saved.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Env } from '../../src/config'
import type { RelayEnv } from '../helpers/relay-env'
import { appDialects, call } from '../helpers/test-app'
import { as, login } from '../helpers/accounts'
import { grantOf } from '../../src/subscriptions/grant'
import { expireUpgrades } from '../../src/subscriptions/upgrade'
import { account, chat, chatBody, startMeteredEnv, userRow } from '../metering/env'

const BASE = 1000 // ModelPrice 0.002 × QuotaPerUnit 500,000, at GroupRatio 1

for (const dialect of appDialects()) describe.skipIf(dialect.skip)(dialect.name, () => {
  let env: RelayEnv
  let root = ''
  let offset = 0
  const now = () => Math.floor(env.app.deps.clock.now() / 1000)
  beforeAll(async () => {
    env = await startEnv(await dialect.env())
    root = await login(env.app)
    env.app.deps.clock.now = () => Date.now() + offset * 1000
  }, 60_000)
  afterAll(() => env.stop())

  async function startEnv(appEnv: Env) {
    const e = await startMeteredEnv(appEnv)
    await e.addChannel({ type: 1, models: 'gpt-4o', group: 'default,vip' })
    await e.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002 })
    await e.app.deps.options.set('GroupRatio', { default: 1, vip: 3 })
    return e
  }
  const api = (method: string, path: string, body?: unknown) => call(env.app, method, path, body, as(root))
  // the plan pays for another model: the wallet pays the request, at the user's group's ratio
  const newPlan = async (patch: Record<string, unknown> = {}) => {
    const res = await api('POST', '/api/subscription/admin/plans', { title: 'VIP', price_amount: 5, duration_unit: 'hour', duration_value: 1, total_amount: 0, models: 'other-model', upgrade_group: 'vip', ...patch })
    expect(res.status).toBe(200)
    return res.body.data as { id: number; upgrade_group: string }
  }
  const grant = async (userId: number, planId: number) => {
    const res = await api('POST', `/api/subscription/admin/users/${userId}/subscriptions`, { plan_id: planId })
    expect(res.status).toBe(200)
    return res.body.data.subscription as { id: number; upgrade_group: string; prev_user_group: string }
  }
  const groupOf = async (id: number) => (await userRow(env, id)).group
  /** What one gpt-4o request took from the wallet. */
  const charge = async (userId: number, key: string) => {
    const before = (await userRow(env, userId)).quota
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(200)
    await res.text()
    return before - (await userRow(env, userId)).quota
  }

  test('a group GroupRatio does not price is refused when the plan is saved (400 unknown_group), on create and on edit', async () => {
    const bad = await api('POST', '/api/subscription/admin/plans', { title: 'X', price_amount: 1, duration_unit: 'day', total_amount: 0, upgrade_group: 'nope' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ success: false, data: { code: 'unknown_group' } })
    const plan = await newPlan()
    expect(plan.upgrade_group).toBe('vip')
    const edit = await api('PUT', `/api/subscription/admin/plans/${plan.id}`, { title: 'VIP', price_amount: 5, duration_unit: 'hour', total_amount: 0, upgrade_group: 'gold' })
    expect(edit.body.data.code).toBe('unknown_group')
  })

  test('an admin grant raises the group at once (rows and the next request priced at vip), the sweep on a moved clock gives it back', async () => {
    offset = 0
    const plan = await newPlan()
    const { user, key } = await account(env, 1_000_000)
    expect(await charge(user.id, key)).toBe(BASE)
    const held = await grant(user.id, plan.id)
    expect(held).toMatchObject({ upgrade_group: 'vip', prev_user_group: 'default' })
    expect(await groupOf(user.id)).toBe('vip')
    expect(await charge(user.id, key)).toBe(3 * BASE)
    // nothing is due yet: the sweep leaves it
    await expireUpgrades(env.app.deps.repos, now())
    expect(await groupOf(user.id)).toBe('vip')
    offset = 3601
    await expireUpgrades(env.app.deps.repos, now())
    expect(await groupOf(user.id)).toBe('default')
    expect((await env.app.deps.repos.subscriptions.findById(held.id))!.status).toBe('expired')
    expect(await charge(user.id, key)).toBe(BASE)
    offset = 0
  })

  test('a cancel gives the group back in its transaction; a second plan in force keeps it until it ends too', async () => {
    offset = 0
    const plan = await newPlan({ duration_unit: 'day' })
    const { user, key } = await account(env, 1_000_000)
    const first = await grant(user.id, plan.id)
    const second = await grant(user.id, plan.id)
    expect(second.prev_user_group).toBe('default') // inherited: the user was in vip through the first
    expect((await api('POST', `/api/subscription/admin/user_subscriptions/${first.id}/invalidate`, {})).status).toBe(200)
    expect(await groupOf(user.id)).toBe('vip')
    expect(await charge(user.id, key)).toBe(3 * BASE)
    expect((await api('POST', `/api/subscription/admin/user_subscriptions/${second.id}/invalidate`, {})).status).toBe(200)
    expect(await groupOf(user.id)).toBe('default')
    expect(await charge(user.id, key)).toBe(BASE)
    const again = await api('POST', `/api/subscription/admin/user_subscriptions/${second.id}/invalidate`, {})
    expect([again.status, again.body.data.code]).toEqual([404, 'unknown_subscription'])
  })

  test('a group changed since (by an admin) is left alone when the plan ends', async () => {
    const plan = await newPlan({ duration_unit: 'day' })
    const { user } = await account(env, 0)
    const held = await grant(user.id, plan.id)
    await env.app.deps.repos.users.update(user.id, { group: 'svip' })
    expect((await api('POST', `/api/subscription/admin/user_subscriptions/${held.id}/invalidate`, {})).status).toBe(200)
    expect(await groupOf(user.id)).toBe('svip')
  })

  test('a paid order raises its buyer in the order\'s transaction', async () => {
    const plan = (await env.app.deps.repos.subscriptions.findPlan((await newPlan({ duration_unit: 'day' })).id))!
    const { user } = await account(env, 0)
    const tradeNo = `SUBUP${user.id}x${dialect.name}`
    await env.app.deps.repos.topups.insert({ userId: user.id, tradeNo, amount: 0, quota: 0, moneyCents: 500, currency: 'USD', paymentMethod: 'stripe', paymentProvider: 'stripe', status: 'pending', planId: plan.id, createTime: now() })
    const paid = await env.app.deps.repos.topups.complete(tradeNo, {}, now(), (row) => ({ createdAt: now(), type: 1, userId: row.userId, quota: 0 }), (row) => grantOf(plan, row.userId, now(), 'order', row.tradeNo))
    expect(paid?.status).toBe('success')
    expect(await groupOf(user.id)).toBe('vip')
    const [held] = await env.app.deps.repos.subscriptions.listOfUser(user.id)
    expect(held).toMatchObject({ upgradeGroup: 'vip', prevUserGroup: 'default', source: 'order' })
  })
})

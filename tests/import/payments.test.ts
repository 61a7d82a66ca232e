/**
 * new-api's money side through `tollgate import`: plans (checked as the API checks them: a bad one is skipped and
 * reported), the plans users hold (that then pay for requests), top-up and subscription orders with their trade
 * numbers and states; rows of users not imported are skipped. Nothing is credited twice: balances come with users.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows } from './fixtures/rows'
import { NEW_API_TABLES, type Table } from './fixtures/schema'
import { importInto, startImported, tempDir } from './helpers'

const col = (name: string, type: Table['columns'][number]['type']) => ({ name, type })
/** new-api's model/topup.go (as it is now: method and completion time) and model/subscription.go, as GORM creates them on SQLite. */
const MONEY_TABLES: Table[] = [
  { name: 'top_ups', columns: [col('id', 'pk'), col('user_id', 'bigint'), col('amount', 'bigint'), col('money', 'float'), col('trade_no', 'varchar(255)'), col('payment_method', 'varchar(50)'), col('create_time', 'bigint'), col('complete_time', 'bigint'), col('status', 'text')] },
  {
    name: 'subscription_plans',
    columns: [
      col('id', 'pk'), col('title', 'varchar(128)'), col('subtitle', 'varchar(255)'), col('price_amount', 'float'), col('currency', 'varchar(8)'), col('duration_unit', 'varchar(16)'), col('duration_value', 'int'),
      col('custom_seconds', 'bigint'), col('enabled', 'bool'), col('sort_order', 'int'), col('stripe_price_id', 'varchar(128)'), col('creem_product_id', 'varchar(128)'), col('max_purchase_per_user', 'int'),
      col('upgrade_group', 'varchar(64)'), col('total_amount', 'bigint'), col('model_amount_limits', 'text'), col('quota_reset_period', 'varchar(16)'), col('quota_reset_custom_seconds', 'bigint'), col('created_at', 'bigint'), col('updated_at', 'bigint'),
    ],
  },
  {
    name: 'user_subscriptions',
    columns: [
      col('id', 'pk'), col('user_id', 'bigint'), col('plan_id', 'bigint'), col('amount_total', 'bigint'), col('amount_used', 'bigint'), col('start_time', 'bigint'), col('end_time', 'bigint'), col('status', 'varchar(32)'),
      col('source', 'varchar(32)'), col('last_reset_time', 'bigint'), col('next_reset_time', 'bigint'), col('upgrade_group', 'varchar(64)'), col('prev_user_group', 'varchar(64)'), col('created_at', 'bigint'), col('updated_at', 'bigint'),
    ],
  },
  { name: 'subscription_orders', columns: [col('id', 'pk'), col('user_id', 'bigint'), col('plan_id', 'bigint'), col('money', 'float'), col('trade_no', 'varchar(255)'), col('payment_method', 'varchar(50)'), col('payment_provider', 'varchar(50)'), col('status', 'text'), col('create_time', 'bigint'), col('complete_time', 'bigint'), col('provider_payload', 'text')] },
]

const now = Math.floor(Date.now() / 1000)
const planRow = (id: number, patch: Record<string, unknown> = {}) => ({
  id, title: `Plan ${id}`, subtitle: '', price_amount: 9.9, currency: 'USD', duration_unit: 'month', duration_value: 1, custom_seconds: 0, enabled: true, sort_order: 0, stripe_price_id: '', creem_product_id: '',
  max_purchase_per_user: 0, upgrade_group: '', total_amount: 5_000_000, model_amount_limits: '', quota_reset_period: 'monthly', quota_reset_custom_seconds: 0, created_at: now - 100, updated_at: now - 100, ...patch,
})

let upstream: FakeUpstream
let dir: string
let app: TestApp
let report: any
beforeAll(async () => {
  upstream = await startFakeUpstream({ keys: [] })
  const fixture = await newApiRows(upstream.url)
  dir = tempDir('money')
  const source = join(dir, 'new-api.db')
  writeSqliteSource(source, [...NEW_API_TABLES.filter((t) => t.name !== 'top_ups'), ...MONEY_TABLES], {
    ...fixture.rows,
    top_ups: [
      { id: 1, user_id: 2, amount: 10, money: 73, trade_no: 'USR2NOpaid', payment_method: 'alipay', create_time: now - 500, complete_time: now - 400, status: 'success' },
      { id: 2, user_id: 2, amount: 5, money: 5, trade_no: 'USR2NOstripe', payment_method: 'stripe', create_time: now - 300, complete_time: 0, status: 'pending' },
      { id: 3, user_id: 5, amount: 1, money: 7.3, trade_no: 'USR5NOghost', payment_method: 'wxpay', create_time: now - 300, complete_time: now - 200, status: 'success' },
    ],
    subscription_plans: [planRow(1, { upgrade_group: 'vip' }), planRow(2, { currency: 'EUR' }), planRow(3, { quota_reset_period: 'daily', title: 'Daily' })],
    user_subscriptions: [
      { id: 1, user_id: 2, plan_id: 3, amount_total: 5_000_000, amount_used: 1_000, start_time: now - 100, end_time: now + 86_400 * 30, status: 'active', source: 'order', last_reset_time: now - (now % 86_400), next_reset_time: now - (now % 86_400) + 86_400, upgrade_group: '', prev_user_group: '', created_at: now - 100, updated_at: now - 100 },
      { id: 3, user_id: 2, plan_id: 1, amount_total: 5_000_000, amount_used: 0, start_time: now - 500, end_time: now + 86_400, status: 'cancelled', source: 'admin', last_reset_time: 0, next_reset_time: 0, upgrade_group: 'vip', prev_user_group: 'default', created_at: now - 500, updated_at: now - 400 },
      { id: 2, user_id: 2, plan_id: 2, amount_total: 1, amount_used: 0, start_time: now - 100, end_time: now + 100, status: 'active', source: 'admin', last_reset_time: 0, next_reset_time: 0, upgrade_group: '', prev_user_group: '', created_at: now, updated_at: now },
    ],
    subscription_orders: [{ id: 1, user_id: 2, plan_id: 3, money: 9.9, trade_no: 'SUBUSR2NOx', payment_method: 'stripe', payment_provider: 'stripe', status: 'success', create_time: now - 120, complete_time: now - 110, provider_payload: '' }],
  })
  const result = await importInto(join(dir, 'data'), source)
  expect(result.exitCode).toBe(0)
  report = result.report
  app = await startImported(join(dir, 'data'))
}, 60_000)
afterAll(async () => {
  await app?.close()
  await upstream.stop()
  rmSync(dir, { recursive: true, force: true })
})

test('top-up orders keep their trade number, state, money and currency; a deleted user\'s are skipped', async () => {
  expect(await app.deps.repos.topups.findByTradeNo('USR2NOpaid')).toMatchObject({ userId: 2, status: 'success', amount: 10, quota: 5_000_000, moneyCents: 7300, currency: 'CNY', paymentProvider: 'epay', paymentMethod: 'alipay' })
  expect(await app.deps.repos.topups.findByTradeNo('USR2NOstripe')).toMatchObject({ status: 'pending', moneyCents: 500, currency: 'USD', paymentProvider: 'stripe' })
  expect(await app.deps.repos.topups.findByTradeNo('USR5NOghost')).toBeUndefined()
  expect(report.tables.top_ups).toMatchObject({ read: 3, imported: 2 })
})

test('plans as the API checks them: an EUR plan is skipped and reported, an upgrade group carried; a subscription order keeps its plan', async () => {
  const plans = await app.deps.repos.subscriptions.listPlans(false)
  expect(plans.map((p) => p.title).sort()).toEqual(['Daily', 'Plan 1'])
  expect(plans.find((p) => p.title === 'Plan 1')).toMatchObject({ priceCents: 990, currency: 'USD', totalAmount: 5_000_000, quotaResetPeriod: 'monthly', durationUnit: 'month', upgradeGroup: 'vip' })
  const issues = JSON.stringify(report.issues)
  expect(issues).toContain('currency must be one of USD, CNY')
  expect(issues).not.toContain('upgrade_group')
  const daily = plans.find((p) => p.title === 'Daily')!
  expect(await app.deps.repos.topups.findByTradeNo('SUBUSR2NOx')).toMatchObject({ planId: daily.id, status: 'success', moneyCents: 990, quota: 0 })
})

test("a held plan comes over with its period's use, and pays for the user's requests", async () => {
  const all = await app.deps.repos.subscriptions.listOfUser(2)
  // the plan that raised its holder keeps its upgrade group and the group its end gives back
  expect(all.find((h) => h.status === 'cancelled')).toMatchObject({ upgradeGroup: 'vip', prevUserGroup: 'default' })
  const held = all.filter((h) => h.status === 'active')
  expect(held).toHaveLength(1) // the one on the skipped plan is not
  expect(held[0]).toMatchObject({ amountTotal: 5_000_000, amountUsed: 1_000, status: 'active' })
  const spendable = await app.deps.repos.subscriptions.spendable(2, now)
  expect(spendable.map((s) => s.id)).toEqual([held[0]!.id])
})

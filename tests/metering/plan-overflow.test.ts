/**
 * A cost above the reservation (the vendor counted more than was reserved) with plans in the mix, on SQLite and
 * PostgreSQL: the plan's period pays as far as it can, then the wallet when the preference lets it, and what no source
 * holds becomes the covering plan's debt, which its next period starts with; `wallet_first` falls back to the plan at
 * the reservation and at settlement. Nothing is left unpaid while a covering plan is in the preference.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { appDialects } from '../helpers/test-app'
import { grantOf } from '../../src/subscriptions/grant'
import { subscriptionsOf } from '../../src/subscriptions/plans'
import { account, chat, chatBody, logsWhen, settled, startMeteredEnv, userRow } from './env'

const PER_CALL = 1000 // gpt-4o: ModelPrice 0.002 × QuotaPerUnit 500,000
// gpt-4.1 is priced by tokens (1 quota per input token, 4 per output): an answer longer than max_tokens costs more than its reservation
const LONG = { text: 'ok', usage: { input: 10, output: 1000 } }
const SHORT = { text: 'ok', usage: { input: 10, output: 10 } }

for (const dialect of appDialects()) describe.skipIf(dialect.skip)(dialect.name, () => {
  let env: RelayEnv
  let offset = 0
  let cost = { actual: 0, reserved: 0 }
  const now = () => Math.floor(env.app.deps.clock.now() / 1000)
  beforeAll(async () => {
    env = await startMeteredEnv(await dialect.env())
    await env.addChannel({ type: 1, models: 'gpt-4o,gpt-4.1' })
    await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002 })
    env.app.deps.clock.now = () => Date.now() + offset * 1000
    // what one long gpt-4.1 answer costs, and what it reserves, paid by a wallet alone
    env.upstream.setBehavior(LONG)
    const { user, key } = await account(env, 1_000_000)
    expect((await chat(env, key, chatBody('gpt-4.1'))).status).toBe(200)
    const [row] = await logsWhen(env, user.id, 1)
    cost = { actual: row!.quota, reserved: JSON.parse(row!.other).reserved }
    expect(cost.actual).toBeGreaterThan(cost.reserved + 100)
  }, 60_000)
  afterAll(() => env.stop())

  const subs = () => env.app.deps.repos.subscriptions
  async function holder(wallet: number, totalAmount: number, preference: string, quotaResetPeriod = 'never', days = 3) {
    const plan = await subs().insertPlan({ title: 'Pro', priceCents: 1000, durationUnit: 'day', durationValue: days, totalAmount, quotaResetPeriod })
    const { user, key } = await account(env, wallet)
    const held = await subs().grant(grantOf(plan, user.id, now(), 'admin'))
    await subs().setPreference(user.id, preference)
    return { user, key, held }
  }
  const used = async (id: number) => (await subs().findById(id))!.amountUsed
  async function request(key: string, model: string, behavior = LONG) {
    env.upstream.setBehavior(behavior)
    env.outcomes.length = 0
    const res = await chat(env, key, chatBody(model))
    if (res.status === 200) await settled(env, 1)
    return res.status
  }
  const lastLog = async (userId: number, count: number) => {
    const rows = (await logsWhen(env, userId, count)).filter((l) => l.type === 2)
    const row = rows.at(-1)!
    return { quota: row.quota, other: JSON.parse(row.other) as Record<string, number | undefined> }
  }

  test("plan only, at the period's boundary: the plan pays the whole cost, its excess a debt the next day starts with", async () => {
    offset = 0
    const total = cost.reserved + 5
    const debt = cost.actual - total
    const { user, key, held } = await holder(1_000_000, total, 'subscription_only', 'daily', 30)
    expect(await request(key, 'gpt-4.1')).toBe(200)
    const log = await lastLog(user.id, 1)
    expect(log).toMatchObject({ quota: cost.actual, other: { plan_debt: debt, subscription_id: held.id } })
    expect(log.other.unpaid).toBeUndefined()
    expect(await used(held.id)).toBe(cost.actual) // beyond the quota by the debt
    expect((await userRow(env, user.id)).quota).toBe(1_000_000) // the wallet never pays under subscription_only
    expect(await request(key, 'gpt-4o', SHORT)).toBe(403) // nothing left today
    // each day after pays one quota of the debt: the next day starts with all of it (more than a day's quota here)
    const day = (n: number) => (offset = 86_400 * n - (Math.floor(Date.now() / 1000) % 86_400) + 1)
    const usedToday = async () => (await subscriptionsOf(subs(), user.id, now())).subscriptions[0]!.subscription.amount_used // what /api/subscription/self shows
    day(1)
    expect(await usedToday()).toBe(debt)
    expect(await request(key, 'gpt-4.1')).toBe(403)
    const paidOff = Math.floor(debt / total) + 1 // the day whose start leaves less than one quota of it
    day(paidOff)
    expect(await usedToday()).toBe(debt % total)
    day(paidOff + 1)
    expect(await usedToday()).toBe(0)
    expect(await request(key, 'gpt-4.1')).toBe(200) // the debt is paid: a day's whole quota again
    expect(await used(held.id)).toBe(cost.actual)
    offset = 0
  }, 30_000)

  test('plan first: the period, then the wallet as far as it reaches, then the debt: every unit charged', async () => {
    const total = cost.reserved + 5
    const wallet = 7
    const { user, key, held } = await holder(wallet, total, 'subscription_first')
    expect(await request(key, 'gpt-4.1')).toBe(200)
    const debt = cost.actual - total - wallet
    const log = await lastLog(user.id, 1)
    expect(log).toMatchObject({ quota: cost.actual, other: { plan_debt: debt, subscription_id: held.id } })
    expect(log.other.unpaid).toBeUndefined()
    expect((await userRow(env, user.id)).quota).toBe(0)
    expect(await used(held.id)).toBe(total + debt)
  }, 30_000)

  test('wallet first, the wallet empty: the plan holds the reservation', async () => {
    const { user, key, held } = await holder(0, 10 * PER_CALL, 'wallet_first')
    expect(await request(key, 'gpt-4o', SHORT)).toBe(200)
    expect(await used(held.id)).toBe(PER_CALL)
    expect(await lastLog(user.id, 1)).toMatchObject({ quota: PER_CALL, other: { subscription_id: held.id } })
  }, 30_000)

  test('wallet first: a cost the wallet cannot cover at settlement is taken from the plan, within its quota', async () => {
    const wallet = cost.reserved + 3
    const { user, key, held } = await holder(wallet, 100_000, 'wallet_first')
    expect(await request(key, 'gpt-4.1')).toBe(200)
    expect((await userRow(env, user.id)).quota).toBe(0)
    expect(await used(held.id)).toBe(cost.actual - wallet)
    const { quota, other } = await lastLog(user.id, 1)
    expect(quota).toBe(cost.actual)
    expect(other.unpaid).toBeUndefined()
  }, 30_000)

  test('wallet first, the plan nearly spent too: the wallet, the rest of the period, then the debt', async () => {
    const wallet = cost.reserved + 3
    const { user, key, held } = await holder(wallet, 10 * PER_CALL, 'wallet_first')
    // the plan spent to 20 short of its quota (as other requests would)
    expect((await subs().take(held.id, 10 * PER_CALL - 20, now(), { start: 0, next: 0 })).ok).toBe(true)
    expect(await request(key, 'gpt-4.1')).toBe(200)
    const { quota, other } = await lastLog(user.id, 1)
    expect(quota).toBe(cost.actual)
    expect(other).toMatchObject({ subscription_id: held.id, plan_debt: cost.actual - wallet - 20 })
    expect(other.unpaid).toBeUndefined()
    expect((await userRow(env, user.id)).quota).toBe(0)
    expect(await used(held.id)).toBe(10 * PER_CALL + cost.actual - wallet - 20)
  }, 30_000)
})

/**
 * Subscription plans in metering, on SQLite and PostgreSQL: parallel requests against a plan's period quota never
 * overspend it, a failed request charges neither the plan nor the wallet, the billing preference orders plan and
 * wallet, a period's quota comes back once the clock crosses its reset, and an expired plan pays for nothing at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { appDialects } from '../helpers/test-app'
import { grantOf } from '../../src/subscriptions/grant'
import { creditOrder, openOrder } from '../../src/payments/orders'
import { account, chat, chatBody, logsWhen, settled, startMeteredEnv, userRow } from './env'
import { rawPost } from './raw-http'

const PER_CALL = 1000 // ModelPrice 0.002 × QuotaPerUnit 500,000

for (const dialect of appDialects()) describe.skipIf(dialect.skip)(dialect.name, () => {
  let env: RelayEnv
  let offset = 0
  let channelId = 0
  const now = () => Math.floor(env.app.deps.clock.now() / 1000)
  beforeAll(async () => {
    env = await startMeteredEnv(await dialect.env())
    channelId = await env.addChannel({ type: 1, models: 'gpt-4o,gpt-4o-mini,gpt-4.1' })
    await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002, 'gpt-4o-mini': 0.002 })
    env.app.deps.clock.now = () => Date.now() + offset * 1000
  }, 60_000)
  afterAll(() => env.stop())

  const subs = () => env.app.deps.repos.subscriptions
  async function holder(wallet: number, plan: { totalAmount: number; remain?: number; quotaResetPeriod?: string; durationUnit?: string; durationValue?: number; models?: string }) {
    const row = await subs().insertPlan({ title: 'Pro', priceCents: 1000, durationUnit: plan.durationUnit ?? 'month', durationValue: plan.durationValue ?? 1, totalAmount: plan.totalAmount, quotaResetPeriod: plan.quotaResetPeriod ?? 'never', models: plan.models ?? '' })
    const { user, key } = await account(env, wallet, plan.remain)
    const held = await subs().grant(grantOf(row, user.id, now(), 'admin'))
    return { user, key, held }
  }
  const used = async (id: number) => (await subs().findById(id))!.amountUsed

  test('200 parallel requests against a period quota of 50 calls: exactly 50 served, the wallet untouched', async () => {
    offset = 0
    env.upstream.setBehavior({ text: 'ok', firstByteDelayMs: 10, usage: { input: 10, output: 10 } })
    env.outcomes.length = 0
    const { user, key, held } = await holder(0, { totalAmount: 50 * PER_CALL })
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const text = JSON.stringify(chatBody('gpt-4o'))
    const statuses = await Promise.all(Array.from({ length: 200 }, () => rawPost(env.app.url, '/v1/chat/completions', headers, text).then((r) => r.status)))
    await settled(env, 50)
    expect(statuses.filter((s) => s === 200)).toHaveLength(50)
    expect(statuses.filter((s) => s === 403)).toHaveLength(150)
    expect(await used(held.id)).toBe(50 * PER_CALL)
    const after = await userRow(env, user.id)
    expect(after.quota).toBe(0)
    const logs = await logsWhen(env, user.id, 200)
    const charged = logs.filter((l) => l.type === 2)
    expect(charged).toHaveLength(50)
    expect(charged.reduce((sum, l) => sum + l.quota, 0)).toBe(50 * PER_CALL)
    expect(JSON.parse(charged[0]!.other).subscription_id).toBe(held.id)
  }, 60_000)

  test('a failed request charges neither the plan nor the wallet', async () => {
    const { user, key, held } = await holder(5 * PER_CALL, { totalAmount: 10 * PER_CALL })
    env.upstream.setBehavior({ error: { status: 400 } })
    env.outcomes.length = 0
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(400)
    await settled(env, 1)
    expect(await used(held.id)).toBe(0)
    expect((await userRow(env, user.id)).quota).toBe(5 * PER_CALL)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
  }, 30_000)

  test('plan first, then the wallet; wallet first; plan only refuses once the plan is spent', async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const { user, key, held } = await holder(3 * PER_CALL, { totalAmount: 1 * PER_CALL })
    const served = async () => {
      env.outcomes.length = 0
      const res = await chat(env, key, chatBody('gpt-4o'))
      if (res.status === 200) await settled(env, 1)
      return res.status
    }
    expect(await served()).toBe(200) // the plan's one call
    expect(await used(held.id)).toBe(PER_CALL)
    expect(await served()).toBe(200) // the wallet's
    expect((await userRow(env, user.id)).quota).toBe(2 * PER_CALL)
    await subs().setPreference(user.id, 'subscription_only')
    expect(await served()).toBe(403)
    expect((await userRow(env, user.id)).quota).toBe(2 * PER_CALL)
    await subs().setPreference(user.id, 'wallet_first')
    expect(await served()).toBe(200)
    expect((await userRow(env, user.id)).quota).toBe(PER_CALL)
  }, 30_000)

  test("a plan pays only for its models: another model goes to the wallet", async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const { user, key, held } = await holder(PER_CALL, { totalAmount: 10 * PER_CALL, models: 'gpt-4o' })
    env.outcomes.length = 0
    expect((await chat(env, key, chatBody('gpt-4o-mini'))).status).toBe(200)
    await settled(env, 1)
    expect(await used(held.id)).toBe(0)
    expect((await userRow(env, user.id)).quota).toBe(0)
  }, 30_000)

  test("a daily plan's quota comes back once the clock passes midnight UTC, and an expired plan stops at once", async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    offset = 0
    const { key, held } = await holder(0, { totalAmount: PER_CALL, quotaResetPeriod: 'daily', durationUnit: 'day', durationValue: 2 })
    const status = async () => {
      env.outcomes.length = 0
      const res = await chat(env, key, chatBody('gpt-4o'))
      if (res.status === 200) await settled(env, 1)
      return res.status
    }
    expect(await status()).toBe(200)
    expect(await status()).toBe(403) // the day's quota is spent
    const secondsToMidnight = 86_400 - (now() % 86_400)
    offset = secondsToMidnight + 1
    expect(await status()).toBe(200) // a new day
    const row = (await subs().findById(held.id))!
    expect(row.amountUsed).toBe(PER_CALL)
    expect(row.lastResetTime).toBe(now() - (now() % 86_400))
    offset = held.endTime - Math.floor(Date.now() / 1000) // the plan's last second has passed
    expect(await status()).toBe(403)
    offset = 0
  }, 30_000)
  // gpt-4.1 is priced by tokens (1 quota per input token, 4 per output): an answer longer than max_tokens costs more than its reservation
  const LONG = { text: 'ok', usage: { input: 10, output: 1000 } }
  async function walletCost() {
    env.upstream.setBehavior(LONG)
    const { user, key } = await account(env, 1_000_000)
    env.outcomes.length = 0
    expect((await chat(env, key, chatBody('gpt-4.1'))).status).toBe(200)
    const [row] = await logsWhen(env, user.id, 1)
    return { actual: row!.quota, reserved: JSON.parse(row!.other).reserved as number }
  }
  const spent = async (id: number) => { const u = await userRow(env, id); return u.quota }

  test('a cost beyond what the plan can still give in its period: the rest comes from the wallet, nothing unpaid', async () => {
    const { actual, reserved } = await walletCost()
    expect(actual).toBeGreaterThan(reserved)
    const { user, key, held } = await holder(1_000_000, { totalAmount: reserved + 5 })
    env.outcomes.length = 0
    expect((await chat(env, key, chatBody('gpt-4.1'))).status).toBe(200)
    const [row] = await logsWhen(env, user.id, 1)
    expect(row!.quota).toBe(actual)
    expect(JSON.parse(row!.other).unpaid).toBeUndefined()
    expect(await used(held.id)).toBe(reserved + 5)
    expect(await spent(user.id)).toBe(1_000_000 - (actual - reserved - 5))
  }, 30_000)

  test('30 parallel requests at the plan boundary, each costing more than reserved: plan never beyond its quota, every unit paid', async () => {
    const { actual, reserved } = await walletCost()
    const wallet = 40 * actual
    const total = 10 * reserved + Math.floor(reserved / 2)
    const { user, key, held } = await holder(wallet, { totalAmount: total })
    env.upstream.setBehavior({ ...LONG, firstByteDelayMs: 10 })
    env.outcomes.length = 0
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const text = JSON.stringify(chatBody('gpt-4.1'))
    const statuses = await Promise.all(Array.from({ length: 30 }, () => rawPost(env.app.url, '/v1/chat/completions', headers, text).then((r) => r.status)))
    expect(statuses.every((s) => s === 200)).toBe(true)
    await settled(env, 30)
    const logs = (await logsWhen(env, user.id, 30)).filter((l) => l.type === 2)
    expect(logs).toHaveLength(30)
    expect(logs.every((l) => l.quota === actual && JSON.parse(l.other).unpaid === undefined)).toBe(true)
    const planUsed = await used(held.id)
    expect(planUsed).toBeLessThanOrEqual(total)
    expect(planUsed + (wallet - (await spent(user.id)))).toBe(30 * actual)
  }, 60_000)

  test("a limited API key is held and charged when a plan pays", async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const { user, key, held } = await holder(0, { totalAmount: 100 * PER_CALL, remain: PER_CALL + PER_CALL / 2 })
    const token = (await env.app.deps.repos.tokens.listOwned(user.id, 0, 10)).items[0]!
    env.outcomes.length = 0
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    await settled(env, 1)
    await userRow(env, user.id)
    env.app.deps.repos.tokens.forget(token.id)
    expect(await env.app.deps.repos.tokens.findById(token.id)).toMatchObject({ remainQuota: PER_CALL / 2, usedQuota: PER_CALL })
    const refused = await chat(env, key, chatBody('gpt-4o'))
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as any).error.message).toContain(`this API key has ${PER_CALL / 2} left`)
    expect(await used(held.id)).toBe(PER_CALL)
    expect((await env.app.deps.repos.tokens.findById(token.id))!.remainQuota).toBe(PER_CALL / 2)
  }, 30_000)

  test("a plan-paid request counts in the user's and the channel's used quota and requests", async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const { user, key } = await holder(0, { totalAmount: 100 * PER_CALL })
    const channelBefore = (await env.app.deps.repos.channels.findById(channelId))!.usedQuota
    env.outcomes.length = 0
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    await settled(env, 2)
    expect(await userRow(env, user.id)).toMatchObject({ quota: 0, usedQuota: 2 * PER_CALL, requestCount: 2 })
    const token = (await env.app.deps.repos.tokens.listOwned(user.id, 0, 10)).items[0]!
    expect(token.usedQuota).toBe(2 * PER_CALL)
    expect((await env.app.deps.repos.channels.findById(channelId))!.usedQuota - channelBefore).toBe(2 * PER_CALL)
  }, 30_000)
  test('a user who held no plan is served by the plan once granted, or once bought (no plan remembered across either)', async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const plan = await subs().insertPlan({ title: 'Bought', priceCents: 1000, durationUnit: 'month', durationValue: 1, totalAmount: 10 * PER_CALL, quotaResetPeriod: 'never', models: '' })
    for (const how of ['grant', 'purchase'] as const) {
      const { user, key } = await account(env, 5 * PER_CALL)
      env.outcomes.length = 0
      expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200) // the wallet pays: no plan held
      await settled(env, 1)
      expect((await userRow(env, user.id)).quota).toBe(4 * PER_CALL)
      if (how === 'grant') await subs().grant(grantOf(plan, user.id, now(), 'admin'))
      else {
        const deps = { repos: env.app.deps.repos, now }
        const order = await openOrder(deps, user, { amount: 0, quota: 0, moneyCents: 1000, currency: 'USD', planId: plan.id }, { provider: 'stripe', method: 'stripe' })
        expect((await creditOrder(deps, order.tradeNo, {}, { ip: '127.0.0.1', by: 'test' })).outcome).toBe('credited')
      }
      env.outcomes.length = 0
      expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
      await settled(env, 1)
      expect((await userRow(env, user.id)).quota).toBe(4 * PER_CALL) // the plan paid
      const [held] = await subs().listOfUser(user.id)
      expect(held!.amountUsed).toBe(PER_CALL)
    }
  }, 30_000)
})

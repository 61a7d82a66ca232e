/**
 * Subscription plans in metering, on SQLite and PostgreSQL: parallel requests against a plan's period quota never
 * overspend it, a failed request charges neither the plan nor the wallet, the billing preference orders plan and
 * wallet, a period's quota comes back once the clock crosses its reset, and an expired plan pays for nothing at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { appDialects } from '../helpers/test-app'
import { grantOf } from '../../src/subscriptions/grant'
import { account, chat, chatBody, logsWhen, settled, startMeteredEnv, userRow } from './env'
import { rawPost } from './raw-http'

const PER_CALL = 1000 // ModelPrice 0.002 × QuotaPerUnit 500,000

for (const dialect of appDialects()) describe.skipIf(dialect.skip)(dialect.name, () => {
  let env: RelayEnv
  let offset = 0
  const now = () => Math.floor(env.app.deps.clock.now() / 1000)
  beforeAll(async () => {
    env = await startMeteredEnv(await dialect.env())
    await env.addChannel({ type: 1, models: 'gpt-4o,gpt-4o-mini' })
    await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002, 'gpt-4o-mini': 0.002 })
    env.app.deps.clock.now = () => Date.now() + offset * 1000
  }, 60_000)
  afterAll(() => env.stop())

  const subs = () => env.app.deps.repos.subscriptions
  async function holder(wallet: number, plan: { totalAmount: number; quotaResetPeriod?: string; durationUnit?: string; durationValue?: number; models?: string }) {
    const row = await subs().insertPlan({ title: 'Pro', priceCents: 1000, durationUnit: plan.durationUnit ?? 'month', durationValue: plan.durationValue ?? 1, totalAmount: plan.totalAmount, quotaResetPeriod: plan.quotaResetPeriod ?? 'never', models: plan.models ?? '' })
    const { user, key } = await account(env, wallet)
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
})

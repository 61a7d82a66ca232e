import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { account, logsOf, logsWhen, settled, userRow } from './env'
import { rawPost } from './raw-http'
import { startOperationsEnv, type OperationsEnv } from '../operations/env'
import '../helpers/fake-upstreams/completions' // the fake's routes
import '../helpers/fake-upstreams/images'

/**
 * The operations' outputs: legacy completions' `n` and `best_of` (every one generated and billed, for every prompt)
 * and images' `n` are reserved in the worst case and capped by MaxChoicesPerRequest (a 400 naming the field).
 */
const MODEL = 'gpt-3.5-turbo-instruct'
let o: OperationsEnv

beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, `${MODEL},dall-e-2`)
  await o.env.app.deps.options.set('ModelRatio', { [MODEL]: 1 })
  await o.env.app.deps.options.set('CompletionRatio', { [MODEL]: 1 })
  await o.env.app.deps.options.set('ImagePrice', { 'dall-e-2': { '1024x1024': 0.002 } }) // 1,000 quota an image
})
afterAll(() => o.stop())
beforeEach(async () => {
  o.env.outcomes.length = 0
  await o.env.app.deps.options.set('MaxChoicesPerRequest', 10)
})

const post = (path: string, key: string, body: unknown) =>
  o.env.app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

async function refusedBeforeDispatch(res: Response, userId: number, balance: number, status: number, param?: string) {
  const before = o.up.requests.length
  expect(res.status).toBe(status)
  const body = (await res.json()) as { error: { param?: string } }
  if (param) expect(body.error.param).toBe(param)
  const rows = await logsWhen(o.env, userId, 1)
  expect(rows.map((r) => [r.type, r.quota])).toEqual([[5, 0]])
  expect(o.up.requests.length).toBe(before)
  expect((await userRow(o.env, userId)).quota).toBe(balance)
}

describe('legacy completions', () => {
  test('best_of above MaxChoicesPerRequest is a 400 naming best_of, before dispatch', async () => {
    const { user, key } = await account(o.env, 1_000_000)
    const before = o.up.requests.length
    const res = await post('/v1/completions', key, { model: MODEL, prompt: 'a', best_of: 20, max_tokens: 5 })
    expect(o.up.requests.length).toBe(before)
    await refusedBeforeDispatch(res, user.id, 1_000_000, 400, 'best_of')
  })

  test('best_of without max_tokens is sent with the max_tokens the balance buys for each; under MinOutputTokens each, refused before dispatch', async () => {
    const poor = await account(o.env, 1024 * 5)
    await refusedBeforeDispatch(await post('/v1/completions', poor.key, { model: MODEL, prompt: 'a', best_of: 5 }), poor.user.id, 1024 * 5, 403)
    const { user, key } = await account(o.env, 4096 * 3)
    const before = o.up.requests.length
    const res = await post('/v1/completions', key, { model: MODEL, prompt: 'a', best_of: 5 })
    expect(res.status).toBe(200)
    await settled(o.env, 1)
    const cap = o.up.requests[before]!.json.max_tokens as number
    expect(cap).toBeGreaterThanOrEqual(1024)
    expect(cap * 5).toBeLessThanOrEqual(4096 * 3)
    const [row] = await logsOf(o.env, user.id)
    expect(JSON.parse(row!.other).reserved).toBeLessThanOrEqual(4096 * 3)
  })

  test('n for every prompt is reserved and settled on the usage', async () => {
    const { user, key } = await account(o.env, 10_000)
    const res = await post('/v1/completions', key, { model: MODEL, prompt: ['a', 'bb'], n: 4, max_tokens: 5 })
    expect(res.status).toBe(200)
    await settled(o.env, 1)
    const [row] = await logsOf(o.env, user.id)
    const other = JSON.parse(row!.other)
    expect(other.reserved).toBe(row!.promptTokens + 2 * 4 * 5)
    expect(other.unpaid).toBeUndefined()
    expect(row!.quota).toBe(row!.promptTokens + row!.completionTokens)
  })
})

describe('images n', () => {
  test('n above MaxChoicesPerRequest is a 400 naming n, before dispatch', async () => {
    await o.env.app.deps.options.set('MaxChoicesPerRequest', 4)
    const { user, key } = await account(o.env, 1_000_000)
    const res = await post('/v1/images/generations', key, { model: 'dall-e-2', prompt: 'a fox', n: 5, size: '1024x1024' })
    await refusedBeforeDispatch(res, user.id, 1_000_000, 400, 'n')
  })

  test('twenty concurrent n=10 generations never overdraw: each reserves 10 images, no unpaid row', async () => {
    const balance = 25_000
    const { user, key } = await account(o.env, balance)
    const body = JSON.stringify({ model: 'dall-e-2', prompt: 'a fox', n: 10, size: '1024x1024' })
    const results = await Promise.all(
      Array.from({ length: 20 }, () => rawPost(o.env.app.url, '/v1/images/generations', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body)),
    )
    const served = results.filter((r) => r.status === 200).length
    expect(served).toBeGreaterThan(0)
    expect(served).toBeLessThanOrEqual(2)
    expect(results.every((r) => r.status === 200 || r.status === 403)).toBe(true)
    await settled(o.env, served)
    const rows = await logsWhen(o.env, user.id, 20)
    expect(rows.filter((r) => JSON.parse(r.other).unpaid !== undefined)).toEqual([])
    expect(rows.reduce((n, r) => n + r.quota, 0)).toBe(served * 10_000)
    expect((await userRow(o.env, user.id)).quota).toBe(balance - served * 10_000)
  }, 30_000)
})

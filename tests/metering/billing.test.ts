import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { countRequestTokens } from '../../src/relay/meter/tokenize'
import { protocolFor } from '../../src/relay/protocol-registry'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, chatBody, logsOf, messages, settled, startMeteredEnv, userRow } from './env'
import { until } from '../helpers/wait'

/**
 * Quota through the real relay: exact charges per price mode, cache-aware pricing, refunds on failure,
 * insufficient quota, and the usage counters on user, token and channel.
 */
let env: RelayEnv
let openaiChannel: number
let anthropicChannel: number

beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelFailureThreshold', 1000) // failure tests must not disable the channel
  openaiChannel = await env.addChannel({ type: 1, models: 'gpt-4o,unpriced-model', name: 'openai' })
  anthropicChannel = await env.addChannel({ type: 14, models: 'claude-sonnet-4-5', name: 'anthropic' })
})
afterAll(() => env.stop())
beforeEach(async () => {
  env.upstream.reset()
  env.outcomes.length = 0
  const o = env.app.deps.options
  await o.set('ModelPrice', {})
  await o.set('GroupRatio', { default: 1 })
  await o.set('SelfUseModeEnabled', false)
})

describe('token prices, exact to the unit', () => {
  test('OpenAI upstream: cached input at CacheRatio, reasoning as output (gpt-4o: 1.25 / ×4 / ×0.5)', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 100, cacheRead: 1000, output: 50, reasoning: 10 } })
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(200)
    // (100 + 1000 × 0.5 + 50 × 4) × 1.25 = 1000
    expect((await userRow(env, user.id)).quota).toBe(1_000_000 - 1000)
    const [log] = await logsOf(env, user.id)
    expect(log).toMatchObject({ type: 2, quota: 1000, promptTokens: 1100, completionTokens: 50, cacheReadTokens: 1000, cacheWriteTokens: 0, reasoningTokens: 10 })
  })

  test('Anthropic upstream: cache reads ×0.1 and cache writes ×1.25 (claude-sonnet-4-5: 1.5 / ×5)', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 100, cacheRead: 1000, cacheWrite: 200, output: 50 } })
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(200)
    // (100 + 1000 × 0.1 + 200 × 1.25 + 50 × 5) × 1.5 = 1050
    expect((await userRow(env, user.id)).quota).toBe(1_000_000 - 1050)
    expect((await logsOf(env, user.id))[0]).toMatchObject({ quota: 1050, promptTokens: 1300, cacheReadTokens: 1000, cacheWriteTokens: 200, channelId: anthropicChannel })
  })

  test('a stream is billed by the usage it reports (Anthropic client, OpenAI upstream: conversion)', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'streamed answer', usage: { input: 40, output: 10 } })
    const anthropicOnOpenai = await env.addChannel({ type: 1, models: 'claude-3-haiku', name: 'conv' })
    const res = await messages(env, key, { model: 'claude-3-haiku', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] })
    await res.text()
    await settled(env, 1)
    // claude-3-haiku: ratio 0.125, completion 5 → (40 + 10 × 5) × 0.125 = 11.25 → 11
    expect((await userRow(env, user.id)).quota).toBe(1_000_000 - 11)
    expect((await logsOf(env, user.id))[0]).toMatchObject({ quota: 11, isStream: true, channelId: anthropicOnOpenai, promptTokens: 40, completionTokens: 10 })
  })

  test('GroupRatio multiplies the charge', async () => {
    await env.app.deps.options.set('GroupRatio', { default: 2 })
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 50 } })
    await chat(env, key, chatBody('gpt-4o'))
    expect((await userRow(env, user.id)).quota).toBe(1_000_000 - 2 * (100 + 200) * 1.25)
  })
})

describe('fixed price per call', () => {
  test('ModelPrice US$0.01 = 5,000 quota, whatever the tokens', async () => {
    await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.01 })
    const { user, key } = await account(env, 100_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 100_000, output: 50_000 } })
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    expect((await userRow(env, user.id)).quota).toBe(95_000)
    expect((await logsOf(env, user.id))[0]!.quota).toBe(5000)
  })
})

describe('models without a price', () => {
  test('refused with model_price_error in the OpenAI shape; nothing reaches the upstream', async () => {
    const { user, key } = await account(env, 1_000_000)
    const res = await chat(env, key, chatBody('unpriced-model'))
    expect(res.status).toBe(400)
    const body = (await res.json()) as any
    expect(body.error.code).toBe('model_price_error')
    expect(body.error.message).toContain('unpriced-model')
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(1_000_000)
  })

  test('SelfUseModeEnabled serves them free, and logs them with quota 0', async () => {
    await env.app.deps.options.set('SelfUseModeEnabled', true)
    const { user, key } = await account(env, 0)
    expect((await chat(env, key, chatBody('unpriced-model'))).status).toBe(200)
    expect((await logsOf(env, user.id))[0]).toMatchObject({ type: 2, quota: 0, modelName: 'unpriced-model' })
    expect((await userRow(env, user.id)).requestCount).toBe(1)
  })
})

describe('reservation', () => {
  test('not enough quota → 403 insufficient_quota naming the balance, in the client’s shape; nothing is taken', async () => {
    const { user, key } = await account(env, 100)
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(403)
    const body = (await res.json()) as any
    expect(body.error.code).toBe('insufficient_quota')
    expect(body.error.message).toContain('the balance is 100')
    const anthropic = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
    expect(anthropic.status).toBe(403)
    expect(((await anthropic.json()) as any).error.message).toContain('insufficient quota')
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(100)
  })

  test('a limited API key is held to its own balance, and both balances move together', async () => {
    const { user, key } = await account(env, 1_000_000, 50)
    const refused = await chat(env, key, chatBody('gpt-4o'))
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as any).error.message).toContain('this API key has 50 left')
    expect((await userRow(env, user.id)).quota).toBe(1_000_000) // the user part was never taken, or was rolled back

    const { user: u2, key: k2 } = await account(env, 1_000_000, 10_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    expect((await chat(env, k2, chatBody('gpt-4o'))).status).toBe(200)
    const token = (await env.app.deps.repos.tokens.findByKeyHash(
      new Bun.CryptoHasher('sha256').update(k2.slice(3)).digest('hex'),
    ))!
    const charge = (10 + 10 * 4) * 1.25 // 62.5 → 63
    expect((await userRow(env, u2.id)).quota).toBe(1_000_000 - 63)
    expect(await env.app.deps.repos.tokens.findById(token.id)).toMatchObject({ remainQuota: 10_000 - 63, usedQuota: 63 })
    expect(charge).toBe(62.5)
  })

  test('the reservation is the byte count of the prompt (a bound on its tokens) plus max_tokens, held while the request runs', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'slow', firstByteDelayMs: 300, usage: { input: 10, output: 10 } })
    const body = chatBody('gpt-4o', { max_tokens: 1000 })
    const sent = env.upstream.requests.length
    const pending = chat(env, key, body)
    await until(() => env.upstream.requests.length > sent, { what: 'the request at the upstream' }) // reserved before it is sent
    const bound = Buffer.byteLength(JSON.stringify(body))
    expect(bound).toBeGreaterThan(countRequestTokens(protocolFor('openai-chat').decodeRequest(body).value))
    expect((await userRow(env, user.id)).quota).toBe(1_000_000 - Math.round((bound + 1000 * 4) * 1.25))
    expect((await pending).status).toBe(200)
    expect((await userRow(env, user.id)).quota).toBe(1_000_000 - 63)
  })
})

describe('failures cost nothing', () => {
  test('upstream 500 on every channel → 503, everything refunded, an error row with quota 0', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ error: { status: 500, message: 'boom' } })
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(503)
    const after = await userRow(env, user.id)
    expect(after.quota).toBe(1_000_000)
    expect(after.usedQuota).toBe(0)
    const [log] = await logsOf(env, user.id)
    expect(log).toMatchObject({ type: 5, quota: 0, statusCode: 503, channelId: openaiChannel })
    expect(log!.content).toContain('boom')
    expect(JSON.parse(log!.other).attempts[0]).toMatchObject({ status: 500 })
  })

  test('upstream 400 (not retried) → refunded', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ error: { status: 400, message: 'bad' } })
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(400)
    expect((await userRow(env, user.id)).quota).toBe(1_000_000)
  })

  test('an in-stream error before any content → refunded', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ streamError: { message: 'overloaded' } })
    const res = await chat(env, key, chatBody('gpt-4o', { stream: true }))
    await res.text()
    await settled(env, 1)
    expect((await userRow(env, user.id)).quota).toBe(1_000_000)
  })
})

describe('usage counters', () => {
  test('user used_quota and request_count, token used_quota and accessed_time, channel used_quota', async () => {
    const { user, key } = await account(env, 1_000_000)
    const channelBefore = (await env.app.deps.repos.channels.findById(openaiChannel))!.usedQuota
    env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 50 } })
    await chat(env, key, chatBody('gpt-4o'))
    await chat(env, key, chatBody('gpt-4o'))
    const u = await userRow(env, user.id)
    expect(u).toMatchObject({ quota: 1_000_000 - 750, usedQuota: 750, requestCount: 2 })
    const token = (await env.app.deps.repos.tokens.listOwned(user.id, 0, 10)).items[0]!
    expect(token.usedQuota).toBe(750)
    expect(token.accessedTime).toBeGreaterThan(Date.now() / 1000 - 60)
    expect((await env.app.deps.repos.channels.findById(openaiChannel))!.usedQuota - channelBefore).toBe(750)
  })
})

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { LogRow } from '../../src/db/repos'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, chatBody, logsOf, logsWhen, messages, startMeteredEnv, userRow } from './env'

/**
 * One log row per relay request, refused ones included: a request refused after its key was verified
 * (model, price, rate limit, quota, body) is an error row naming user, key, model, status, request id, ip
 * and the message the client got; nothing is charged. Requests that reach the reservation are logged by
 * settle, never twice. A request without a valid key belongs to no one and is not logged.
 */
let env: RelayEnv

beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o,unpriced-model', name: 'openai' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5', name: 'anthropic' })
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash', name: 'gemini' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})
afterEach(async () => {
  const o = env.app.deps.options
  for (const k of ['TokenRpmLimit', 'UserRpmLimit']) await o.set(k, 0)
  await o.set('LogConsumeEnabled', true)
})

/** Exactly one row for the user (checked again a moment later: no second row from elsewhere), and nothing charged. */
async function onlyRow(userId: number, quota: number): Promise<LogRow> {
  const rows = await logsWhen(env, userId, 1)
  await Bun.sleep(30)
  expect(await logsOf(env, userId)).toHaveLength(1)
  expect(rows).toHaveLength(1)
  const after = await userRow(env, userId)
  expect(after.quota).toBe(quota)
  expect(after.usedQuota).toBe(0)
  return rows[0]!
}

async function expectRefusalRow(res: Response, userId: number, quota: number, expected: { status: number; model: string; code: string; content: string }) {
  expect(res.status).toBe(expected.status)
  const row = await onlyRow(userId, quota)
  expect(row).toMatchObject({
    type: 5,
    userId,
    tokenName: 'test',
    modelName: expected.model,
    statusCode: expected.status,
    quota: 0,
    channelId: 0,
    group: 'default',
    ip: '127.0.0.1',
    requestId: res.headers.get('x-request-id')!,
  })
  expect(row.requestId).toMatch(/^req_/)
  expect(row.content).toContain(expected.content)
  expect(JSON.parse(row.other)).toEqual({ refused: expected.code })
  return row
}

describe('refused before the reservation: one error row each, nothing charged', () => {
  test('unknown model → 404', async () => {
    const { user, key } = await account(env, 1_000_000)
    const res = await chat(env, key, chatBody('no-such-model'))
    await expectRefusalRow(res, user.id, 1_000_000, { status: 404, model: 'no-such-model', code: 'model_not_found', content: 'model not found: "no-such-model"' })
  })

  test('a model the key may not use → 404', async () => {
    const { user } = await account(env, 1_000_000)
    const key = await env.newKey({ unlimited_quota: true, model_limits_enabled: true, model_limits: 'claude-sonnet-4-5' }, user)
    const res = await chat(env, key, chatBody('gpt-4o'))
    await expectRefusalRow(res, user.id, 1_000_000, { status: 404, model: 'gpt-4o', code: 'model_not_found', content: 'this token may not use it' })
  })

  test('a model without a price → 400 model_price_error', async () => {
    const { user, key } = await account(env, 1_000_000)
    const res = await chat(env, key, chatBody('unpriced-model'))
    await expectRefusalRow(res, user.id, 1_000_000, { status: 400, model: 'unpriced-model', code: 'model_price_error', content: 'unpriced-model' })
    expect(env.upstream.requests).toHaveLength(0)
  })

  test('insufficient quota → 403, in the Anthropic shape too', async () => {
    const { user, key } = await account(env, 100)
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
    await expectRefusalRow(res, user.id, 100, { status: 403, model: 'claude-sonnet-4-5', code: 'insufficient_quota', content: 'insufficient quota' })
  })

  test('rate limited → 429: the served request is a consume row, the refused one an error row', async () => {
    await env.app.deps.options.set('TokenRpmLimit', 1)
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    const res = await chat(env, key, chatBody('gpt-4o', { stream: true }))
    expect(res.status).toBe(429)
    // by type: on PostgreSQL the served request's settlement (a round trip) may be written after the refusal's row
    const rows = (await logsWhen(env, user.id, 2)).sort((a, b) => a.type - b.type)
    await Bun.sleep(30)
    expect(await logsOf(env, user.id)).toHaveLength(2)
    expect(rows.map((r) => [r.type, r.statusCode])).toEqual([[2, 200], [5, 429]])
    expect(rows[1]).toMatchObject({ quota: 0, modelName: 'gpt-4o', isStream: true, requestId: res.headers.get('x-request-id')! })
    expect(rows[1]!.content).toContain('requests per minute')
    expect((await userRow(env, user.id)).usedQuota).toBe(rows[0]!.quota)
  })

  test('a body that is not JSON → 400', async () => {
    const { user, key } = await account(env, 1_000_000)
    const res = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"model": "gpt-4o",' })
    await expectRefusalRow(res, user.id, 1_000_000, { status: 400, model: '', code: 'invalid_request', content: 'not valid JSON' })
  })

  test('a body that fails validation → 400 naming the field, with the model it asked for', async () => {
    const { user, key } = await account(env, 1_000_000)
    const res = await chat(env, key, { model: 'gpt-4o', messages: 'hello' })
    await expectRefusalRow(res, user.id, 1_000_000, { status: 400, model: 'gpt-4o', code: 'invalid_request', content: 'messages' })
  })

  test('Gemini ingress: the model comes from the path', async () => {
    const { user, key } = await account(env, 1_000_000)
    const res = await env.app.fetch('/v1beta/models/gemini-9-ultra:streamGenerateContent?alt=sse', {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    })
    await expectRefusalRow(res, user.id, 1_000_000, { status: 404, model: 'gemini-9-ultra', code: 'model_not_found', content: 'gemini-9-ultra' })
    expect((await logsOf(env, user.id))[0]!.isStream).toBe(true)
  })

  test('secrets in the message are masked; the caller’s key never appears', async () => {
    const { user, key } = await account(env, 1_000_000)
    const leaked = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789'
    const res = await chat(env, key, chatBody(leaked))
    const row = await expectRefusalRow(res, user.id, 1_000_000, { status: 404, model: 'sk-proj***6789', code: 'model_not_found', content: 'sk-proj***6789' })
    expect(row.content).not.toContain(leaked)
    expect(JSON.stringify(row)).not.toContain(key.replace(/^sk-/, ''))
  })

  test('LogConsumeEnabled off: no row', async () => {
    await env.app.deps.options.set('LogConsumeEnabled', false)
    const { user, key } = await account(env, 1_000_000)
    expect((await chat(env, key, chatBody('no-such-model'))).status).toBe(404)
    await Bun.sleep(30)
    expect(await logsOf(env, user.id)).toHaveLength(0)
  })
})

describe('refused after the reservation: settle’s row only', () => {
  test('upstream 400 passed back → one error row with the upstream message, refunded', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ error: { status: 400, message: 'bad temperature' } })
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(400)
    const row = await onlyRow(user.id, 1_000_000)
    expect(row).toMatchObject({ type: 5, statusCode: 400, quota: 0, modelName: 'gpt-4o', tokenName: 'test', requestId: res.headers.get('x-request-id')! })
    expect(row.content).toContain('bad temperature')
    expect(JSON.parse(row.other).attempts).toHaveLength(1)
  })

  test('every channel failed → 503, one error row with the retry path, refunded', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ error: { status: 500, message: 'boom' } })
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(503)
    const row = await onlyRow(user.id, 1_000_000)
    expect(row).toMatchObject({ type: 5, statusCode: 503, quota: 0, requestId: res.headers.get('x-request-id')! })
    expect(row.content).toContain('boom')
  })
})

test('requests without a valid key are not logged (they belong to no one)', async () => {
  const before = await env.app.deps.repos.logs.count({})
  const bad = await chat(env, 'sk-not-a-real-key-0000000000000000', chatBody('gpt-4o'))
  expect(bad.status).toBe(401)
  const none = await env.app.fetch('/v1/chat/completions', { method: 'POST', body: '{' })
  expect(none.status).toBe(401)
  await Bun.sleep(30)
  await env.app.deps.metering.logs.flush()
  expect(await env.app.deps.repos.logs.count({})).toBe(before)
})

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { LogRow } from '../../src/db/repos'
import type { RecordedRequest } from '../helpers/fake-upstreams'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, logsOf, logsWhen, messages, settled, startMeteredEnv, userRow } from './env'
import { rawPost } from './raw-http'

/**
 * A request without an output cap (chat without max_tokens/max_completion_tokens, Responses without
 * max_output_tokens, Gemini without maxOutputTokens) used to reserve DefaultMaxOutputTokens and go on without a
 * cap: a model that wrote more settled the rest as `unpaid` once the balance ran out. Now every priced request is
 * sent with a cap its hold pays for: the model's maximum output, lowered to what the balance buys, in the protocol's
 * own field, the client's bytes otherwise as sent; below MinOutputTokens it is refused before dispatch.
 */
let env: RelayEnv
const MODELS = ['gpt-4o', 'gpt-4.1', 'gpt-5', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'free-model']
/** what the fake model writes when nothing caps it (more than DefaultMaxOutputTokens, as a reasoning model may) */
const UNCAPPED = 20_000

beforeAll(async () => {
  env = await startMeteredEnv()
  const priced = MODELS.filter((m) => m !== 'free-model')
  // one quota per token, in and out: the arithmetic below is token counts
  await env.app.deps.options.set('ModelRatio', Object.fromEntries(priced.map((m) => [m, 1])))
  await env.app.deps.options.set('CompletionRatio', Object.fromEntries(priced.map((m) => [m, 1])))
  await env.app.deps.options.set('ModelPrice', { 'free-model': 0.001 }) // per call: output does not change the price
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o,gpt-5,free-model' }) // OpenAI: max_completion_tokens
  await env.addChannel({ type: 8, models: 'gpt-4.1' }) // an OpenAI-compatible server: max_tokens
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  // the model writes up to the cap it was sent, UNCAPPED without one
  env.upstream.setBehavior((req) => ({ text: 'ok', usage: { input: 10, output: Math.min(capOf(req) ?? UNCAPPED, UNCAPPED) } }))
})

function capOf(req: RecordedRequest): number | undefined {
  const j = req.json
  return j.max_completion_tokens ?? j.max_tokens ?? j.max_output_tokens ?? j.generationConfig?.maxOutputTokens ?? j.generation_config?.max_output_tokens
}

const unpaidOf = (rows: LogRow[]) => rows.filter((r) => JSON.parse(r.other).unpaid !== undefined)
const post = (path: string, headers: Record<string, string>, raw: string) => env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw })

/** Served, the cap within what the hold paid for, no `unpaid` row, the balance never below zero. */
async function paidInFull(userId: number, balance: number): Promise<{ row: LogRow; other: Record<string, any> }> {
  await settled(env, 1)
  const [row] = await logsOf(env, userId)
  const other = JSON.parse(row!.other)
  expect(other.unpaid).toBeUndefined()
  expect(row!.quota).toBeLessThanOrEqual(other.reserved)
  expect(other.reserved).toBeLessThanOrEqual(balance)
  expect((await userRow(env, userId)).quota).toBe(balance - row!.quota)
  return { row: row!, other }
}

describe('a request without an output cap is sent with the one its hold pays for', () => {
  test('chat passthrough to OpenAI: max_completion_tokens added to the client bytes (nothing else changed), lowered to what the balance buys', async () => {
    const { user, key } = await account(env, 5_000)
    const raw = '{"model":"gpt-4o",  "messages":[{"role":"user","content":"write a long story"}]\n}'
    const res = await post('/v1/chat/completions', { authorization: `Bearer ${key}` }, raw)
    expect(res.status).toBe(200)
    const sent = env.upstream.requests[0]!
    const cap = sent.json.max_completion_tokens as number
    expect(sent.body).toBe(`{"max_completion_tokens":${cap},${raw.slice(1)}`)
    expect(cap).toBeGreaterThan(4_096) // the balance's worth, not the old default
    expect(cap).toBeLessThan(5_000)
    const { other } = await paidInFull(user.id, 5_000)
    expect(other.warnings.join(' ')).toContain(`sent with one of ${cap} tokens, what the balance buys`)
  })

  test("with a balance to spare: the model's maximum output (gpt-4o: 16,384), said in the log row", async () => {
    const { user, key } = await account(env, 1_000_000)
    expect((await chat(env, key, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    expect(env.upstream.requests[0]!.json.max_completion_tokens).toBe(16_384)
    const { other } = await paidInFull(user.id, 1_000_000)
    expect(other.warnings).toContain("no output cap was set: sent with one of 16384 tokens, the model's maximum output (ModelMaxOutputTokens)")
  })

  test('ModelMaxOutputTokens sets the allowance; a model no table names gets DefaultMaxOutputTokens', async () => {
    const { key } = await account(env, 1_000_000)
    await env.app.deps.options.set('ModelMaxOutputTokens', { 'gpt-4o': 3_000 })
    try {
      expect((await chat(env, key, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
      expect(env.upstream.requests[0]!.json.max_completion_tokens).toBe(3_000)
    } finally {
      await env.app.deps.options.set('ModelMaxOutputTokens', {})
    }
  })

  test("an API key's remaining quota limits the cap as the balance does", async () => {
    const { user, key } = await account(env, 1_000_000, 5_000)
    expect((await chat(env, key, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    const cap = env.upstream.requests[0]!.json.max_completion_tokens as number
    expect(cap).toBeGreaterThan(4_096)
    expect(cap).toBeLessThan(5_000)
    await settled(env, 1)
    const [row] = await logsOf(env, user.id)
    expect(JSON.parse(row!.other).unpaid).toBeUndefined()
    expect(row!.quota).toBeLessThanOrEqual(5_000)
  })

  test('chat to an OpenAI-compatible server: max_tokens, the field it reads', async () => {
    const { user, key } = await account(env, 6_000)
    expect((await chat(env, key, { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    const sent = env.upstream.requests[0]!.json
    expect(sent.max_completion_tokens).toBeUndefined()
    expect(sent.max_tokens).toBeGreaterThan(4_096)
    await paidInFull(user.id, 6_000)
  })

  test('a stream too: the cap is in the body, usage settles within the hold', async () => {
    const { user, key } = await account(env, 5_000)
    const res = await chat(env, key, { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(200)
    await res.text()
    expect(env.upstream.requests[0]!.json.max_completion_tokens).toBeLessThan(5_000)
    await paidInFull(user.id, 5_000)
  })

  test('n outputs: each capped at its share of what the balance buys', async () => {
    const { user, key } = await account(env, 9_000)
    env.upstream.setBehavior((req) => ({ text: 'ok', usage: { input: 10, output: req.json.n * Math.min(capOf(req) ?? UNCAPPED, UNCAPPED) } }))
    expect((await chat(env, key, { model: 'gpt-4o', n: 3, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    const cap = env.upstream.requests[0]!.json.max_completion_tokens as number
    expect(cap).toBeGreaterThan(2_900)
    expect(cap * 3).toBeLessThan(9_000)
    await paidInFull(user.id, 9_000)
  })

  test('Responses passthrough: max_output_tokens added', async () => {
    const { user, key } = await account(env, 5_000)
    const raw = '{"model":"gpt-5","input":"write a long story","store":false}'
    expect((await post('/v1/responses', { authorization: `Bearer ${key}` }, raw)).status).toBe(200)
    const sent = env.upstream.requests[0]!
    const cap = sent.json.max_output_tokens as number
    expect(sent.body).toBe(`{"max_output_tokens":${cap},${raw.slice(1)}`)
    expect(cap).toBeGreaterThanOrEqual(1_024)
    await paidInFull(user.id, 5_000)
  })

  test('Gemini passthrough: maxOutputTokens set in the generationConfig sent (its other fields kept), or in a new one', async () => {
    const gemini = (key: string, raw: string) => post('/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': key }, raw)
    const contents = '"contents":[{"role":"user","parts":[{"text":"write a long story"}]}]'
    const first = await account(env, 5_000)
    expect((await gemini(first.key, `{${contents},"generationConfig":{"temperature":0.5}}`)).status).toBe(200)
    let sent = env.upstream.requests[0]!
    const cap = sent.json.generationConfig.maxOutputTokens as number
    expect(sent.body).toBe(`{${contents},"generationConfig":{"temperature":0.5,"maxOutputTokens":${cap}}}`)
    expect(cap).toBeLessThan(5_000)
    await paidInFull(first.user.id, 5_000)

    env.outcomes.length = 0
    const second = await account(env, 5_000)
    expect((await gemini(second.key, `{${contents}}`)).status).toBe(200)
    sent = env.upstream.requests[1]!
    expect(sent.body).toBe(`{"generationConfig":{"maxOutputTokens":${sent.json.generationConfig.maxOutputTokens}},${contents}}`)
    await paidInFull(second.user.id, 5_000)
  })

  test("Gemini's snake_case spelling: the cap is read in it (reserved as sent), and set in it when absent", async () => {
    const gemini = (key: string, body: unknown) => post('/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': key }, JSON.stringify(body))
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }]
    const { key } = await account(env, 5_000)
    expect((await gemini(key, { contents, generation_config: { max_output_tokens: 4_500 } })).status).toBe(200)
    expect(env.upstream.requests[0]!.json).toEqual({ contents, generation_config: { max_output_tokens: 4_500 } })
    expect((await gemini(key, { contents, generation_config: { temperature: 1 } })).status).toBe(403) // 4,500 reserved: 500 left
    const other = await account(env, 5_000)
    expect((await gemini(other.key, { contents, generation_config: { temperature: 1 } })).status).toBe(200)
    expect(env.upstream.requests[1]!.json.generation_config).toEqual({ temperature: 1, max_output_tokens: env.upstream.requests[1]!.json.generation_config.max_output_tokens })
    expect(env.upstream.requests[1]!.json.generation_config.max_output_tokens).toBeLessThan(5_000)
    expect(env.upstream.requests[1]!.json.generationConfig).toBeUndefined()
  })

  test('converted (chat → Anthropic): max_tokens is the cap the balance buys, not the encoder default of 8,192', async () => {
    const { user, key } = await account(env, 6_000)
    expect((await chat(env, key, { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    const cap = env.upstream.requests[0]!.json.max_tokens as number
    expect(cap).toBeGreaterThan(4_096)
    expect(cap).toBeLessThan(6_000)
    await paidInFull(user.id, 6_000)

    env.outcomes.length = 0
    const responses = await account(env, 6_000)
    expect((await post('/v1/responses', { authorization: `Bearer ${responses.key}` }, '{"model":"claude-sonnet-4-5","input":"hi"}')).status).toBe(200)
    expect(env.upstream.requests[1]!.json.max_tokens).toBeLessThan(6_000)
    await paidInFull(responses.user.id, 6_000)
  })

  test('a balance that buys fewer than MinOutputTokens: refused (403 insufficient_quota) before dispatch, nothing charged', async () => {
    const { user, key } = await account(env, 900)
    const res = await chat(env, key, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(403)
    const error = ((await res.json()) as { error: { code: string; message: string } }).error
    expect(error.code).toBe('insufficient_quota')
    expect(error.message).toContain('fewer than 1024 output tokens are not served (MinOutputTokens)')
    expect(env.upstream.requests).toHaveLength(0)
    const rows = await logsWhen(env, user.id, 1)
    expect(rows.map((r) => [r.type, r.quota])).toEqual([[5, 0]])
    await env.app.deps.options.set('MinOutputTokens', 500)
    try {
      expect((await chat(env, key, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
      expect(env.upstream.requests[0]!.json.max_completion_tokens).toBeGreaterThanOrEqual(500)
      expect(env.upstream.requests[0]!.json.max_completion_tokens).toBeLessThan(900)
    } finally {
      await env.app.deps.options.set('MinOutputTokens', 1024)
    }
  })

  test('twenty at once without a cap never overdraw: each sent with what was left, no unpaid row', async () => {
    const balance = 30_000
    const { user, key } = await account(env, balance)
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    const results = await Promise.all(Array.from({ length: 20 }, () => rawPost(env.app.url, '/v1/chat/completions', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body)))
    const served = results.filter((r) => r.status === 200).length
    expect(served).toBeGreaterThan(1)
    expect(results.every((r) => r.status === 200 || r.status === 403)).toBe(true)
    await settled(env, served)
    const rows = await logsWhen(env, user.id, 20)
    expect(unpaidOf(rows)).toEqual([])
    const spent = rows.reduce((n, r) => n + r.quota, 0)
    expect(spent).toBeLessThanOrEqual(balance)
    expect((await userRow(env, user.id)).quota).toBe(balance - spent)
  }, 30_000)

  test("a client's own cap is its choice: sent as it was, reserved in full (refused when the balance cannot)", async () => {
    const { key } = await account(env, 5_000)
    const raw = '{"model":"gpt-4o","max_tokens":3000,"messages":[{"role":"user","content":"hi"}]}'
    expect((await post('/v1/chat/completions', { authorization: `Bearer ${key}` }, raw)).status).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(raw)
    expect((await chat(env, key, { model: 'gpt-4o', max_tokens: 6_000, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(403)
  })

  test("Anthropic's required max_tokens is reserved in full: 64,000 with a smaller balance is refused before dispatch", async () => {
    const { user, key } = await account(env, 50_000)
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 64_000, messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(403)
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(50_000)
  })

  test('a price that output does not change (per call, or free) sends the body untouched', async () => {
    const { key } = await account(env, 1_000_000)
    const raw = '{"model":"free-model","messages":[{"role":"user","content":"hi"}]}'
    expect((await post('/v1/chat/completions', { authorization: `Bearer ${key}` }, raw)).status).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(raw)
  })
})

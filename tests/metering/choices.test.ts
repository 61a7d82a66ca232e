import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { LogRow } from '../../src/db/repos'
import type { RecordedRequest } from '../helpers/fake-upstreams'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, chatBody, logsOf, logsWhen, settled, startMeteredEnv, userRow } from './env'
import { rawPost } from './raw-http'

/**
 * Several outputs for one prompt (chat `n`, Gemini `candidateCount`) are reserved in the worst case, prompt plus
 * every output's allowance, before dispatch: a request whose worst case the balance cannot hold never reaches the
 * upstream, and many at once never overdraw (no `unpaid` row). Above MaxChoicesPerRequest: a 400 naming the field.
 */
let env: RelayEnv
const MODELS = ['gpt-4o', 'gemini-2.5-flash']

beforeAll(async () => {
  env = await startMeteredEnv()
  // one quota per token, in and out: the arithmetic below is token counts
  await env.app.deps.options.set('ModelRatio', Object.fromEntries(MODELS.map((m) => [m, 1])))
  await env.app.deps.options.set('CompletionRatio', Object.fromEntries(MODELS.map((m) => [m, 1])))
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash' })
})
afterAll(() => env.stop())
beforeEach(async () => {
  env.upstream.reset()
  env.outcomes.length = 0
  await env.app.deps.options.set('MaxChoicesPerRequest', 10)
})

/** The upstream answers every output at its full allowance, as a worst case does. */
function fullAnswers(outputs: (req: RecordedRequest) => number, maxOutput: (req: RecordedRequest) => number) {
  env.upstream.setBehavior((req) => ({ text: 'ok', firstByteDelayMs: 20, usage: { input: 10, output: outputs(req) * maxOutput(req) } }))
}
const chatWorstCase = () => fullAnswers((req) => req.json.n ?? 1, (req) => req.json.max_tokens ?? req.json.max_completion_tokens)
const geminiWorstCase = () =>
  fullAnswers((req) => req.json.generationConfig?.candidateCount ?? 1, (req) => req.json.generationConfig?.maxOutputTokens)

const geminiBody = (candidateCount: number, maxOutputTokens = 100) => ({
  contents: [{ role: 'user', parts: [{ text: 'hello there' }] }],
  generationConfig: { candidateCount, maxOutputTokens },
})
const gemini = (key: string, body: unknown) =>
  env.app.fetch('/v1beta/models/gemini-2.5-flash:generateContent', { method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) })

const unpaidOf = (rows: LogRow[]) => rows.filter((r) => JSON.parse(r.other).unpaid !== undefined)
const charged = (rows: LogRow[]) => rows.reduce((n, r) => n + r.quota, 0)

/** Nothing reached the upstream, nothing was charged, and the one row is the refusal. */
async function refusedBeforeDispatch(userId: number, balance: number) {
  const rows = await logsWhen(env, userId, 1)
  expect(env.upstream.requests).toHaveLength(0)
  expect(rows).toHaveLength(1)
  expect(rows[0]!).toMatchObject({ type: 5, quota: 0 })
  expect((await userRow(env, userId)).quota).toBe(balance)
}

describe('chat n', () => {
  test('n=128 is refused above MaxChoicesPerRequest with a 400 naming n, before dispatch', async () => {
    const { user, key } = await account(env, 25_000)
    const res = await chat(env, key, chatBody('gpt-4o', { n: 128, max_tokens: 1000 }))
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { message: string; param: string } }
    expect(body.error.param).toBe('n')
    expect(body.error.message).toContain('MaxChoicesPerRequest')
    await refusedBeforeDispatch(user.id, 25_000)
  })

  test('n=128 allowed by the cap but not by a US$0.05 balance: 403 naming the worst case, before dispatch', async () => {
    await env.app.deps.options.set('MaxChoicesPerRequest', 128)
    const { user, key } = await account(env, 25_000)
    const res = await chat(env, key, chatBody('gpt-4o', { n: 128, max_tokens: 1000 }))
    expect(res.status).toBe(403)
    const body = (await res.json()) as { error: { message: string } }
    // the prompt's bound and 128 × 1,000 output tokens
    expect(body.error.message).toMatch(/may cost up to 128\d{3} /)
    await refusedBeforeDispatch(user.id, 25_000)
  })

  test('n within the balance: reserved as n × max_tokens, settled exactly on the usage', async () => {
    chatWorstCase()
    const { user, key } = await account(env, 10_000)
    const res = await chat(env, key, chatBody('gpt-4o', { n: 4, max_tokens: 100 }))
    expect(res.status).toBe(200)
    await settled(env, 1)
    expect(env.upstream.requests[0]!.json.n).toBe(4)
    const [row] = await logsOf(env, user.id)
    const other = JSON.parse(row!.other)
    expect(other.reserved).toBeGreaterThanOrEqual(10 + 400)
    expect(other.unpaid).toBeUndefined()
    expect(row).toMatchObject({ type: 2, promptTokens: 10, completionTokens: 400, quota: 410 })
    expect((await userRow(env, user.id)).quota).toBe(10_000 - 410)
  })

  test('n without max_tokens is sent with the cap the balance buys for each of n outputs (tests/metering/output-cap.test.ts)', async () => {
    chatWorstCase()
    const { user, key } = await account(env, 4096 * 3)
    const res = await chat(env, key, { model: 'gpt-4o', n: 3, messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(200)
    await settled(env, 1)
    const cap = env.upstream.requests[0]!.json.max_completion_tokens as number
    expect(cap).toBeGreaterThan(4000)
    expect(cap * 3).toBeLessThanOrEqual(4096 * 3)
    const [row] = await logsOf(env, user.id)
    expect(JSON.parse(row!.other).unpaid).toBeUndefined()
    expect((await userRow(env, user.id)).quota).toBeGreaterThanOrEqual(0)
  })

  test('n without max_tokens whose balance buys under MinOutputTokens per output is refused before dispatch', async () => {
    const { user, key } = await account(env, 1024 * 3)
    const res = await chat(env, key, { model: 'gpt-4o', n: 3, messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(403)
    await refusedBeforeDispatch(user.id, 1024 * 3)
  })

  test('twenty concurrent n=8 requests never overdraw: the sum charged stays within the balance, no unpaid row', async () => {
    chatWorstCase()
    const balance = 5_000
    const { user, key } = await account(env, balance)
    const body = JSON.stringify(chatBody('gpt-4o', { n: 8, max_tokens: 100 }))
    const results = await Promise.all(
      Array.from({ length: 20 }, () => rawPost(env.app.url, '/v1/chat/completions', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body)),
    )
    const served = results.filter((r) => r.status === 200).length
    expect(served).toBeGreaterThan(0)
    expect(results.every((r) => r.status === 200 || r.status === 403)).toBe(true)
    await settled(env, served)
    const rows = await logsWhen(env, user.id, 20)
    expect(unpaidOf(rows)).toEqual([])
    expect(charged(rows)).toBe(served * 810)
    expect(charged(rows)).toBeLessThanOrEqual(balance)
    expect((await userRow(env, user.id)).quota).toBe(balance - served * 810)
  }, 30_000)

  test("the worst case is held against the API key's remaining quota and the tokens per minute too", async () => {
    const limited = await account(env, 1_000_000, 500)
    expect((await chat(env, limited.key, chatBody('gpt-4o', { n: 8, max_tokens: 100 }))).status).toBe(403)
    await refusedBeforeDispatch(limited.user.id, 1_000_000)
    await env.app.deps.options.set('TokenTpmLimit', 500)
    try {
      // a request above the whole minute runs when the minute is unused (else it never could), and takes all of it
      const { key } = await account(env, 1_000_000)
      expect((await chat(env, key, chatBody('gpt-4o', { n: 8, max_tokens: 100 }))).status).toBe(200)
      await settled(env, 1)
      const sent = env.upstream.requests.length
      const res = await chat(env, key, chatBody('gpt-4o', { n: 8, max_tokens: 100 }))
      expect(res.status).toBe(429)
      expect(env.upstream.requests.length).toBe(sent)
    } finally {
      await env.app.deps.options.set('TokenTpmLimit', 0)
    }
  })

  test('n spelled with escapes, or repeated (the last one counts, as JSON.parse and the vendor read it), in small and large bodies', async () => {
    const { user, key } = await account(env, 25_000)
    const long = 'z'.repeat(40_000)
    for (const raw of [
      `{"model":"gpt-4o","max_tokens":1000,"\u006e":128,"messages":[{"role":"user","content":"hi"}]}`,
      `{"model":"gpt-4o","n":1,"max_tokens":1000,"n":128,"messages":[{"role":"user","content":"hi"}]}`,
      `{"model":"gpt-4o","max_tokens":1000,"\u006e":128,"messages":[{"role":"user","content":"${long}"}]}`,
    ]) {
      const res = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: raw })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe('n')
    }
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(25_000)
  })

  test('n that is not a positive integer is a 400 naming n', async () => {
    const { key } = await account(env, 10_000)
    for (const n of [0, -1, 1.5, 'two']) {
      const res = await chat(env, key, chatBody('gpt-4o', { n }))
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe('n')
    }
    expect(env.upstream.requests).toHaveLength(0)
  })
})

describe('Gemini candidateCount', () => {
  test('candidateCount=128 is refused above MaxChoicesPerRequest, in Gemini error shape, before dispatch', async () => {
    const { user, key } = await account(env, 25_000)
    const res = await gemini(key, geminiBody(128, 1000))
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { status: string; message: string } }
    expect(body.error.status).toBe('INVALID_ARGUMENT')
    expect(body.error.message).toContain('generationConfig.candidateCount')
    await refusedBeforeDispatch(user.id, 25_000)
  })

  test('the snake_case spelling Google also reads is counted the same', async () => {
    await env.app.deps.options.set('MaxChoicesPerRequest', 128)
    const { user, key } = await account(env, 25_000)
    const res = await gemini(key, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generation_config: { candidate_count: 100, max_output_tokens: 1000 } })
    expect(res.status).toBe(403)
    await refusedBeforeDispatch(user.id, 25_000)
  })

  test('candidateCount beyond the balance: 403 before dispatch; within it: reserved and settled exactly', async () => {
    await env.app.deps.options.set('MaxChoicesPerRequest', 128)
    const poor = await account(env, 25_000)
    expect((await gemini(poor.key, geminiBody(100, 1000))).status).toBe(403)
    await refusedBeforeDispatch(poor.user.id, 25_000)

    geminiWorstCase()
    const { user, key } = await account(env, 10_000)
    const res = await gemini(key, geminiBody(4))
    expect(res.status).toBe(200)
    await settled(env, 1)
    const [row] = await logsOf(env, user.id)
    expect(JSON.parse(row!.other).reserved).toBeGreaterThanOrEqual(10 + 400)
    expect(row).toMatchObject({ type: 2, completionTokens: 400, quota: 410 })
  })

  test('twenty concurrent candidateCount=8 requests never overdraw, no unpaid row', async () => {
    geminiWorstCase()
    const balance = 5_000
    const { user, key } = await account(env, balance)
    const body = JSON.stringify(geminiBody(8))
    const results = await Promise.all(
      Array.from({ length: 20 }, () => rawPost(env.app.url, '/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': key, 'content-type': 'application/json' }, body)),
    )
    const served = results.filter((r) => r.status === 200).length
    expect(served).toBeGreaterThan(0)
    expect(results.every((r) => r.status === 200 || r.status === 403)).toBe(true)
    await settled(env, served)
    const rows = await logsWhen(env, user.id, 20)
    expect(unpaidOf(rows)).toEqual([])
    expect(charged(rows)).toBe(served * 810)
    expect(charged(rows)).toBeLessThanOrEqual(balance)
  }, 30_000)
})

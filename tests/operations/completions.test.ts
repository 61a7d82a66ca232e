import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { fakeFill, fakePromptTokens, slowStreams } from '../helpers/fake-upstreams/completions'
import { countTextTokens } from '../../src/relay/meter/tokenize'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'
import { until } from '../helpers/wait'

const MODEL = 'gpt-3.5-turbo-instruct'

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, MODEL)
  await o.env.app.deps.options.set('ModelRatio', { 'instruct-fo': 0.75, 'instruct-flaky': 0.75 })
})
afterAll(() => o.stop())

async function payer(balance = 10_000_000) {
  const { user, key } = await account(o.env, balance)
  return { user, key, client: new OpenAI({ apiKey: key, baseURL: `${o.env.app.url}/v1`, maxRetries: 0 }) }
}

const post = (key: string, body: unknown, init: RequestInit = {}) =>
  o.env.app.fetch('/v1/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body), ...init })

async function lastRow(userId: number, count: number) {
  await settled(o.env, count)
  const row = (await logsOf(o.env, userId)).at(-1)!
  return { row, other: JSON.parse(row.other) }
}

describe('POST /v1/completions to OpenAI', () => {
  test('the SDK: prompt, suffix, echo and logprobs go on untouched; the answer comes back as sent; billed per token', async () => {
    const { user, client } = await payer()
    const count = o.env.outcomes.length
    const prompt = 'def fib(n):'
    const suffix = '    return x'
    const res = await client.completions.create({ model: MODEL, prompt, suffix, max_tokens: 3, echo: true, logprobs: 1 })
    const fill = fakeFill(prompt, suffix, 3)
    expect(res.choices[0]!.text).toBe(prompt + fill.words.join(''))
    expect(res.choices[0]!.finish_reason).toBe('length')
    expect(res.choices[0]!.logprobs!.tokens).toEqual(fill.words)
    expect(o.up.requests.at(-1)!.json).toEqual({ model: MODEL, prompt, suffix, max_tokens: 3, echo: true, logprobs: 1 })
    expect(o.up.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    const { row, other } = await lastRow(user.id, count + 1)
    // 4 prompt words + 3 completion words; US$1.5 in, 2 out per million = 0.75 quota a prompt token, 1 a completion token
    expect(row).toMatchObject({ modelName: MODEL, promptTokens: fakePromptTokens(prompt, suffix), completionTokens: 3, quota: 6, isStream: false })
    expect(other.estimated).toBeUndefined()
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - 6)
  })

  test('several prompts and n: every choice comes back', async () => {
    const res = await o.openai.completions.create({ model: MODEL, prompt: ['a', 'bb'], n: 2, max_tokens: 1 })
    expect(res.choices.map((c) => c.index)).toEqual([0, 1, 2, 3])
  })

  test('a stream the client asked no usage of: usage asked upstream, its chunk dropped, the stream billed on it', async () => {
    const { user, client } = await payer()
    const count = o.env.outcomes.length
    const stream = await client.completions.create({ model: MODEL, prompt: 'x = ', max_tokens: 10, stream: true })
    const chunks = []
    for await (const chunk of stream) chunks.push(chunk)
    expect(chunks.map((c) => c.choices[0]?.text ?? '').join('')).toBe(fakeFill('x = ').words.join(''))
    expect(chunks.every((c) => c.choices.length > 0 && !c.usage)).toBe(true)
    expect(o.up.requests.at(-1)!.json.stream_options).toEqual({ include_usage: true })
    const { row, other } = await lastRow(user.id, count + 1)
    expect(row).toMatchObject({ promptTokens: fakePromptTokens('x = '), completionTokens: 4, isStream: true })
    expect(other.estimated).toBeUndefined()
  })

  test('a stream with include_usage ends with the usage chunk, as OpenAI sends it', async () => {
    const stream = await o.openai.completions.create({ model: MODEL, prompt: 'y', stream: true, stream_options: { include_usage: true } })
    const chunks = []
    for await (const chunk of stream) chunks.push(chunk)
    expect(chunks.at(-1)!.choices).toEqual([])
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 })
  })

  test('max_tokens is reserved: a balance that cannot hold it is refused before anything is sent', async () => {
    const { key } = await payer(100)
    const before = o.up.requests.length
    const refused = await post(key, { model: MODEL, prompt: 'a', max_tokens: 1000 })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as any).error.code).toBe('insufficient_quota')
    expect(o.up.requests.length).toBe(before)
    expect((await post(key, { model: MODEL, prompt: 'a', max_tokens: 5 })).status).toBe(200)
  })

  test('bad input is a 400 naming the field, nothing sent', async () => {
    const before = o.up.requests.length
    for (const [body, param] of [
      [{ model: MODEL }, 'prompt'],
      [{ model: MODEL, prompt: [] }, 'prompt'],
      [{ model: MODEL, prompt: ['a', 1] }, 'prompt[1]'],
      [{ model: MODEL, prompt: [[1, 2], ['x']] }, 'prompt[1]'],
      [{ model: MODEL, prompt: 'a', suffix: 5 }, 'suffix'],
      [{ model: MODEL, prompt: 'a', max_tokens: -1 }, 'max_tokens'],
      [{ model: MODEL, prompt: 'a', n: 0 }, 'n'],
      [{ model: MODEL, prompt: 'a', stream: 'yes' }, 'stream'],
      [{ model: MODEL, prompt: 'a', stream: true, stream_options: { include_usage: 'x' } }, 'stream_options.include_usage'],
      [{ prompt: 'a' }, 'model'],
    ] as const) {
      const res = await post(o.env.key, body)
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error.param).toBe(param)
    }
    expect(o.up.requests.length).toBe(before)
  })

  test('an error event before any content fails over to the next channel; the key in it never reaches the client', async () => {
    await o.channel(1, 'instruct-fo', { priority: 5, modelMapping: JSON.stringify({ 'instruct-fo': 'instruct-flaky' }) })
    await o.channel(1, 'instruct-fo', { priority: 0 })
    const before = o.up.requests.length
    const stream = await o.openai.completions.create({ model: 'instruct-fo', prompt: 'z', stream: true })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? ''
    expect(text).toBe(fakeFill('z').words.join(''))
    expect(o.up.requests.slice(before).map((r) => r.json.model)).toEqual(['instruct-flaky', 'instruct-fo'])

    await o.channel(1, 'instruct-flaky')
    const failed = await o.openai.completions.create({ model: 'instruct-flaky', prompt: 'z', stream: true }).catch((e) => e)
    expect(failed).toBeInstanceOf(OpenAI.APIError)
    expect(failed.message).toContain('overloaded')
    expect(failed.message).not.toContain(OP_KEY)
  })

  test('an upstream 4xx comes back to the client with the key masked', async () => {
    o.up.failNext('/v1/completions', 400, { error: { message: `prompt too long for ${OP_KEY}`, type: 'invalid_request_error' } })
    const error = await o.openai.completions.create({ model: MODEL, prompt: 'a' }).catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect(error.message).toContain('prompt too long')
    expect(error.message).not.toContain(OP_KEY)
  })

  test('an upstream that breaks mid-stream: the client gets an error event, and pays for the text it got', async () => {
    const { user, client } = await payer()
    const count = o.env.outcomes.length
    const stream = await client.completions.create({ model: MODEL, prompt: '[break] q', stream: true })
    let text = ''
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.text ?? ''
    })().catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect(String(error.message)).toContain('upstream broke off')
    expect(text).toBe(fakeFill('[break] q').words.slice(0, 2).join(''))
    const { row } = await lastRow(user.id, count + 1)
    expect(row).toMatchObject({ promptTokens: countTextTokens('[break] q'), completionTokens: countTextTokens(text), type: 2 })
  })

  test('a client that goes away mid-stream: the upstream is cancelled and what was sent is billed', async () => {
    const { user, key } = await payer()
    const count = o.env.outcomes.length
    const cancelled = slowStreams.cancelled
    const abort = new AbortController()
    const res = await post(key, { model: MODEL, prompt: '[slow] w', stream: true }, { signal: abort.signal })
    const reader = res.body!.getReader()
    let seen = ''
    while ((seen.match(/"text"/g) ?? []).length < 3) seen += new TextDecoder().decode((await reader.read()).value)
    abort.abort()
    await until(() => slowStreams.cancelled > cancelled, { what: 'the upstream cancelled' })
    expect(slowStreams.cancelled).toBe(cancelled + 1)
    const { row, other } = await lastRow(user.id, count + 1)
    expect(other.aborted).toBe(true)
    expect(row.completionTokens).toBeGreaterThanOrEqual(3)
    expect(row.quota).toBeGreaterThan(0)
  })
})
